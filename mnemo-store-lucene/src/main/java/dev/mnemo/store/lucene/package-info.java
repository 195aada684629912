/**
 * The embedded default {@link dev.mnemo.spi.MemoryStore}: one Lucene 10 index in one directory,
 * holding BM25 text, HNSW vectors, keyword and numeric fields, with eligibility pushed into every
 * search as a filter.
 */
package dev.mnemo.store.lucene;

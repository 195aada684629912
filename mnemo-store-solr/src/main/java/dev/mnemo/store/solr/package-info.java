/**
 * A distributed {@link dev.mnemo.spi.MemoryStore} on SolrCloud: one collection sharded by owner
 * (compositeId routing), replicated, with the embedded store's eligibility, temporal and BM25
 * semantics. SolrJ only; the configset ships in this module's resources.
 */
package dev.mnemo.store.solr;

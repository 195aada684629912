/**
 * The engine behind {@link dev.mnemo.Mnemo}, not public API: the read path ({@code ReadPath}:
 * candidates, fusion, eligibility, supersession, the fetch gate, packing under a token budget), the
 * write path ({@code WritePath}: validation, embedding, versioning of fact keys), the ingest pipeline
 * for turns ({@code IngestPipeline} and its work queue {@code IngestQueue}) and the retrieval log
 * writer. Other modules must not depend on anything here.
 */
package dev.mnemo.internal;

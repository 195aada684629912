/**
 * The engine behind {@link dev.mnemo.Mnemo}, not public API: the read path ({@code ReadPath}:
 * candidates, fusion, eligibility, supersession, the fetch gate, packing under a token budget), the
 * write path ({@code WritePath}: validation, embedding, versioning of fact keys), the ingest
 * pipeline for turns ({@code IngestPipeline} and its work queue {@code IngestQueue}) and the
 * retrieval log writer. The engine class is package-private; {@code Engines.open} is the one door,
 * used by {@link dev.mnemo.Mnemo.Builder#build()}. Other modules must not depend on anything here:
 * what they need of the engine is a facet of {@link dev.mnemo.Mnemo} ({@link
 * dev.mnemo.Mnemo#diagnostics()}).
 */
package dev.mnemo.internal;

/**
 * The engine behind {@link dev.mnemo.Mnemo}, not public API: the read path ({@code ReadPath}:
 * candidates, fusion, eligibility, supersession, the fetch gate, packing under a token budget), the
 * write path ({@code WritePath}: validation, embedding, versioning of fact keys), the ingest
 * pipeline for turns ({@code IngestPipeline} and its work queue {@code IngestQueue}) and the
 * retrieval log writer; the engine's other parts (summaries, forgetting, the facets) are listed in
 * {@code docs/engine-layout.md}. The engine class is package-private; {@code Engines} is the one
 * door, an {@link dev.mnemo.spi.EngineFactory} that {@link dev.mnemo.Mnemo.Builder#build()} finds
 * with a ServiceLoader (so {@code dev.mnemo} does not import this package). Other modules must not
 * depend on anything here: what they need of the engine is a facet of {@link dev.mnemo.Mnemo}
 * ({@link dev.mnemo.Mnemo#diagnostics()}).
 */
package dev.mnemo.internal;

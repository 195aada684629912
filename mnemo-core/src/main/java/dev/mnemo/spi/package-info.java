/**
 * The service-provider interfaces a deployment plugs into the engine: where records live ({@link
 * dev.mnemo.spi.MemoryStore}, with the {@link dev.mnemo.spi.Eligibility} filters it applies inside
 * every search and the {@link dev.mnemo.spi.CandidateQuery} of the read path), the turn and
 * retrieval logs ({@link dev.mnemo.spi.TurnLog}, {@link dev.mnemo.spi.RecallLog}), text to vectors
 * ({@link dev.mnemo.spi.Embedder}), token counting ({@link dev.mnemo.spi.Tokenizer}), and the write
 * path's {@link dev.mnemo.spi.Extractor} and {@link dev.mnemo.spi.Consolidator}. Providers are
 * found by name through {@link dev.mnemo.spi.Providers}. Implementations are contract-tested by
 * mnemo-testkit.
 */
package dev.mnemo.spi;

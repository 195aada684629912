package dev.mnemo.internal;

import dev.mnemo.Diagnostics;
import dev.mnemo.MemoryRecord;
import dev.mnemo.spi.Embedder;
import dev.mnemo.spi.MemoryStore;
import dev.mnemo.spi.Tokenizer;
import java.time.Duration;
import java.util.Optional;

/**
 * The engine's {@link Diagnostics} facet: the parts it runs on and the retrieval log's writer, for
 * tools, benchmarks and tests. Its own class (not an anonymous one in {@link Engine}) so that the
 * facet is a small object that cannot be cast back to the engine, and the engine's file holds only
 * the engine's calls.
 */
final class EngineDiagnostics implements Diagnostics {
  private final MemoryStore store;
  private final Embedder embedder;
  private final Tokenizer tokenizer;
  private final EngineRetrievalLog recallLog;

  EngineDiagnostics(
      MemoryStore store, Embedder embedder, Tokenizer tokenizer, EngineRetrievalLog recallLog) {
    this.store = store;
    this.embedder = embedder;
    this.tokenizer = tokenizer;
    this.recallLog = recallLog;
  }

  @Override
  public MemoryStore store() {
    return store;
  }

  @Override
  public Optional<Embedder> embedder() {
    return Optional.ofNullable(embedder);
  }

  @Override
  public Tokenizer tokenizer() {
    return tokenizer;
  }

  @Override
  public int blockTokens(MemoryRecord r, boolean first) {
    return tokenizer.count(Renderer.line(r, false))
        + (first ? tokenizer.count(Renderer.HEADER) : 0);
  }

  @Override
  public boolean flushRecallLog(Duration timeout) {
    return recallLog.flush(timeout);
  }

  @Override
  public long recallLogWriterCpuNanos() {
    return recallLog.writerCpuNanos();
  }

  @Override
  public long recallLogBytes() {
    return recallLog.sizeBytes();
  }
}

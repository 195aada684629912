package dev.mnemo;

import dev.mnemo.spi.Embedder;
import dev.mnemo.spi.MemoryStore;
import dev.mnemo.spi.Tokenizer;
import java.time.Duration;
import java.util.Optional;

/**
 * The parts of an embedded engine, for evaluation baselines, benchmarks and tests: not for
 * applications. Reached through {@link Mnemo#diagnostics()}, which only the engine {@link
 * Mnemo#builder()} builds answers (a remote client or a wrapper answers empty).
 *
 * <p>The store is the engine's own: reading it bypasses the read path (eligibility is then the
 * caller's {@link dev.mnemo.spi.Eligibility}); writing through it bypasses the write path and its
 * lock, so do not. Valid until the {@link Mnemo} is closed.
 */
public interface Diagnostics {

  /** The engine's store. */
  MemoryStore store();

  /** The engine's embedder; empty when it recalls without a dense signal. */
  Optional<Embedder> embedder();

  /** The tokenizer budgets are counted with. */
  Tokenizer tokenizer();

  /**
   * What a record costs in a recall's budget: the tokens of the line it renders to in the prompt
   * block (dates and markup included), plus the block's header when {@code first}. For baselines
   * that pack records themselves at the same budget as the read path.
   */
  int blockTokens(MemoryRecord record, boolean first);

  /**
   * Waits until every recall logged so far is stored (logging is asynchronous); false when the
   * timeout passed first. True at once when no recall is logged.
   */
  boolean flushRecallLog(Duration timeout);

  /** CPU nanoseconds the retrieval log's writer thread has spent so far; 0 when not logging. */
  long recallLogWriterCpuNanos();

  /** Bytes of the retrieval log's files; 0 without a log. */
  long recallLogBytes();
}

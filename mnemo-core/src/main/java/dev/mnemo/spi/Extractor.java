package dev.mnemo.spi;

import dev.mnemo.NewMemory;
import dev.mnemo.Turn;
import java.time.ZoneId;
import java.util.List;

/**
 * Decides what in a conversation is worth remembering: turns in, candidate memories out.
 *
 * <p>The write path calls it with a batch of one owner's message turns (never tool calls, tool
 * results or failed attempts). Each candidate must name in {@link NewMemory#sources()} the ids of
 * the turns it came from; the write path then consolidates the candidates against the owner's
 * existing records (see {@link Consolidator}). Implementations are thread-safe.
 */
public interface Extractor {

  /** A stable id, e.g. {@code "offline"} or {@code "llm"}. */
  String id();

  /**
   * Candidate memories from {@code batch.turns()}.
   *
   * @throws ExtractionException when no valid output could be produced; the write path keeps the
   *     turns and records an extraction error artifact; nothing is half-written
   */
  List<NewMemory> extract(Batch batch);

  /**
   * One extraction call's input.
   *
   * @param owner the owner of every turn
   * @param context earlier turns of the same episode, for reference only (not to be extracted
   *     again)
   * @param turns the turns to extract from, in order
   * @param zone the zone in which calendar words are read
   */
  record Batch(String owner, List<dev.mnemo.Turn> context, List<Turn> turns, ZoneId zone) {
    public Batch {
      context = List.copyOf(context);
      turns = List.copyOf(turns);
    }
  }

  /** Extraction failed for a batch (malformed model output after a retry, a timeout, ...). */
  final class ExtractionException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final boolean retriable;

    public ExtractionException(String message, boolean retriable, Throwable cause) {
      super(message, cause);
      this.retriable = retriable;
    }

    /**
     * Whether trying the same batch later may succeed (a timeout or a rate limit, not bad output).
     */
    public boolean retriable() {
      return retriable;
    }
  }
}

package dev.mnemo;

/**
 * Where background extraction stands: counts of the turn log's states and of the work done since
 * the engine was opened.
 *
 * @param pending turns durable and waiting for extraction (the queue)
 * @param extracted turns the extractor has seen (since the log was created)
 * @param kept turns kept as sources only (tool events, system messages, failed or partial attempts)
 * @param errors extraction error artifacts
 * @param recordsWritten records the write path added or versioned since the engine was opened
 * @param duplicatesMerged candidates merged into an existing record (NOOP) since the engine was
 *     opened
 * @param conflicts candidates kept beside a contradicting record since the engine was opened
 * @param lastError the last extraction error since the engine was opened, or null
 * @param deadLettered turns moved to the dead-letter list since the engine was opened: their batch
 *     failed after extraction (a record the store refused) on every retry, so they became {@code
 *     error} artifacts instead of stalling the queue; {@code accept} makes one pending again
 * @param deadLetters the latest of those ({@code owner/id: why}), oldest first, at most 20
 */
public record IngestProgress(
    long pending,
    long extracted,
    long kept,
    long errors,
    long recordsWritten,
    long duplicatesMerged,
    long conflicts,
    String lastError,
    long deadLettered,
    java.util.List<String> deadLetters) {

  public IngestProgress {
    deadLetters = deadLetters == null ? java.util.List.of() : java.util.List.copyOf(deadLetters);
  }

  /** Progress without dead letters. */
  public IngestProgress(
      long pending,
      long extracted,
      long kept,
      long errors,
      long recordsWritten,
      long duplicatesMerged,
      long conflicts,
      String lastError) {
    this(
        pending,
        extracted,
        kept,
        errors,
        recordsWritten,
        duplicatesMerged,
        conflicts,
        lastError,
        0,
        null);
  }
}

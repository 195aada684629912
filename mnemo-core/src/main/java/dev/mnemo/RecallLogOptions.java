package dev.mnemo;

import java.time.Duration;

/**
 * How the engine keeps its retrieval log (when its store offers one, or one is given).
 *
 * <p>Logging is asynchronous: a recall hands its entry to a bounded queue and returns; one writer
 * thread stores entries in batches. When the queue is full the entry is dropped and counted ({@link
 * RecallStats#dropped()}), never waited for, so the log cannot slow recalls down under overload.
 *
 * @param enabled whether recalls are logged at all (default true)
 * @param sample share of recalls logged, in (0, 1] (default 1: every recall)
 * @param retention entries older than this are deleted; null keeps them (default 30 days)
 * @param queue entries waiting to be written at most (default 10,000)
 */
public record RecallLogOptions(boolean enabled, double sample, Duration retention, int queue) {
  public static final RecallLogOptions DEFAULT =
      new RecallLogOptions(true, 1.0, Duration.ofDays(30), 10_000);
  public static final RecallLogOptions OFF = new RecallLogOptions(false, 1.0, null, 1);

  public RecallLogOptions {
    if (!(sample > 0 && sample <= 1)) {
      throw new InvalidRequestException(
          "recall_log.sample", sample, "recall_log.sample must be in (0, 1], was " + sample);
    }
    if (retention != null && (retention.isNegative() || retention.isZero())) {
      throw new InvalidRequestException(
          "recall_log.retention",
          retention,
          "recall_log.retention must be a positive duration, was " + retention);
    }
    if (queue < 1)
      throw new InvalidRequestException(
          "recall_log.queue", queue, "recall_log.queue must be >= 1, was " + queue);
  }
}

package dev.mnemo;

import java.util.List;
import java.util.Map;

/**
 * A logged recall run again: the same request (its "now", so the store as it was known then) with
 * the logged settings, against the engine as it is, and how the answer differs from the logged one.
 *
 * @param id the log entry's id
 * @param identical whether the same records were selected in the same order
 * @param selectedThen the ids selected when the recall was logged
 * @param selectedNow the ids the replay selected
 * @param added selected now, not then
 * @param removed selected then, not now
 * @param changes candidates whose outcome or final score differ (the logged score is rounded to 4
 *     decimals; smaller differences are not reported)
 * @param engineChanges identities that differ: key to {@code [then, now]} (embedder, tokenizer,
 *     version)
 * @param trace the replay's full trace
 * @param nanos how long the replay's recall took
 */
public record Replay(
    String id,
    boolean identical,
    List<String> selectedThen,
    List<String> selectedNow,
    List<String> added,
    List<String> removed,
    List<Change> changes,
    Map<String, List<String>> engineChanges,
    RecallTrace trace,
    long nanos) {

  /**
   * One candidate that fared differently.
   *
   * @param id record id
   * @param outcomeThen outcome code then, or {@code absent} (not a candidate then)
   * @param outcomeNow outcome code now, or {@code absent} (not a candidate now, e.g. forgotten)
   * @param scoreThen final score then, NaN when absent
   * @param scoreNow final score now, NaN when absent
   * @param reasonNow the replay's reason, or null
   */
  public record Change(
      String id,
      String outcomeThen,
      String outcomeNow,
      double scoreThen,
      double scoreNow,
      String reasonNow) {}
}

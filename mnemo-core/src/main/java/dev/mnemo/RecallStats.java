package dev.mnemo;

/**
 * Runtime rates of the recalls in the retrieval log (or a search of it).
 *
 * @param recalls logged recalls
 * @param fetched recalls that selected at least one record
 * @param selected records selected, over all recalls
 * @param used selected records the caller reported used ({@code markUsed}) after the recall
 * @param injectedTokens tokens of the rendered blocks of the recalls that selected something
 * @param dropped recalls the logger could not log since the engine started: its queue was full, or
 *     the log refused the write (usage reports in a refused batch count too)
 */
public record RecallStats(
    long recalls, long fetched, long selected, long used, long injectedTokens, long dropped) {

  /** Share of recalls that put something into the prompt. */
  public double fetchRate() {
    return recalls == 0 ? Double.NaN : (double) fetched / recalls;
  }

  /** Share of recalls that selected nothing (an empty answer is a valid answer). */
  public double abstentionRate() {
    return recalls == 0 ? Double.NaN : (double) (recalls - fetched) / recalls;
  }

  /** Mean tokens of the rendered block, over the recalls that selected something. */
  public double meanInjectedTokens() {
    return fetched == 0 ? Double.NaN : (double) injectedTokens / fetched;
  }

  /** Share of selected records the caller reported used: meaningful only with usage feedback. */
  public double useRate() {
    return selected == 0 ? Double.NaN : (double) used / selected;
  }
}

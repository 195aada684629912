package dev.mnemo;

import java.util.List;

/**
 * The answer to a recall: the selected records (best first; empty when nothing is relevant, which
 * is a valid answer), the prompt block rendered from them, and the trace.
 *
 * @param selected selected records, best first
 * @param rendered the prompt block: newest first, each line dated; empty when nothing was selected
 * @param tokensUsed tokens of the selected texts
 * @param renderedTokens tokens of the rendered block, header, dates and markers included: at most
 *     the request's budget
 * @param trace the full trace when the request asked for {@code explain}, else null
 */
public record RecallResult(
    List<Recalled> selected,
    String rendered,
    int tokensUsed,
    int renderedTokens,
    RecallTrace trace) {
  public RecallResult {
    selected = List.copyOf(selected);
  }

  /** The selected records' ids, best first. */
  public List<String> ids() {
    return selected.stream().map(r -> r.record().id()).toList();
  }

  /** The selected records' source ids, best first, without repeats. */
  public List<String> sourceIds() {
    return selected.stream().flatMap(r -> r.record().sources().stream()).distinct().toList();
  }
}

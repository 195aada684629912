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
 * @param withheld what the fetch gate held back: an empty answer says whether the store had
 *     candidates that the gate judged irrelevant (and how close the best came), or nothing matched
 * @param trace the full trace when the request asked for {@code explain}, else null
 */
public record RecallResult(
    List<Recalled> selected,
    String rendered,
    int tokensUsed,
    int renderedTokens,
    Withheld withheld,
    RecallTrace trace) {
  public RecallResult {
    selected = List.copyOf(selected);
    java.util.Objects.requireNonNull(withheld, "withheld (Withheld.NONE when no gate applied)");
  }

  /**
   * What the fetch gate held back from one recall.
   *
   * @param searched false when the message was not looked up at all (small talk: nothing to look
   *     up), else true
   * @param count candidates whose relevance was below {@code minRelevance} (among those the
   *     selection reached: it stops asking once k records are selected)
   * @param bestRelevance the highest relevance among them, {@code NaN} when none was withheld
   * @param minRelevance the threshold the gate applied; 0 when no gate applied (turned off by the
   *     request, or no relevance model fits the embedder)
   */
  public record Withheld(boolean searched, int count, double bestRelevance, double minRelevance) {
    /** No gate applied: nothing withheld. */
    public static final Withheld NONE = new Withheld(true, 0, Double.NaN, 0);

    /** What a recall's trace shows the gate withheld (a logged recall keeps only its trace). */
    public static Withheld of(RecallTrace t) {
      RecallTrace.Gate g = t.gate();
      if (g == null) return NONE;
      return of(
          g,
          t.candidates().stream()
              .filter(c -> c.outcome() == Outcome.BELOW_THRESHOLD && c.relevance() != null)
              .mapToDouble(c -> c.relevance().probability())
              .filter(p -> p < g.minRelevance()));
    }

    /**
     * What {@code gate} withheld: the probabilities of the candidates it held back (none when the
     * message was not looked up or no gate applied).
     */
    public static Withheld of(RecallTrace.Gate gate, java.util.stream.DoubleStream withheld) {
      if ("skip".equals(gate.fetch()))
        return new Withheld(false, 0, Double.NaN, gate.minRelevance());
      if (gate.minRelevance() <= 0) return NONE;
      double[] p = withheld.toArray();
      double best = java.util.Arrays.stream(p).max().orElse(Double.NaN);
      return new Withheld(true, p.length, best, gate.minRelevance());
    }
  }

  /** This result without its trace. */
  public RecallResult withoutTrace() {
    return trace == null
        ? this
        : new RecallResult(selected, rendered, tokensUsed, renderedTokens, withheld, null);
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

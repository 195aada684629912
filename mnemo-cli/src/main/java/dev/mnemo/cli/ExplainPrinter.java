package dev.mnemo.cli;

import dev.mnemo.CandidateTrace;
import dev.mnemo.RecallResult;
import dev.mnemo.RecallTrace;
import dev.mnemo.Signals;
import java.io.PrintStream;
import java.util.Locale;

/** Prints a recall's result and, with a trace, a readable table of every candidate's signals. */
final class ExplainPrinter {
  private ExplainPrinter() {}

  static void print(RecallResult r, PrintStream out) {
    RecallResult.Withheld w = r.withheld();
    if (r.selected().isEmpty()) {
      out.println("(nothing selected: " + nothingSelected(r) + ")");
    } else {
      out.println(r.rendered());
    }
    out.printf(
        Locale.ROOT,
        "%d selected, %d tokens of texts, %d tokens rendered%s%n",
        r.selected().size(),
        r.tokensUsed(),
        r.renderedTokens(),
        r.selected().isEmpty() || w.count() == 0
            ? ""
            : String.format(
                Locale.ROOT,
                "; %d withheld below min_relevance %.3f (best relevance %.3f)",
                w.count(),
                w.minRelevance(),
                w.bestRelevance()));
    RecallTrace t = r.trace();
    if (t == null) return;
    out.println();
    out.printf(
        Locale.ROOT,
        "trace: owner=%s mode=%s valid_time=%s known_time=%s fusion=%s packing=%s k=%d budget=%d threshold=%.2f%n",
        t.owner(),
        t.mode(),
        t.validTime(),
        t.knownTime(),
        t.fusion(),
        t.packing(),
        t.k(),
        t.budgetTokens(),
        t.threshold());
    out.printf(
        Locale.ROOT,
        "       time words: %s   query entities: %s   embedder: %s (cosine floor %.3f)   tokenizer: %s%n",
        t.timeRange() == null
            ? "-"
            : "'"
                + t.timeRange().expression()
                + "' = ["
                + t.timeRange().from()
                + ", "
                + t.timeRange().to()
                + ")",
        t.queryEntities(),
        t.embeddingModel() == null ? "none" : t.embeddingModel(),
        t.denseFloor(),
        t.tokenizer());
    if (t.gate() != null) {
      out.printf(
          Locale.ROOT,
          "       fetch gate: %s (%s), min_relevance %.2f%s, model %s%n",
          t.gate().fetch(),
          t.gate().reason(),
          t.gate().minRelevance(),
          t.gate().exhaustive() ? " (exhaustive)" : "",
          t.gate().model());
    }
    out.printf(
        Locale.ROOT,
        "%-16s %-18s %6s %6s %6s %6s %6s %6s %6s %6s %6s %6s %6s  %-15s %s%n",
        "outcome",
        "source",
        "relev",
        "cos",
        "dense",
        "bm25",
        "entity",
        "match",
        "recen",
        "impor",
        "freq",
        "time",
        "final",
        "found by",
        "text / reason");
    for (CandidateTrace c : t.candidates()) {
      Signals s = c.signals();
      String text = c.text().length() > 60 ? c.text().substring(0, 57) + "..." : c.text();
      out.printf(
          Locale.ROOT,
          "%-16s %-18s %6s %6s %6.3f %6.3f %6.3f %6.3f %6.3f %6.3f %6.3f %6.0f %6.3f  %-15s %s%n",
          c.outcome() == null ? "-" : c.outcome().code(),
          trim(
              String.join(
                  ",",
                  c.sources().isEmpty() ? java.util.List.of(c.id().substring(0, 8)) : c.sources()),
              18),
          c.relevance() == null
              ? "-"
              : String.format(Locale.ROOT, "%.3f", c.relevance().probability()),
          Double.isNaN(s.cosine()) ? "-" : String.format(Locale.ROOT, "%.3f", s.cosine()),
          s.dense(),
          s.bm25(),
          s.entity(),
          s.match(),
          s.recency(),
          s.importance(),
          s.frequency(),
          s.timeMatch(),
          s.finalScore(),
          String.join(",", c.foundBy()),
          text);
      if (!"selected".equals(c.reason()))
        out.printf(Locale.ROOT, "%-16s %-18s %s%n", "", "", "  reason: " + c.reason());
    }
    StringBuilder sb = new StringBuilder("stage ms:");
    t.stageNanos().forEach((k, v) -> sb.append(String.format(Locale.ROOT, " %s=%.2f", k, v / 1e6)));
    out.println(sb);
  }

  /**
   * Why an answer is empty, in the words of the setting that decided it: users of memory services
   * whose default threshold drops relevant records "think the memory is empty"; this line says
   * whether it is.
   */
  static String nothingSelected(RecallResult r) {
    RecallResult.Withheld w = r.withheld();
    if (!w.searched()) {
      return (r.trace() != null && r.trace().gate() != null
              ? r.trace().gate().reason()
              : "small talk, nothing to look up")
          + "; --min-relevance 0 looks it up anyway";
    }
    if (w.count() > 0) {
      return String.format(
          Locale.ROOT,
          "%d candidate%s withheld below min_relevance %.3f, the best at relevance %.3f;"
              + " a lower --min-relevance lets %s through, 0 turns the gate off",
          w.count(),
          w.count() == 1 ? "" : "s",
          w.minRelevance(),
          w.bestRelevance(),
          w.count() == 1 ? "it" : "them");
    }
    return "no eligible record matched the message closely enough";
  }

  private static String trim(String s, int n) {
    return s.length() <= n ? s : s.substring(0, n - 1) + "…";
  }
}

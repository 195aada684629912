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
    if (r.selected().isEmpty()) {
      boolean skipped =
          r.trace() != null && r.trace().gate() != null && "skip".equals(r.trace().gate().fetch());
      out.println(
          skipped
              ? "(nothing selected: " + r.trace().gate().reason() + ")"
              : "(nothing selected: no eligible record passed the threshold)");
    } else {
      out.println(r.rendered());
    }
    out.printf(
        Locale.ROOT,
        "%d selected, %d tokens of texts, %d tokens rendered%n",
        r.selected().size(),
        r.tokensUsed(),
        r.renderedTokens());
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
        "p",
        "cos",
        "dense",
        "bm25",
        "entity",
        "relev",
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
          s.relevance(),
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

  private static String trim(String s, int n) {
    return s.length() <= n ? s : s.substring(0, n - 1) + "…";
  }
}

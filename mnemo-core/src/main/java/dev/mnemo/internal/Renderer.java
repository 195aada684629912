package dev.mnemo.internal;

import dev.mnemo.Category;
import dev.mnemo.MemoryRecord;
import dev.mnemo.RecallRequest;
import dev.mnemo.spi.Tokenizer;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Stage 8, render: the prompt block. Newest first (by valid start), one line per record, each dated:
 * {@code [2026-02-08]} for an episode, {@code [since 2026-06-01]} for an open fact,
 * {@code [2026-03-01 to 2026-06-01]} for a closed one; conflicting records say so, with their
 * authority ({@code verified}, {@code explicit}, {@code derived}). Capped at the
 * budget plus 16 tokens per line and 16 for the header (the dates and markup), whole lines only.
 */
final class Renderer {
  private Renderer() {}

  static final String HEADER = "Relevant memories (newest first):";
  private static final DateTimeFormatter DAY = DateTimeFormatter.ISO_LOCAL_DATE.withZone(ZoneOffset.UTC);

  static String render(List<ReadPath.Scored> selected, RecallRequest req, Tokenizer tokenizer) {
    if (selected.isEmpty()) return "";
    List<ReadPath.Scored> lines = new ArrayList<>(selected);
    lines.sort(Comparator.<ReadPath.Scored, Instant>comparing(s -> s.r.validFrom()).reversed()
        .thenComparing(s -> s.r.id()));
    int cap = req.budgetTokens() + 16 * lines.size() + 16;
    StringBuilder sb = new StringBuilder(HEADER);
    int used = tokenizer.count(HEADER);
    for (ReadPath.Scored s : lines) {
      String line = "\n- " + dates(s.r) + " " + s.r.text().strip().replace('\n', ' ')
          + (s.conflictsWith.isEmpty() ? "" : " (conflicting records of '" + s.r.factKey() + "', this one "
              + s.r.authority().code() + ": engine cannot tell which holds)");
      int t = tokenizer.count(line);
      if (used + t > cap) break;
      used += t;
      sb.append(line);
    }
    return sb.toString();
  }

  /** The date label of a record. */
  static String dates(MemoryRecord r) {
    String from = DAY.format(r.validFrom());
    if (r.validTo() != null) return "[" + from + " to " + DAY.format(r.validTo()) + "]";
    if (r.category() == Category.EPISODIC) return "[" + from + "]";
    return "[since " + from + "]";
  }
}

package dev.mnemo.internal;

import dev.mnemo.Category;
import dev.mnemo.MemoryRecord;
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
 * authority ({@code verified}, {@code explicit}, {@code derived}). The budget bounds this block, header,
 * dates and markers included: packing counts each record as the line it renders to ({@link #line})
 * plus the {@link #HEADER} once, and the read path checks the block itself (see
 * {@code ReadPath.fitBlock}), so the renderer renders every selected record.
 */
final class Renderer {
  private Renderer() {}

  static final String HEADER = "Relevant memories (newest first):";
  private static final DateTimeFormatter DAY = DateTimeFormatter.ISO_LOCAL_DATE.withZone(ZoneOffset.UTC);

  static String render(List<ReadPath.Scored> selected) {
    if (selected.isEmpty()) return "";
    List<ReadPath.Scored> lines = new ArrayList<>(selected);
    lines.sort(Comparator.<ReadPath.Scored, Instant>comparing(s -> s.r.validFrom()).reversed()
        .thenComparing(s -> s.r.id()));
    StringBuilder sb = new StringBuilder(HEADER);
    for (ReadPath.Scored s : lines) sb.append(line(s.r, !s.conflictsWith.isEmpty()));
    return sb.toString();
  }

  /** The line a record renders to, with its leading newline; {@code conflict}: marked as conflicting. */
  static String line(MemoryRecord r, boolean conflict) {
    return "\n- " + dates(r) + " " + r.text().strip().replace('\n', ' ')
        + (conflict ? " (conflicting records of '" + r.factKey() + "', this one " + r.authority().code()
            + ": engine cannot tell which holds)" : "");
  }

  /** The date label of a record. */
  static String dates(MemoryRecord r) {
    String from = DAY.format(r.validFrom());
    if (r.validTo() != null) return "[" + from + " to " + DAY.format(r.validTo()) + "]";
    if (r.category() == Category.EPISODIC) return "[" + from + "]";
    return "[since " + from + "]";
  }
}

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
 * Stage 8, render: the prompt block. Newest first (by valid start), one line per record, each
 * dated: {@code [2026-02-08]} for an episode, {@code [since 2026-06-01]} for an open fact, {@code
 * [2026-03-01 to 2026-06-01]} for a closed one; conflicting records say so, with their authority
 * ({@code verified}, {@code explicit}, {@code derived}). The budget bounds this block, header,
 * dates and markers included: packing counts each record as the line it renders to ({@link #line})
 * plus the {@link #HEADER} once, and the read path checks the block itself (see {@code
 * ReadPath.fitBlock}), so the renderer renders every selected record.
 *
 * <p>A request may ask for more ({@link Style}): each line's relevance, {@code (relevance 0.82)}
 * after its text, and a one-line usage note under the header telling the model how to use the
 * block. Both are part of the block, so they count against the budget like everything else.
 */
final class Renderer {
  private Renderer() {}

  static final String HEADER = "Relevant memories (newest first):";
  private static final DateTimeFormatter DAY =
      DateTimeFormatter.ISO_LOCAL_DATE.withZone(ZoneOffset.UTC);

  /**
   * What the block carries beyond the dated lines.
   *
   * @param relevance each line ends with its relevance, {@code (relevance 0.82)}
   * @param note a one-line usage note under the header, or null
   */
  record Style(boolean relevance, String note) {
    static final Style PLAIN = new Style(false, null);
  }

  static String render(List<ReadPath.Scored> selected, Style style) {
    if (selected.isEmpty()) return "";
    List<ReadPath.Scored> lines = new ArrayList<>(selected);
    lines.sort(
        Comparator.<ReadPath.Scored, Instant>comparing(s -> shownTime(s.r))
            .reversed()
            .thenComparing(s -> s.r.id()));
    StringBuilder sb = new StringBuilder(header(style));
    for (ReadPath.Scored s : lines)
      sb.append(
          line(s.r, !s.conflictsWith.isEmpty(), style.relevance() ? s.relevance : Double.NaN));
    return sb.toString();
  }

  /** The header, and the usage note on its own line when the style has one. */
  static String header(Style style) {
    return style.note() == null ? HEADER : HEADER + "\n" + style.note();
  }

  /**
   * The line a record renders to, with its leading newline; {@code conflict}: marked as
   * conflicting.
   */
  static String line(MemoryRecord r, boolean conflict) {
    return line(r, conflict, Double.NaN);
  }

  /** The line, ending with {@code (relevance 0.82)} unless {@code relevance} is NaN. */
  static String line(MemoryRecord r, boolean conflict, double relevance) {
    return "\n- "
        + dates(r)
        + " "
        + r.text().strip().replace('\n', ' ')
        + (conflict
            ? " (conflicting records of "
                + (r.factKey() == null || r.factKey().startsWith(AUTO_KEY)
                    ? "one fact"
                    : "'" + r.factKey() + "'")
                + ", this one "
                + r.authority().code()
                + ", said "
                + DAY.format(r.recordedAt())
                + ": engine cannot tell which holds)"
            : "")
        + (Double.isNaN(relevance)
            ? ""
            : String.format(java.util.Locale.ROOT, " (relevance %.2f)", relevance));
  }

  /** The prefix of a fact key the write path derives (docs/write-path.md): not worth showing. */
  static final String AUTO_KEY = "auto/";

  /** The time a line is sorted by: the event time's start where it is shown, else valid start. */
  static Instant shownTime(MemoryRecord r) {
    return showsEvent(r) ? r.eventTime().from() : r.validFrom();
  }

  /** A "since" phrase set the valid-from: the valid-time label says it already. */
  private static boolean showsEvent(MemoryRecord r) {
    return r.eventTime() != null
        && !r.eventTime().phrase().toLowerCase(java.util.Locale.ROOT).startsWith("since");
  }

  /**
   * The date label of a record: the time its text is about where it names one ({@code [2024]},
   * {@code [2026-03]}, {@code [2026-07-03]}, {@code [2026-04-13 to 2026-04-20]}, with {@code " to
   * END"} of valid time when the fact has ended), else its valid time.
   */
  static String dates(MemoryRecord r) {
    if (showsEvent(r)) {
      String label = span(r.eventTime().from(), r.eventTime().to());
      return "[" + label + (r.validTo() == null ? "" : " to " + DAY.format(r.validTo())) + "]";
    }
    String from = DAY.format(r.validFrom());
    if (r.validTo() != null) return "[" + from + " to " + DAY.format(r.validTo()) + "]";
    if (r.category() == Category.EPISODIC) return "[" + from + "]";
    return "[since " + from + "]";
  }

  /** A whole year, month or day in its own words; other intervals as "FROM to LAST DAY". */
  private static String span(Instant from, Instant to) {
    java.time.LocalDateTime f = java.time.LocalDateTime.ofInstant(from, ZoneOffset.UTC);
    java.time.LocalDateTime t = java.time.LocalDateTime.ofInstant(to, ZoneOffset.UTC);
    boolean midnight = f.toLocalTime().equals(java.time.LocalTime.MIDNIGHT);
    if (midnight && f.getDayOfYear() == 1 && f.plusYears(1).equals(t))
      return String.valueOf(f.getYear());
    if (midnight && f.getDayOfMonth() == 1 && f.plusMonths(1).equals(t))
      return String.format(java.util.Locale.ROOT, "%d-%02d", f.getYear(), f.getMonthValue());
    if (midnight && f.plusDays(1).equals(t)) return DAY.format(from);
    return DAY.format(from) + " to " + DAY.format(to.minusMillis(1));
  }
}

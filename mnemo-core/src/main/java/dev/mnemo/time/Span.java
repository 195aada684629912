package dev.mnemo.time;

import java.time.Instant;

/**
 * A resolved range before it becomes a {@link TimeRange}, with the calendar unit it covers.
 *
 * @param grain decides whether "early/mid/late" can split the span into thirds
 * @param partnerOnly true when the words are a time only as the second half of a pair, like "June"
 *     in "from May to June": such a span is dropped unless a time expression comes right before it
 */
record Span(Instant from, Instant to, Grain grain, boolean partnerOnly) {

  /** The calendar unit a span covers exactly, or {@link #OTHER}. */
  enum Grain {
    DAY,
    WEEK,
    WEEKEND,
    MONTH,
    SEASON,
    YEAR,
    OTHER
  }

  /** The span {@code [from, to)}, or null when it would be empty. */
  static Span of(Instant from, Instant to, Grain grain) {
    return to.isAfter(from) ? new Span(from, to, grain, false) : null;
  }

  Span asPartnerOnly() {
    return new Span(from, to, grain, true);
  }
}

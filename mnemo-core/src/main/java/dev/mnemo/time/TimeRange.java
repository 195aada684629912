package dev.mnemo.time;

import java.time.Instant;
import java.util.Objects;

/**
 * A half-open interval of instants {@code [from, to)} that a time expression in a query denotes.
 *
 * @param from inclusive start
 * @param to exclusive end, after {@code from}
 * @param expression the words of the query that produced it, e.g. {@code "last week"}
 */
public record TimeRange(Instant from, Instant to, String expression) {
  public TimeRange {
    Objects.requireNonNull(from, "from");
    Objects.requireNonNull(to, "to");
    Objects.requireNonNull(expression, "expression");
    if (!to.isAfter(from)) {
      throw new IllegalArgumentException("to must be after from, was from=" + from + " to=" + to);
    }
  }

  /** Whether {@code t} lies inside {@code [from, to)}. */
  public boolean contains(Instant t) {
    return !t.isBefore(from) && t.isBefore(to);
  }
}

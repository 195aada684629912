package dev.mnemo;

import java.time.Instant;
import java.util.Objects;

/**
 * The time a record's text is about, as the write path read it from the text ("in 2024", "last
 * month", "on the 3rd of July"), resolved against the record's recorded time: a half-open interval
 * {@code [from, to)} with the words that named it. It is not the valid time (when the fact holds)
 * nor the recorded time (when Mnemo learned it): "Lena moved to Lisbon in 2024", written today, has
 * the event time 2024. The read path matches a question's time words against it where a record has
 * one, and the block shows it instead of the write date (docs/read-path.md, "The block").
 *
 * @param from inclusive start
 * @param to exclusive end, after {@code from}
 * @param phrase the words of the text that named it, e.g. {@code "last month"}
 */
public record EventTime(Instant from, Instant to, String phrase) {
  public EventTime {
    Objects.requireNonNull(from, "from");
    Objects.requireNonNull(to, "to");
    Objects.requireNonNull(phrase, "phrase");
    if (!to.isAfter(from))
      throw new IllegalArgumentException(
          "event time must end after it starts, was from=" + from + " to=" + to);
  }

  /** Whether {@code t} lies inside {@code [from, to)}. */
  public boolean contains(Instant t) {
    return !t.isBefore(from) && t.isBefore(to);
  }

  /** Whether this interval and {@code [otherFrom, otherTo)} share an instant. */
  public boolean overlaps(Instant otherFrom, Instant otherTo) {
    return from.isBefore(otherTo) && otherFrom.isBefore(to);
  }
}

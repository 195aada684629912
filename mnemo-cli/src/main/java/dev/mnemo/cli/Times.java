package dev.mnemo.cli;

import dev.mnemo.json.FieldReader;
import java.time.Instant;

/** Date parsing for options: ISO dates (00:00 UTC) or instants. */
final class Times {
  private Times() {}

  static Instant parse(String option, String value) {
    return value == null ? null : FieldReader.parseInstant(option, value);
  }
}

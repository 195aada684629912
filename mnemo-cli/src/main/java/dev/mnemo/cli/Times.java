package dev.mnemo.cli;

import dev.mnemo.json.FieldReader;
import java.time.Instant;

/**
 * Date parsing for options: ISO dates (00:00 UTC) or instants, inside the range every store keeps
 * (also for options the engine would not check, such as {@code recall --at} without {@code
 * --mode}).
 */
final class Times {
  private Times() {}

  static Instant parse(String option, String value) {
    return value == null ? null : FieldReader.parseInstantInRange(option, value);
  }
}

package dev.mnemo.time;

import java.time.LocalDate;

/**
 * Meteorological seasons of the northern hemisphere. A season is named by the year it starts in, so
 * winter 2023 runs from 2023-12-01 to 2024-03-01.
 */
enum Season {
  SPRING(3),
  SUMMER(6),
  FALL(9),
  WINTER(12);

  private final int firstMonth;

  Season(int firstMonth) {
    this.firstMonth = firstMonth;
  }

  static Season named(String name) {
    return switch (Lexicon.lower(name)) {
      case "spring" -> SPRING;
      case "summer" -> SUMMER;
      case "winter" -> WINTER;
      default -> FALL; // fall, autumn
    };
  }

  LocalDate start(int year) {
    return LocalDate.of(year, firstMonth, 1);
  }

  /** Exclusive end: three months after the start. */
  LocalDate end(int year) {
    return start(year).plusMonths(3);
  }
}

package dev.mnemo;

import java.util.Arrays;
import java.util.Locale;

/** What kind of memory a record is. The code is what gets persisted (never the ordinal). */
public enum Category {
  /** Something that happened at a time: an event, a conversation turn. */
  EPISODIC("episodic"),
  /** A fact or preference about the owner or the world; the default. */
  SEMANTIC("semantic"),
  /** How to do something. */
  PROCEDURAL("procedural"),
  /** A goal or task in progress. */
  TASK("task");

  private final String code;

  Category(String code) {
    this.code = code;
  }

  /** The persisted, lower-case code. */
  public String code() {
    return code;
  }

  /** Parses a code, case-insensitively; an unknown code is an {@link InvalidRequestException}. */
  public static Category fromCode(String field, String code) {
    if (code != null) {
      String c = code.trim().toLowerCase(Locale.ROOT);
      for (Category v : values()) {
        if (v.code.equals(c)) return v;
      }
    }
    throw new InvalidRequestException(
        field,
        code,
        field
            + " must be one of "
            + Arrays.stream(values()).map(Category::code).toList()
            + ", was '"
            + code
            + "'");
  }
}

package dev.mnemo;

/**
 * What a write does when its record would supersede a current version of higher authority ({@code
 * verified} > {@code explicit} > {@code derived}): trust is not recency, so a lower-authority
 * record never replaces a higher one. Chosen per write ({@link NewMemory#lowerAuthority()}); the
 * code is what the wire formats carry.
 */
public enum LowerAuthority {
  /**
   * The default: the new record is written and kept beside the higher-authority version as a
   * conflict (conflict policy {@code keep_both}); recall shows both, dated, and the record's {@link
   * MemoryRecord#RESOLUTION} note names the rule.
   */
  KEEP_BOTH("keep_both"),
  /**
   * The write is refused with the reason (an {@link InvalidRequestException} on {@code authority});
   * nothing is written.
   */
  REFUSE("refuse");

  private final String code;

  LowerAuthority(String code) {
    this.code = code;
  }

  public String code() {
    return code;
  }

  /** Parses a code, case-insensitively; an unknown code is an {@link InvalidRequestException}. */
  public static LowerAuthority fromCode(String field, String code) {
    for (LowerAuthority p : values()) {
      if (p.code.equalsIgnoreCase(code == null ? "" : code.trim())) return p;
    }
    throw new InvalidRequestException(
        field, code, field + " must be one of [keep_both, refuse], was '" + code + "'");
  }
}

package dev.mnemo;

import java.util.Arrays;
import java.util.Locale;

/**
 * How far a record can be trusted; trust is not recency. The code is what gets persisted.
 *
 * <p>Authority comes before age: {@code verified} > {@code explicit} > {@code derived}. A write of
 * lower authority never supersedes a current version of higher authority (see {@link
 * LowerAuthority}); ranking adds a small bonus by authority as well.
 */
public enum Authority {
  /** The owner said it; the default. */
  EXPLICIT("explicit"),
  /** Inferred by an extractor or summarizer. */
  DERIVED("derived"),
  /** Checked against an authoritative source. */
  VERIFIED("verified");

  private final String code;

  Authority(String code) {
    this.code = code;
  }

  public String code() {
    return code;
  }

  /** The order of trust: 0 derived, 1 explicit, 2 verified (not persisted; the code is). */
  public int rank() {
    return switch (this) {
      case DERIVED -> 0;
      case EXPLICIT -> 1;
      case VERIFIED -> 2;
    };
  }

  /** Whether this authority is lower than {@code other}'s. */
  public boolean below(Authority other) {
    return rank() < other.rank();
  }

  /** Parses a code, case-insensitively; an unknown code is an {@link InvalidRequestException}. */
  public static Authority fromCode(String field, String code) {
    if (code != null) {
      String c = code.trim().toLowerCase(Locale.ROOT);
      for (Authority v : values()) {
        if (v.code.equals(c)) return v;
      }
    }
    throw new InvalidRequestException(
        field,
        code,
        field
            + " must be one of "
            + Arrays.stream(values()).map(Authority::code).toList()
            + ", was '"
            + code
            + "'");
  }
}

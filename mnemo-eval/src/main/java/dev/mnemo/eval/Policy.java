package dev.mnemo.eval;

import java.util.Arrays;
import java.util.Locale;

/**
 * The selection policies a scenario run compares on the same scenarios, k and token budget. The
 * code is what reports print.
 */
public enum Policy {
  /**
   * Selects nothing: the floor every other policy must beat on recall, and the ceiling on
   * abstention.
   */
  NONE("none"),
  /**
   * The eligible records (the engine's own eligibility: owner, scope, temporal mode), newest first,
   * packed greedily into the budget: what "put the last few memories in the prompt" gives.
   */
  RECENT("recent"),
  /** The engine's read path with BM25 as the only relevance signal and no ranking extras. */
  KEYWORD("keyword"),
  /** The engine's complete read path with its defaults. */
  FULL("full"),
  /**
   * Similarity only, no eligibility rules at all (not even the owner), ranked by cosine and packed
   * greedily: shows what the eligibility rules prevent. Never a real policy.
   */
  UNFILTERED("unfiltered");

  private final String code;

  Policy(String code) {
    this.code = code;
  }

  public String code() {
    return code;
  }

  public static Policy fromCode(String code) {
    for (Policy p : values()) {
      if (p.code.equals(code == null ? "" : code.trim().toLowerCase(Locale.ROOT))) return p;
    }
    throw new IllegalArgumentException(
        "policy must be one of "
            + Arrays.stream(values()).map(Policy::code).toList()
            + ", was '"
            + code
            + "'");
  }
}

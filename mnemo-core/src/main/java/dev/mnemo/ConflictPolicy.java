package dev.mnemo;

/**
 * What a new record with a fact key does to the owner's current versions of that key whose valid
 * time overlaps its own. The rule table, with examples, is in {@code docs/write-path.md}
 * ("Valid-time and authority rules"); whatever the policy, a record of lower authority never
 * supersedes one of higher authority ({@link LowerAuthority}).
 */
public enum ConflictPolicy {
  /**
   * The default: the new record replaces them for the overlapping valid time, except that an
   * open-ended record starting before a current version begins is history, not a correction: it
   * ends where that version begins (a back-fill).
   */
  SUPERSEDE("supersede"),
  /**
   * Both stay believed; recall surfaces them together, dated and marked as conflicting, because the
   * engine cannot tell which one holds.
   */
  KEEP_BOTH("keep_both"),
  /**
   * A retroactive correction: the new record replaces every current version its valid time
   * overlaps, a later-starting one included ("it was Globex all along, since January").
   */
  CORRECT("correct");

  private final String code;

  ConflictPolicy(String code) {
    this.code = code;
  }

  public String code() {
    return code;
  }

  public static ConflictPolicy fromCode(String field, String code) {
    for (ConflictPolicy p : values()) {
      if (p.code.equalsIgnoreCase(code == null ? "" : code.trim())) return p;
    }
    throw new InvalidRequestException(
        field, code, field + " must be one of [supersede, keep_both, correct], was '" + code + "'");
  }
}

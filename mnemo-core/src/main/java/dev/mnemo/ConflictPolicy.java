package dev.mnemo;

/**
 * What a new record with a fact key does to the owner's current versions of that key whose valid
 * time overlaps its own.
 */
public enum ConflictPolicy {
  /** The new record replaces them for the overlapping valid time (the default). */
  SUPERSEDE("supersede"),
  /**
   * Both stay believed; recall surfaces them together, dated and marked as conflicting, because
   * the engine cannot tell which one holds.
   */
  KEEP_BOTH("keep_both");

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
    throw new InvalidRequestException(field, code, field + " must be one of [supersede, keep_both], was '" + code + "'");
  }
}

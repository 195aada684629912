package dev.mnemo;

/** How selected records are packed into the token budget. */
public enum Packing {
  /** Highest score first; a record that does not fit is skipped and smaller ones may still fit. */
  GREEDY("greedy"),
  /**
   * Maximal marginal relevance: each next record maximizes {@code lambda * score - (1 - lambda) *
   * max similarity to those already chosen}, and near-duplicates of a chosen record are omitted as
   * duplicates, so complementary facts are not crowded out.
   */
  COVERAGE("coverage");

  private final String code;

  Packing(String code) {
    this.code = code;
  }

  public String code() {
    return code;
  }

  public static Packing fromCode(String code) {
    for (Packing p : values())
      if (p.code.equalsIgnoreCase(code == null ? "" : code.trim())) return p;
    throw new InvalidRequestException(
        "packing", code, "packing must be one of [greedy, coverage], was '" + code + "'");
  }
}

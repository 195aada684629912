package dev.mnemo;

/** What the read path decided about one candidate. The code is what traces print and persist. */
public enum Outcome {
  SELECTED("selected"),
  /** Relevance under the absolute threshold. */
  BELOW_THRESHOLD("below_threshold"),
  /** Passed the threshold but k records were already selected. */
  BEYOND_K("beyond_k"),
  /** Would not fit the remaining token budget. */
  OVER_BUDGET("over_budget"),
  /** A near-duplicate of a selected record (coverage packing). */
  DUPLICATE("duplicate"),
  /** Older than the maximum age of its fact kind or category ({@link Freshness}). */
  TOO_OLD("too_old");

  private final String code;

  Outcome(String code) {
    this.code = code;
  }

  public String code() {
    return code;
  }
}

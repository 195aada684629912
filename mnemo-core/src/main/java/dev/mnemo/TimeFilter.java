package dev.mnemo;

/** What a time expression in the query ("last week", "in 2023") does to records. */
public enum TimeFilter {
  /** Records whose valid time starts inside the range get the time boost (default). */
  BOOST("boost"),
  /** Only records whose valid time overlaps the range are eligible. */
  FILTER("filter"),
  /** Time words are ignored. */
  OFF("off");

  private final String code;

  TimeFilter(String code) {
    this.code = code;
  }

  public String code() {
    return code;
  }

  public static TimeFilter fromCode(String code) {
    for (TimeFilter p : values())
      if (p.code.equalsIgnoreCase(code == null ? "" : code.trim())) return p;
    throw new InvalidRequestException(
        "time_filter", code, "time_filter must be one of [boost, filter, off], was '" + code + "'");
  }
}

package dev.mnemo;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * How fast facts of each kind go stale: a recency half-life per fact kind, and a maximum age per
 * fact kind or category past which a record is not recalled at all (outcome {@code too_old}). A
 * record's kind is its {@code kind} metadata (the offline extractor sets {@code preference}, {@code
 * decision}, {@code goal}, {@code difficulty}, {@code fact}; callers may set any, e.g. {@code
 * plan}, {@code status}, {@code location}).
 *
 * <p>Resolution for one record: the half-life of its kind, else the request's half-life of its
 * category ({@link RecallRequest#halfLives()}); the maximum age of its kind, else of its category
 * code, else none. Age is measured as for recency: from the later of the record's valid and
 * recorded start to the mode's valid instant. Freshness orders records; it never overrides
 * authority: between versions of one fact, the read path keeps the more trusted one first ({@code
 * ReadPath.authorityFirst}), and at write time authority decides before age.
 *
 * <p>Defaults ({@link #DEFAULT}): half-lives preference 365 d, location 180 d, decision 180 d, goal
 * 90 d, difficulty 60 d, plan 30 d, status 14 d; maximum ages status 90 d and plan 180 d. Set per
 * store ({@code Mnemo.Builder.freshness}) and per request ({@link
 * RecallRequest.Builder#freshness}); a request's entries override the store's key by key.
 *
 * @param halfLives recency half-life per fact kind
 * @param maxAges maximum age per fact kind or category code
 */
public record Freshness(Map<String, Duration> halfLives, Map<String, Duration> maxAges) {

  /** The documented defaults. */
  public static final Freshness DEFAULT =
      new Freshness(
          Map.of(
              "preference",
              Duration.ofDays(365),
              "location",
              Duration.ofDays(180),
              "decision",
              Duration.ofDays(180),
              "goal",
              Duration.ofDays(90),
              "difficulty",
              Duration.ofDays(60),
              "plan",
              Duration.ofDays(30),
              "status",
              Duration.ofDays(14)),
          Map.of("status", Duration.ofDays(90), "plan", Duration.ofDays(180)));

  /** No kind-specific half-life and no maximum age. */
  public static final Freshness NONE = new Freshness(Map.of(), Map.of());

  public Freshness {
    List<InvalidRequestException.Violation> v = new ArrayList<>();
    halfLives = checked("freshness.half_lives", halfLives, v);
    maxAges = checked("freshness.max_ages", maxAges, v);
    if (!v.isEmpty()) throw new InvalidRequestException(v);
  }

  private static Map<String, Duration> checked(
      String field, Map<String, Duration> m, List<InvalidRequestException.Violation> v) {
    if (m == null) return Map.of();
    for (var e : m.entrySet()) {
      if (e.getKey() == null || e.getKey().isBlank()) {
        v.add(
            new InvalidRequestException.Violation(
                field, e.getKey(), field + " keys must not be blank, was '" + e.getKey() + "'"));
      } else if (e.getValue() == null || e.getValue().isNegative() || e.getValue().isZero()) {
        v.add(
            new InvalidRequestException.Violation(
                field + "." + e.getKey(),
                e.getValue(),
                field + "." + e.getKey() + " must be a positive duration, was " + e.getValue()));
      }
    }
    return Map.copyOf(new TreeMap<>(m));
  }

  /** These entries over {@code base}'s, key by key (null: {@code base}). */
  public Freshness over(Freshness base) {
    if (base == null) return this;
    Map<String, Duration> hl = new TreeMap<>(base.halfLives);
    hl.putAll(halfLives);
    Map<String, Duration> max = new TreeMap<>(base.maxAges);
    max.putAll(maxAges);
    return new Freshness(hl, max);
  }

  /** The half-life for a record of this kind (may be null), else {@code categoryHalfLife}. */
  public Duration halfLife(String kind, Duration categoryHalfLife) {
    Duration d = kind == null ? null : halfLives.get(kind);
    return d != null ? d : categoryHalfLife;
  }

  /** The maximum age for a record of this kind (may be null) and category, or null for none. */
  public Duration maxAge(String kind, Category category) {
    Duration d = kind == null ? null : maxAges.get(kind);
    return d != null ? d : maxAges.get(category.code());
  }
}

package dev.mnemo;

import java.time.Duration;
import java.time.Instant;

/**
 * When a current record of one category stops being worth keeping, for {@link Maintenance#retain}.
 *
 * <p>A record is judged at an instant {@code now}; its age runs from its last use ({@code
 * last_accessed_at}) or else its {@code recorded_at}. In order: a record whose importance is at
 * least {@code keepIfImportance} is kept; one older than {@code maxAge} is dropped; one whose
 * decayed importance {@code importance * 0.5^(age / halfLife)} falls below {@code dropBelow} is
 * dropped; the rest are kept. A null {@code maxAge} or {@code halfLife} turns that rule off.
 * Immutable.
 *
 * @param maxAge drop records older than this, or null
 * @param halfLife the half-life of importance, or null
 * @param dropBelow the decayed importance under which a record is dropped (0..1)
 * @param keepIfImportance records at least this important are always kept (0..1; above 1 = never)
 */
public record RetentionPolicy(
    Duration maxAge, Duration halfLife, double dropBelow, double keepIfImportance) {
  public RetentionPolicy {
    if (maxAge != null && (maxAge.isNegative() || maxAge.isZero())) {
      throw new InvalidRequestException(
          "max_age", maxAge, "max_age must be positive, was " + maxAge);
    }
    if (halfLife != null && (halfLife.isNegative() || halfLife.isZero())) {
      throw new InvalidRequestException(
          "half_life", halfLife, "half_life must be positive, was " + halfLife);
    }
    if (!(dropBelow >= 0 && dropBelow <= 1)) {
      throw new InvalidRequestException(
          "drop_below", dropBelow, "drop_below must be between 0 and 1, was " + dropBelow);
    }
    if (!(keepIfImportance >= 0)) {
      throw new InvalidRequestException(
          "keep_if_importance",
          keepIfImportance,
          "keep_if_importance must be >= 0, was " + keepIfImportance);
    }
  }

  /** Keep everything (the policy of a category that has none). */
  public static final RetentionPolicy KEEP = new RetentionPolicy(null, null, 0, 0);

  /** Why the record is dropped at {@code now}, or null when it is kept. */
  public String dropReason(MemoryRecord r, Instant now) {
    if (r.importance() >= keepIfImportance && keepIfImportance > 0) return null;
    Instant since =
        r.lastAccessedAt() != null && r.lastAccessedAt().isAfter(r.recordedAt())
            ? r.lastAccessedAt()
            : r.recordedAt();
    Duration age = Duration.between(since, now);
    if (age.isNegative()) return null;
    if (maxAge != null && age.compareTo(maxAge) > 0) return "older than max_age " + maxAge;
    if (halfLife != null) {
      double decayed =
          r.importance() * Math.pow(0.5, (double) age.toMillis() / halfLife.toMillis());
      if (decayed < dropBelow) {
        return String.format(
            java.util.Locale.ROOT, "decayed importance %.3f below %.3f", decayed, dropBelow);
      }
    }
    return null;
  }
}

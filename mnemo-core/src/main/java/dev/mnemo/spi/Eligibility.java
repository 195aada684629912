package dev.mnemo.spi;

import dev.mnemo.Category;
import dev.mnemo.time.TimeRange;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The hard filters of a read, which a {@link MemoryStore} must apply inside its queries (filtered
 * kNN, filtered BM25), never after a top-k: every candidate it returns is eligible.
 *
 * <p>A record is eligible when all hold: its owner equals {@code owner}; {@code scope} is null or
 * the record's scope is null or equal; {@code categories} is empty or contains its category; its
 * metadata has every entry of {@code metadata}; it is valid at {@code validAt} ({@code validFrom <=
 * validAt < validTo}) and believed at {@code knownAt} ({@code recordedAt <= knownAt < expiredAt});
 * and, when {@code validOverlap} is set, its valid interval overlaps that range; and, when {@code
 * principals} is not null, the record has no access labels or one of them is among the principals
 * ({@link dev.mnemo.Access}).
 *
 * @param owner required owner; null only in {@link #unrestrictedForEvaluation()}
 * @param scope scope or null
 * @param categories allowed categories, empty = all
 * @param metadata required metadata entries
 * @param validAt valid-time instant, or null = any
 * @param knownAt transaction-time instant, or null = any
 * @param validOverlap when set, the record's valid interval must overlap it
 * @param principals the caller's principals (a recall's, never null there: empty sees only records
 *     without labels), or null = no access rule (the engine's own reads)
 */
public record Eligibility(
    String owner,
    String scope,
    Set<Category> categories,
    Map<String, String> metadata,
    Instant validAt,
    Instant knownAt,
    TimeRange validOverlap,
    Set<String> principals) {

  public Eligibility {
    categories = categories == null ? Set.of() : Set.copyOf(categories);
    metadata = metadata == null ? Map.of() : Map.copyOf(metadata);
    principals = principals == null ? null : Set.copyOf(principals);
  }

  /** Filters without an access rule: every record passing the others, whatever its labels. */
  public Eligibility(
      String owner,
      String scope,
      Set<Category> categories,
      Map<String, String> metadata,
      Instant validAt,
      Instant knownAt,
      TimeRange validOverlap) {
    this(owner, scope, categories, metadata, validAt, knownAt, validOverlap, null);
  }

  /**
   * These filters without the access rule (for a store that holds no record with labels, the same
   * records).
   */
  public Eligibility withoutAccessRule() {
    return new Eligibility(
        owner, scope, categories, metadata, validAt, knownAt, validOverlap, null);
  }

  /** These filters with the access rule of a caller holding {@code principals}. */
  public Eligibility withPrincipals(Set<String> principals) {
    return new Eligibility(
        owner,
        scope,
        categories,
        metadata,
        validAt,
        knownAt,
        validOverlap,
        java.util.Objects.requireNonNull(principals, "principals"));
  }

  /** Only the owner's records that are valid and believed at {@code at}. */
  public static Eligibility current(String owner, Instant at) {
    return new Eligibility(
        Objects.requireNonNull(owner, "owner"), null, Set.of(), Map.of(), at, at, null);
  }

  /** Every record of the owner, any time. */
  public static Eligibility allOf(String owner) {
    return new Eligibility(
        Objects.requireNonNull(owner, "owner"), null, Set.of(), Map.of(), null, null, null);
  }

  /**
   * No filter at all, not even the owner: only for the evaluation's {@code unfiltered} policy,
   * which shows what the eligibility rules prevent. The engine never builds one.
   */
  public static Eligibility unrestrictedForEvaluation() {
    return new Eligibility(null, null, Set.of(), Map.of(), null, null, null);
  }

  /** Whether {@code r} passes these filters; the reference semantics stores must match. */
  public boolean admits(dev.mnemo.MemoryRecord r) {
    if (owner != null && !owner.equals(r.owner())) return false;
    if (scope != null && r.scope() != null && !scope.equals(r.scope())) return false;
    if (!categories.isEmpty() && !categories.contains(r.category())) return false;
    for (var e : metadata.entrySet()) {
      if (!e.getValue().equals(r.metadata().get(e.getKey()))) return false;
    }
    if (validAt != null && !r.validAt(validAt)) return false;
    if (knownAt != null && !r.knownAt(knownAt)) return false;
    if (validOverlap != null) {
      if (!r.validFrom().isBefore(validOverlap.to())) return false;
      if (r.validTo() != null && !r.validTo().isAfter(validOverlap.from())) return false;
    }
    if (principals != null && !dev.mnemo.Access.visible(r.access(), principals)) return false;
    return true;
  }
}

package dev.mnemo.spi;

import dev.mnemo.time.TimeRange;
import java.util.Objects;
import java.util.Set;

/**
 * What the read path asks a store for: up to {@code perSignal} eligible records from each signal.
 *
 * @param eligibility the hard filters, applied inside every search
 * @param vector the query vector for the dense kNN search, or null
 * @param text the query text for the BM25 search, or null/blank
 * @param entities normalized entity keys; records naming any of them are entity candidates
 * @param timeRange when set, records whose valid time starts inside it are candidates too
 * @param perSignal how many candidates each signal contributes at most
 */
public record CandidateQuery(
    Eligibility eligibility, float[] vector, String text, Set<String> entities, TimeRange timeRange, int perSignal) {
  public CandidateQuery {
    Objects.requireNonNull(eligibility, "eligibility");
    entities = entities == null ? Set.of() : Set.copyOf(entities);
    if (perSignal < 1) throw new IllegalArgumentException("perSignal must be >= 1, was " + perSignal);
  }
}

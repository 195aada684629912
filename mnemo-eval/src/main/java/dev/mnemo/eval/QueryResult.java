package dev.mnemo.eval;

import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * What one policy selected for one query of a scenario, together with what the query expected, so
 * that {@link PolicyMetrics} can be computed from a list of these alone.
 *
 * <p>Immutable. Ids are source (write) ids, in selection order, without repeats.
 *
 * @param scenario scenario id
 * @param split the scenario's split
 * @param query query id
 * @param policy the policy
 * @param selected selected write ids, best first
 * @param candidates how many records the policy considered (the read path's candidates; the
 *     eligible records fetched for {@code recent}; 0 for {@code none})
 * @param tokensUsed tokens of the selected texts, counted with the engine's tokenizer
 * @param latencyMs wall time of the selection in milliseconds (embedding the query included)
 * @param leaked selected records whose owner is not the query's owner
 * @param expect write ids that had to be selected
 * @param stale forbidden write ids of the query's own owner (stale or out-of-scope versions);
 *     forbidden ids of other owners count as leakage instead
 * @param expectNone whether nothing had to be selected
 * @param irrelevantTokens tokens of the selected texts that are not expected (what the prompt pays
 *     for nothing); -1 when unknown
 */
public record QueryResult(
    String scenario,
    String split,
    String query,
    Policy policy,
    List<String> selected,
    int candidates,
    int tokensUsed,
    double latencyMs,
    int leaked,
    Set<String> expect,
    Set<String> stale,
    boolean expectNone,
    int irrelevantTokens) {

  /** A result whose irrelevant tokens are unknown. */
  public QueryResult(
      String scenario,
      String split,
      String query,
      Policy policy,
      List<String> selected,
      int candidates,
      int tokensUsed,
      double latencyMs,
      int leaked,
      Set<String> expect,
      Set<String> stale,
      boolean expectNone) {
    this(
        scenario,
        split,
        query,
        policy,
        selected,
        candidates,
        tokensUsed,
        latencyMs,
        leaked,
        expect,
        stale,
        expectNone,
        -1);
  }

  public QueryResult {
    Objects.requireNonNull(policy, "policy");
    selected = List.copyOf(selected);
    expect = Set.copyOf(expect);
    stale = Set.copyOf(stale);
  }
}

package dev.mnemo;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One recall as the retrieval log keeps it: the whole request (with its "now" resolved), the engine
 * that answered it, the store's state, the full trace (every candidate with its signals, outcome
 * and reason; stage timings), the selected ids, the rendered block's tokens, how many of the
 * owner's records eligibility removed and why, and the selected ids the caller later reported used.
 *
 * <p>Made by the engine for each logged recall; the log stores it whole, so a field added to the
 * trace is logged with it. Immutable.
 *
 * @param id the entry's id: time-ordered (the logged instant in hex, then random hex), unique
 * @param loggedAt when the recall ran (the engine's clock)
 * @param request the request with {@code askedAt} resolved: what a replay runs again
 * @param trace the recall's trace
 * @param selected the selected record ids, best first
 * @param renderedTokens tokens of the rendered prompt block
 * @param engine the identities of the parts that answered: {@code embedder}, {@code tokenizer},
 *     {@code mnemo_version} (and more as parts are added; a missing part has no entry)
 * @param storeState the store's state when the recall ran (a commit generation), or null
 * @param ineligible the owner's records eligibility removed, counted by reason ({@link #NOT_KNOWN},
 *     {@link #NOT_VALID}, {@link #OTHER_SCOPE}, {@link #FILTERED}); counts only, never ids or texts
 * @param used selected ids the caller reported used ({@code markUsed}) after this recall
 */
public record LoggedRecall(
    String id,
    Instant loggedAt,
    RecallRequest request,
    RecallTrace trace,
    List<String> selected,
    int renderedTokens,
    Map<String, String> engine,
    String storeState,
    Map<String, Long> ineligible,
    List<String> used) {

  /** Records not believed at the known time: superseded, expired (retention) or recorded later. */
  public static final String NOT_KNOWN = "superseded";

  /** Records believed then but not valid at the valid time. */
  public static final String NOT_VALID = "not_valid_at_time";

  /** Records of another scope than the request's. */
  public static final String OTHER_SCOPE = "other_scope";

  /** Records removed by the request's categories, metadata or time filter. */
  public static final String FILTERED = "filtered";

  public LoggedRecall {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(loggedAt, "loggedAt");
    Objects.requireNonNull(request, "request");
    Objects.requireNonNull(trace, "trace");
    selected = List.copyOf(selected);
    engine = Map.copyOf(engine);
    ineligible =
        ineligible == null
            ? Map.of()
            : java.util.Collections.unmodifiableMap(new LinkedHashMap<>(ineligible));
    used = used == null ? List.of() : List.copyOf(used);
  }

  public String owner() {
    return request.owner();
  }

  /** Whether nothing was selected (the engine abstained). */
  public boolean abstained() {
    return selected.isEmpty();
  }

  /** The candidates left out, best first. */
  public List<CandidateTrace> omitted() {
    return trace.candidates().stream().filter(c -> c.outcome() != Outcome.SELECTED).toList();
  }

  /** This entry with {@code trace} in place of its own. */
  public LoggedRecall withTrace(RecallTrace trace) {
    return new LoggedRecall(
        id,
        loggedAt,
        request,
        trace,
        selected,
        renderedTokens,
        engine,
        storeState,
        ineligible,
        used);
  }

  /** This entry with eligibility counts. */
  public LoggedRecall withIneligible(Map<String, Long> counts) {
    return new LoggedRecall(
        id, loggedAt, request, trace, selected, renderedTokens, engine, storeState, counts, used);
  }

  /** This entry with {@code ids} (those it selected) added to the used ones. */
  public LoggedRecall withUsed(Collection<String> ids) {
    List<String> u = new ArrayList<>(used);
    for (String x : ids) if (selected.contains(x) && !u.contains(x)) u.add(x);
    return new LoggedRecall(
        id, loggedAt, request, trace, selected, renderedTokens, engine, storeState, ineligible, u);
  }
}

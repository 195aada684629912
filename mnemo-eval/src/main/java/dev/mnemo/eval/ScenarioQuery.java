package dev.mnemo.eval;

import dev.mnemo.TemporalMode;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * One query of a {@link Scenario}: what is asked, by whom and when, at what k and budget, and which
 * write ids a correct engine must select, must not select, or whether it must select nothing.
 *
 * <p>Immutable; validated by {@link ScenarioReader}. Defaults as in {@code docs/scenarios.md}: mode
 * current, no scope, k {@value #DEFAULT_K}, budget {@value #DEFAULT_BUDGET} tokens.
 *
 * @param id query id
 * @param owner whose memories may be used
 * @param askedAt the "now" of the question
 * @param text the question
 * @param mode the temporal mode
 * @param scope the scope, or null
 * @param k at most this many records
 * @param budgetTokens token budget of the selected texts
 * @param expect write ids that must be selected
 * @param forbid write ids that must not be selected
 * @param expectNone whether a correct engine selects nothing
 */
public record ScenarioQuery(
    String id,
    String owner,
    Instant askedAt,
    String text,
    TemporalMode mode,
    String scope,
    int k,
    int budgetTokens,
    List<String> expect,
    List<String> forbid,
    boolean expectNone) {

  public static final int DEFAULT_K = 5;
  public static final int DEFAULT_BUDGET = 400;

  public ScenarioQuery {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(owner, "owner");
    Objects.requireNonNull(askedAt, "askedAt");
    Objects.requireNonNull(text, "text");
    mode = mode == null ? TemporalMode.current() : mode;
    expect = List.copyOf(expect);
    forbid = List.copyOf(forbid);
  }
}

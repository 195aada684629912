package dev.mnemo.eval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mnemo.Mnemo;
import dev.mnemo.testkit.HashingEmbedder;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Mechanics of the runner with a model-free embedder; quality is ScenarioExpectationsIT's business.
 */
class ScenarioRunnerTest {

  private static final ScenarioRunner RUNNER =
      new ScenarioRunner(TestEngines.lucene(new HashingEmbedder()));

  private static Scenario scenario(String line) {
    return ScenarioReader.parse(line, "t:1");
  }

  @Test
  void run_givesOneResultPerQueryAndPolicy_inPolicyOrder() {
    ScenarioReport r = RUNNER.run(List.of(ScenarioReaderTest.DEV));
    assertThat(r.results()).hasSize(12 * Policy.values().length);
    assertThat(r.results().subList(0, 5))
        .extracting(QueryResult::policy)
        .containsExactly(Policy.values());
    assertThat(r.metrics().keySet()).containsExactly(ScenarioReport.ALL, "dev");
    assertThat(r.queryLines().get(0).fieldNames())
        .toIterable()
        .contains(
            "scenario", "query", "policy", "selected", "candidates", "tokens_used", "latency_ms");
    assertThat(r.table()).contains("split all (12 queries)", "unfiltered");
  }

  @Test
  void none_selectsNothing() {
    PolicyMetrics none = RUNNER.run(List.of(ScenarioReaderTest.DEV)).metrics(Policy.NONE);
    assertThat(none.recall()).isEqualTo(0.0);
    assertThat(none.abstention()).isEqualTo(1.0);
    assertThat(none.meanTokens()).isEqualTo(0.0);
  }

  @Test
  void recent_takesTheNewestEligible_withinBudgetAndK() {
    List<QueryResult> rs =
        RUNNER.run(
            scenario(
                """
        {"id":"s","split":"dev","writes":[\
        {"id":"old","owner":"u","recorded_at":"2026-01-01T00:00:00Z","text":"one two three"},\
        {"id":"long","owner":"u","recorded_at":"2026-01-02T00:00:00Z","text":"%s"},\
        {"id":"new","owner":"u","recorded_at":"2026-01-03T00:00:00Z","text":"four five"},\
        {"id":"later","owner":"u","recorded_at":"2026-03-01T00:00:00Z","text":"not yet known"},\
        {"id":"other","owner":"v","recorded_at":"2026-01-04T00:00:00Z","text":"someone else"}],\
        "queries":[{"id":"q","owner":"u","asked_at":"2026-02-01T00:00:00Z","text":"anything","k":2,"budget_tokens":40}]}"""
                    .formatted("word ".repeat(40).trim())));
    QueryResult recent =
        rs.stream().filter(x -> x.policy() == Policy.RECENT).findFirst().orElseThrow();
    // "later" is not known yet, "other" is another owner's, "long" does not fit the budget
    assertThat(recent.selected()).containsExactly("new", "old");
    assertThat(recent.tokensUsed()).isLessThanOrEqualTo(40);
  }

  @Test
  void unfiltered_ignoresOwners_soItLeaks_whileFullDoesNot() {
    List<QueryResult> rs =
        RUNNER.run(
            scenario(
                """
        {"id":"s","split":"heldout","writes":[\
        {"id":"mine","owner":"u","recorded_at":"2026-01-01T00:00:00Z","text":"Alex likes green tea"},\
        {"id":"theirs","owner":"v","recorded_at":"2026-01-01T00:00:00Z","text":"Alex likes green tea a lot"}],\
        "queries":[{"id":"q","owner":"u","asked_at":"2026-02-01T00:00:00Z","text":"Alex likes green tea","forbid":["theirs"]}]}"""));
    QueryResult unfiltered =
        rs.stream().filter(x -> x.policy() == Policy.UNFILTERED).findFirst().orElseThrow();
    QueryResult full = rs.stream().filter(x -> x.policy() == Policy.FULL).findFirst().orElseThrow();
    assertThat(unfiltered.selected()).contains("theirs");
    assertThat(unfiltered.leaked()).isEqualTo(1);
    // another owner's forbidden id is leakage, not stale use
    assertThat(unfiltered.stale()).isEmpty();
    assertThat(full.selected()).doesNotContain("theirs");
    assertThat(full.leaked()).isZero();
    assertThat(rs).allSatisfy(x -> assertThat(x.split()).isEqualTo("heldout"));
  }

  @Test
  void keyword_selectsOnlyBm25Matches() {
    List<QueryResult> rs =
        RUNNER.run(
            scenario(
                """
        {"id":"s","split":"dev","writes":[\
        {"id":"match","owner":"u","recorded_at":"2026-01-01T00:00:00Z","text":"The boiler needs a new valve."},\
        {"id":"nomatch","owner":"u","recorded_at":"2026-01-02T00:00:00Z","text":"Dinner is at eight."}],\
        "queries":[{"id":"q","owner":"u","asked_at":"2026-02-01T00:00:00Z","text":"boiler valve","expect":["match"]}]}"""));
    QueryResult kw =
        rs.stream().filter(x -> x.policy() == Policy.KEYWORD).findFirst().orElseThrow();
    assertThat(kw.selected()).containsExactly("match");
  }

  @Test
  void run_invalidWriteValue_namesTheScenarioLineAndWriteIndex() {
    Scenario s =
        scenario(
            """
        {"id":"s","split":"dev","writes":[\
        {"id":"w","owner":"u","recorded_at":"2026-01-01T00:00:00Z","text":"x","importance":3}],\
        "queries":[{"id":"q","owner":"u","asked_at":"2026-02-01T00:00:00Z","text":"x"}]}""");
    assertThatThrownBy(() -> RUNNER.run(s))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("t:1: scenario 's' cannot be written: ")
        .hasMessageContaining("writes[0].importance");
  }

  @Test
  void storePolicies_needTheEnginesDiagnostics() {
    ScenarioRunner wrapped =
        new ScenarioRunner(
            dir -> delegating(TestEngines.lucene(new HashingEmbedder()).apply(dir)),
            List.of(Policy.RECENT));
    assertThatThrownBy(() -> wrapped.run(List.of(ScenarioReaderTest.DEV)))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("needs the built-in engine");
  }

  /** A Mnemo without diagnostics (as a remote client): a proxy forwarding every other call. */
  private static Mnemo delegating(Mnemo m) {
    return (Mnemo)
        Proxy.newProxyInstance(
            Mnemo.class.getClassLoader(),
            new Class<?>[] {Mnemo.class},
            (proxy, method, args) -> {
              if (method.getName().equals("diagnostics")) return java.util.Optional.empty();
              try {
                return method.invoke(m, args);
              } catch (InvocationTargetException e) {
                throw e.getCause();
              }
            });
  }
}

package dev.mnemo.eval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class PolicyMetricsTest {

  private static QueryResult result(
      List<String> selected,
      Set<String> expect,
      Set<String> stale,
      boolean none,
      int leaked,
      int tokens,
      double ms) {
    return new QueryResult(
        "s", "dev", "q", Policy.FULL, selected, 3, tokens, ms, leaked, expect, stale, none);
  }

  @Test
  void recall_isExpectedIdsSelectedOverExpectedIds_summedOverQueries() {
    PolicyMetrics m =
        PolicyMetrics.of(
            List.of(
                result(List.of("a", "x"), Set.of("a", "b"), Set.of(), false, 0, 10, 1),
                result(List.of("c"), Set.of("c"), Set.of(), false, 0, 10, 1)));
    // 2 of 3 expected ids selected
    assertThat(m.recall()).isCloseTo(2.0 / 3, within(1e-12));
    // 2 of 3 selected ids expected
    assertThat(m.precision()).isCloseTo(2.0 / 3, within(1e-12));
  }

  @Test
  void precision_countsOnlyQueriesThatExpectSomething() {
    PolicyMetrics m =
        PolicyMetrics.of(
            List.of(
                result(List.of("a"), Set.of("a"), Set.of(), false, 0, 0, 1),
                // selects two records where nothing was expected: abstention's business, not
                // precision's
                result(List.of("x", "y"), Set.of(), Set.of(), true, 0, 0, 1)));
    assertThat(m.precision()).isEqualTo(1.0);
    assertThat(m.abstention()).isEqualTo(0.0);
  }

  @Test
  void staleUse_isQueriesThatSelectedAStaleId_overQueriesWithStaleIds() {
    PolicyMetrics m =
        PolicyMetrics.of(
            List.of(
                result(List.of("new", "old"), Set.of("new"), Set.of("old"), false, 0, 0, 1),
                result(List.of("new"), Set.of("new"), Set.of("old"), false, 0, 0, 1),
                result(List.of("old2", "older"), Set.of(), Set.of("old2", "older"), false, 0, 0, 1),
                result(List.of("z"), Set.of("z"), Set.of(), false, 0, 0, 1)));
    // 2 of the 3 queries with stale ids selected one (the second counts once, not twice)
    assertThat(m.staleUse()).isCloseTo(2.0 / 3, within(1e-12));
  }

  @Test
  void leakage_isTheNumberOfSelectedRecordsOfOtherOwners() {
    PolicyMetrics m =
        PolicyMetrics.of(
            List.of(
                result(List.of("a", "b"), Set.of(), Set.of(), false, 2, 0, 1),
                result(List.of("c"), Set.of(), Set.of(), false, 1, 0, 1),
                result(List.of(), Set.of(), Set.of(), false, 0, 0, 1)));
    assertThat(m.leakage()).isEqualTo(3);
  }

  @Test
  void abstention_isExpectNoneQueriesThatSelectedNothing_overSuchQueries() {
    PolicyMetrics m =
        PolicyMetrics.of(
            List.of(
                result(List.of(), Set.of(), Set.of(), true, 0, 0, 1),
                result(List.of("a"), Set.of(), Set.of(), true, 0, 5, 1),
                result(List.of(), Set.of(), Set.of(), true, 0, 0, 1),
                result(List.of(), Set.of("b"), Set.of(), false, 0, 0, 1)));
    assertThat(m.abstention()).isCloseTo(2.0 / 3, within(1e-12));
    assertThat(m.recall()).isEqualTo(0.0);
    assertThat(m.precision()).isNaN(); // nothing selected where something was expected
  }

  @Test
  void ratiosWithoutADenominator_areNaN_andPrintAsNull() {
    PolicyMetrics m =
        PolicyMetrics.of(List.of(result(List.of("a"), Set.of(), Set.of(), false, 0, 4, 1)));
    assertThat(m.recall()).isNaN();
    assertThat(m.staleUse()).isNaN();
    assertThat(m.precision()).isNaN();
    assertThat(m.abstention()).isNaN();
    assertThat(m.toJson().get("recall").isNull()).isTrue();
    assertThat(m.toJson().get("tokens").asDouble()).isEqualTo(4.0);
  }

  @Test
  void tokensAndLatency_areTheMeanAndNearestRankPercentiles() {
    List<QueryResult> rs = new java.util.ArrayList<>();
    for (int i = 1; i <= 100; i++) rs.add(result(List.of(), Set.of(), Set.of(), false, 0, i, i));
    PolicyMetrics m = PolicyMetrics.of(rs);
    assertThat(m.meanTokens()).isEqualTo(50.5);
    assertThat(m.latencyP50Ms()).isEqualTo(50.0);
    assertThat(m.latencyP99Ms()).isEqualTo(99.0);
    assertThat(PolicyMetrics.percentile(new double[] {7}, 0.99)).isEqualTo(7.0);
    assertThat(PolicyMetrics.percentile(new double[] {1, 2, 3}, 0.5)).isEqualTo(2.0);
  }

  @Test
  void regressions_areReportedPerMetric_andNaNInTheRecordIsNotCompared() {
    PolicyMetrics recorded = new PolicyMetrics(12, 1.0, 0.0, 0, 0.75, Double.NaN, 0, 0, 0);
    PolicyMetrics same = new PolicyMetrics(12, 1.0, 0.0, 0, 0.80, 0.0, 9, 9, 9);
    PolicyMetrics worse = new PolicyMetrics(12, 0.9, 0.5, 1, 0.70, 0.0, 0, 0, 0);
    assertThat(same.regressionsAgainst(recorded)).isEmpty();
    assertThat(worse.regressionsAgainst(recorded))
        .hasSize(4)
        .anySatisfy(s -> assertThat(s).startsWith("recall dropped"))
        .anySatisfy(s -> assertThat(s).startsWith("leakage rose"));
  }

  @Test
  void json_roundTripsTheQualityMetrics() {
    PolicyMetrics m = new PolicyMetrics(5, 1.0, 0.0, 0, 0.7857, 1.0, 13.25, 1.5, 2.5);
    PolicyMetrics back = PolicyMetrics.fromJson(m.toJson());
    assertThat(back).isEqualTo(m);
  }
}

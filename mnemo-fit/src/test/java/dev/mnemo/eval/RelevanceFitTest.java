package dev.mnemo.eval;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.RelevanceModel;
import dev.mnemo.eval.RelevanceData.Query;
import dev.mnemo.eval.RelevanceData.Row;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class RelevanceFitTest {

  /**
   * Questions whose one answer has a higher "signal" than the others, with noise; some answer
   * nothing.
   */
  private static List<Query> data(String dataset, long seed, int n) {
    Random rnd = new Random(seed);
    List<Query> out = new ArrayList<>();
    for (int q = 0; q < n; q++) {
      boolean none = q % 5 == 0;
      List<Row> rows = new ArrayList<>();
      for (int i = 0; i < 8; i++) {
        boolean pos = !none && i == 0;
        double signal = (pos ? 1.5 : 0) + rnd.nextGaussian() * 0.7;
        rows.add(
            new Row(Map.of("signal", signal, "noise", rnd.nextGaussian()), pos, i + 1, "r" + i));
      }
      rows.sort((a, b) -> Double.compare(b.features().get("signal"), a.features().get("signal")));
      out.add(new Query(dataset, dataset + q, "q" + q, 5, none ? 0 : 1, none, rows));
    }
    return out;
  }

  @Test
  void theSameDataFitsTheSameBytes_andTheModelSeparatesAnswersFromTheRest() {
    List<Query> train = new ArrayList<>(data("a", 1, 150));
    train.addAll(data("b", 2, 60));
    RelevanceFit.Fitted one = RelevanceFit.fit(train, train, train, "emb", List.of("test"));
    RelevanceFit.Fitted two = RelevanceFit.fit(train, train, train, "emb", List.of("test"));
    assertThat(one.text()).isEqualTo(two.text());
    RelevanceModel m = one.model();
    assertThat(m.embedder()).isEqualTo("emb");
    assertThat(m.probability(Map.of("signal", 2.0, "noise", 0.0)))
        .isGreaterThan(m.probability(Map.of("signal", 0.0, "noise", 0.0)));
    assertThat(m.minRelevance()).isBetween(0.01, 0.99);
    assertThat(m.exhaustiveMinRelevance()).isLessThanOrEqualTo(m.minRelevance());
    // Calibrated on its own data: the positive rate of each well-filled bin is near its mean
    // probability.
    List<RelevanceFit.Bin> bins = RelevanceFit.calibration(m, train);
    assertThat(bins).hasSize(10);
    assertThat(RelevanceFit.ece(bins)).isLessThan(0.1);
    assertThat(RelevanceFit.precisionRecall(m, train)).hasSize(19);
  }

  @Test
  void recallAtKComparesTheScoreOrderWithTheProbabilityOrder() {
    Row a = new Row(Map.of("p", 0.2), false, 1, "a");
    Row b = new Row(Map.of("p", 0.9), true, 2, "b");
    Row c = new Row(Map.of("p", 0.1), false, 3, "c");
    Row d = new Row(Map.of("p", 0.8), true, 4, "d");
    List<Query> qs = List.of(new Query("x", "x/1", "q", 1, 2, false, List.of(a, b, c, d)));
    java.util.function.ToDoubleFunction<Row> p = r -> r.features().get("p");
    // score order: a, b, c, d; probability order: b, d, a, c
    assertThat(RelevanceFit.recallAt(qs, 2, null)).isEqualTo(0.5);
    assertThat(RelevanceFit.recallAt(qs, 2, p)).isEqualTo(1.0);
    assertThat(RelevanceFit.recallAt(qs, 1, null)).isEqualTo(0.0);
    // The gate at 0.5 with k = 1: the first above it in score order is b, by probability also b.
    assertThat(RelevanceFit.operate(p, qs, 0.5, false).recall()).isEqualTo(0.5);
    assertThat(RelevanceFit.operate(p, qs, 0.5, true).recall()).isEqualTo(0.5);
    // At 0.1 the score order takes a (not evidence), the probability order b.
    assertThat(RelevanceFit.operate(p, qs, 0.1, false).precision()).isEqualTo(0.0);
    assertThat(RelevanceFit.operate(p, qs, 0.1, true).precision()).isEqualTo(1.0);
  }

  @Test
  void anOperatingPointCountsRecallPrecisionAndAbstention() {
    List<Query> qs = data("a", 3, 50);
    RelevanceModel m = RelevanceFit.fit(qs, qs, qs, null, List.of()).model();
    RelevanceFit.Operating none = RelevanceFit.operate(m, qs, 1.0);
    assertThat(none.recall()).isZero();
    assertThat(none.abstention()).isEqualTo(1.0);
    RelevanceFit.Operating all = RelevanceFit.operate(m, qs, 0.0);
    assertThat(all.recall()).isEqualTo(1.0);
    assertThat(all.abstention()).isZero();
    assertThat(all.selectedPerQuery()).isEqualTo(5.0);
  }

  @Test
  void theGateThresholdIsTheHighestKeepingMostOfTheUngatedRecall() {
    List<RelevanceFit.Operating> curve =
        List.of(
            new RelevanceFit.Operating(0.1, 0.95, 0.70, 0.60, 2),
            new RelevanceFit.Operating(0.2, 0.93, 0.91, 0.85, 1.5),
            new RelevanceFit.Operating(0.3, 0.85, 0.92, 0.91, 1.2),
            new RelevanceFit.Operating(0.4, 0.70, 0.97, 0.99, 1));
    RelevanceFit.Operating ungated = new RelevanceFit.Operating(0, 0.97, 0.5, 0.2, 3);
    // 0.95 x 0.97 = 0.9215: 0.2 keeps 0.93, 0.3 only 0.85.
    assertThat(RelevanceFit.gateThreshold(curve, ungated)).isEqualTo(0.2);
    // None keeps it: the lowest threshold.
    assertThat(
            RelevanceFit.gateThreshold(
                List.of(
                    new RelevanceFit.Operating(0.1, 0.5, 0.5, 0.5, 2),
                    new RelevanceFit.Operating(0.2, 0.4, 0.8, 0.8, 1)),
                ungated))
        .isEqualTo(0.1);
  }

  @Test
  void answerWordsLeaveOutFunctionWords() {
    assertThat(AnswerProxy.answerWords("The Lisbon half marathon"))
        .containsExactlyInAnyOrder("lisbon", "half", "marathon");
    assertThat(AnswerProxy.answerWords("2022")).containsExactly("2022");
  }
}

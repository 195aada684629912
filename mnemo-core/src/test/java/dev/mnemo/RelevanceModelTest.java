package dev.mnemo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RelevanceModelTest {

  private static final String TEXT =
      RelevanceModel.format(
          "m-1",
          "emb-1",
          List.of("a", "b"),
          new double[] {1, 0},
          new double[] {2, 1},
          new double[] {0.5, -1},
          0.25,
          0.4,
          0.1,
          List.of("test model"));

  @Test
  void probabilityIsTheLogisticOfTheStandardizedWeightedSum() {
    RelevanceModel m = RelevanceModel.parse(TEXT);
    double z = 0.25 + 0.5 * (3 - 1) / 2 + -1 * (2 - 0) / 1;
    assertThat(m.probability(Map.of("a", 3.0, "b", 2.0)))
        .isCloseTo(1 / (1 + Math.exp(-z)), within(1e-12));
    assertThat(m.minRelevance()).isEqualTo(0.4);
    assertThat(m.exhaustiveMinRelevance()).isEqualTo(0.1);
    assertThat(m.id()).isEqualTo("m-1");
    assertThat(m.fits("emb-1")).isTrue();
    assertThat(m.fits("other")).isFalse();
  }

  @Test
  void contributionsSumToTheLogOdds() {
    RelevanceModel m = RelevanceModel.parse(TEXT);
    Map<String, Double> x = Map.of("a", 3.0, "b", 2.0, "unknown", 9.0);
    double z = m.contributions(x).values().stream().mapToDouble(Double::doubleValue).sum();
    assertThat(1 / (1 + Math.exp(-z))).isCloseTo(m.probability(x), within(1e-12));
    assertThat(m.contributions(x)).containsKeys("bias", "a", "b").doesNotContainKey("unknown");
  }

  @Test
  void formatIsStableAndReadsBack() {
    assertThat(
            RelevanceModel.format(
                "m-1",
                "emb-1",
                List.of("a", "b"),
                new double[] {1, 0},
                new double[] {2, 1},
                new double[] {0.5, -1},
                0.25,
                0.4,
                0.1,
                List.of("test model")))
        .isEqualTo(TEXT);
    assertThat(TEXT).startsWith("# test model\nmodel=m-1\nembedder=emb-1\n");
  }

  @Test
  void aMalformedModelIsRefusedNamingTheEntry() {
    assertThatThrownBy(
            () ->
                RelevanceModel.parse(
                    "model=x\nfeatures=a\nbias=0\nmin_relevance=0.5\n"
                        + "exhaustive_min_relevance=0.1\nmean.a=0\nscale.a=1\n"))
        .hasMessageContaining("weight.a");
    assertThatThrownBy(() -> RelevanceModel.parse(TEXT.replace("scale.a=2.000000", "scale.a=0")))
        .hasMessageContaining("scale.a");
  }

  @Test
  void theShippedModelLoads() {
    RelevanceModel m = RelevanceModel.defaultModel();
    assertThat(m.features()).isNotEmpty();
    assertThat(m.minRelevance()).isBetween(0.0, 1.0);
    assertThat(m.exhaustiveMinRelevance()).isLessThanOrEqualTo(m.minRelevance());
  }

  // Two trees over features a and b: tree 0 splits on a < 1 (leaves -1 / +1, covers 3 and 1), tree
  // 1
  // splits on b < 0.5 then a < 2 (leaves 0.5, -0.5, 0.25; covers 2, 1, 1).
  private static final String TREES =
      RelevanceModel.formatTrees(
          "t-1",
          "emb-1",
          List.of("a", "b"),
          2.0,
          -0.5,
          List.of(
              "s0,1.0,1,2,1,4;l-1.0,3;l1.0,1",
              "s1,0.5,1,2,2,4;l0.5,2;s0,2.0,3,4,3,2;l-0.5,1;l0.25,1"),
          0.6,
          0.2,
          List.of("test trees"));

  @Test
  void treesWalkEveryTreeAndCalibrateTheMargin() {
    RelevanceModel m = RelevanceModel.parse(TREES);
    assertThat(m.kind()).isEqualTo("trees");
    // a = 3 goes right in tree 0 (+1); b = 1 goes right, then a = 3 >= 2 right again (+0.25).
    double z = 2.0 * (1.0 + 0.25) - 0.5;
    assertThat(m.probability(Map.of("a", 3.0, "b", 1.0)))
        .isCloseTo(1 / (1 + Math.exp(-z)), within(1e-12));
    // A missing feature counts as 0: a = 0 left (-1), b = 0 left (+0.5).
    assertThat(m.probability(Map.of()))
        .isCloseTo(1 / (1 + Math.exp(-(2.0 * -0.5 - 0.5))), within(1e-12));
    assertThat(m.minRelevance()).isEqualTo(0.6);
    assertThat(m.exhaustiveMinRelevance()).isEqualTo(0.2);
    assertThat(m.fits("emb-1")).isTrue();
  }

  @Test
  void aBindingToAnArrayLayoutGivesTheMapsProbabilityBitForBit() {
    // the layout has an extra feature, another order, and lacks b (which then reads 0)
    List<String> layout = List.of("z", "a");
    for (RelevanceModel m : List.of(RelevanceModel.parse(TREES), RelevanceModel.parse(TEXT))) {
      RelevanceModel.Binding bound = m.bind(layout);
      for (double a : new double[] {-1, 0, 0.5, 1, 2.5, 3}) {
        assertThat(bound.probability(new double[] {7, a}))
            .isEqualTo(m.probability(Map.of("a", a, "z", 7.0)));
      }
    }
    RelevanceModel trees = RelevanceModel.parse(TREES);
    assertThat(trees.bind(List.of("b", "a")).probability(new double[] {1.0, 3.0}))
        .isEqualTo(trees.probability(Map.of("a", 3.0, "b", 1.0)));
  }

  @Test
  void treeContributionsFollowThePathAndSumToTheLogOdds() {
    RelevanceModel m = RelevanceModel.parse(TREES);
    Map<String, Double> x = Map.of("a", 3.0, "b", 1.0);
    Map<String, Double> c = m.contributions(x);
    double z = c.values().stream().mapToDouble(Double::doubleValue).sum();
    assertThat(1 / (1 + Math.exp(-z))).isCloseTo(m.probability(x), within(1e-12));
    // Tree 0's root expects (3 * -1 + 1 * 1) / 4 = -0.5; going right on a adds 1.5. Tree 1's right
    // split expects (-0.5 + 0.25) / 2 = -0.125, its root (2 * 0.5 + 2 * -0.125) / 4 = 0.1875: b
    // adds
    // -0.3125 and a adds 0.375 there.
    assertThat(c.get("a")).isCloseTo(2.0 * (1.5 + 0.375), within(1e-12));
    assertThat(c.get("b")).isCloseTo(2.0 * -0.3125, within(1e-12));
    assertThat(c.get("bias")).isCloseTo(2.0 * (-0.5 + 0.1875) - 0.5, within(1e-12));
  }

  @Test
  void aSplitComparesAsXgboostDoesInSinglePrecision() {
    RelevanceModel m = RelevanceModel.parse(TREES);
    // 0.99999999 is 1.0f as a float: not below the threshold 1.0, so tree 0 goes right.
    assertThat(m.contributions(Map.of("a", 0.99999999)).get("a")).isPositive();
  }

  @Test
  void aMalformedTreeIsRefusedNamingIt() {
    assertThatThrownBy(
            () ->
                RelevanceModel.parse(
                    TREES.replace("tree.1=s1,0.5,1,2,2,4", "tree.1=s7,0.5,1,2,2,4")))
        .hasMessageContaining("tree.1");
    assertThatThrownBy(
            () ->
                RelevanceModel.parse(
                    TREES.replace("tree.0=s0,1.0,1,2,1,4", "tree.0=s0,1.0,0,2,1,4")))
        .hasMessageContaining("tree.0");
    assertThatThrownBy(() -> RelevanceModel.parse(TREES.replace("kind=trees", "kind=forest")))
        .hasMessageContaining("kind");
    assertThatThrownBy(() -> RelevanceModel.parse(TREES.replace("platt.a=2.000000\n", "")))
        .hasMessageContaining("platt.a");
  }
}

package dev.mnemo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RelevanceModelTest {

  private static final String TEXT = RelevanceModel.format("m-1", "emb-1", List.of("a", "b"), new double[] {1, 0},
      new double[] {2, 1}, new double[] {0.5, -1}, 0.25, 0.4, 0.1, List.of("test model"));

  @Test
  void probabilityIsTheLogisticOfTheStandardizedWeightedSum() {
    RelevanceModel m = RelevanceModel.parse(TEXT);
    double z = 0.25 + 0.5 * (3 - 1) / 2 + -1 * (2 - 0) / 1;
    assertThat(m.probability(Map.of("a", 3.0, "b", 2.0))).isCloseTo(1 / (1 + Math.exp(-z)), within(1e-12));
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
    assertThat(RelevanceModel.format("m-1", "emb-1", List.of("a", "b"), new double[] {1, 0}, new double[] {2, 1},
        new double[] {0.5, -1}, 0.25, 0.4, 0.1, List.of("test model"))).isEqualTo(TEXT);
    assertThat(TEXT).startsWith("# test model\nmodel=m-1\nembedder=emb-1\n");
  }

  @Test
  void aMalformedModelIsRefusedNamingTheEntry() {
    assertThatThrownBy(() -> RelevanceModel.parse("model=x\nfeatures=a\nbias=0\nmin_relevance=0.5\n"
        + "exhaustive_min_relevance=0.1\nmean.a=0\nscale.a=1\n")).hasMessageContaining("weight.a");
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
}

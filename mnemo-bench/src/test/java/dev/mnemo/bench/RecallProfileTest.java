package dev.mnemo.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.RelevanceModel;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RecallProfileTest {

  @Test
  void syntheticModelHasTheShippedFeaturesAndScoresLikeAModel() {
    RelevanceModel shipped = RelevanceModel.defaultModel();
    RelevanceModel cheap = RecallProfile.synthetic(150, 2, 7);
    assertThat(cheap.kind()).isEqualTo("trees");
    assertThat(cheap.id()).isEqualTo("synthetic-150x2");
    assertThat(cheap.features()).isEqualTo(shipped.features());
    Map<String, Double> x = new HashMap<>();
    for (String f : shipped.features()) x.put(f, 0.3);
    double p = cheap.probability(x);
    assertThat(p).isStrictlyBetween(0.0, 1.0);
    // same seed, same trees
    assertThat(RecallProfile.synthetic(150, 2, 7).probability(x)).isEqualTo(p);
    // every feature's contribution is accounted for: they sum to the log-odds
    double logOdds =
        cheap.contributions(x).values().stream().mapToDouble(Double::doubleValue).sum();
    assertThat(1 / (1 + Math.exp(-logOdds)))
        .isCloseTo(p, org.assertj.core.data.Offset.offset(1e-9));
  }
}

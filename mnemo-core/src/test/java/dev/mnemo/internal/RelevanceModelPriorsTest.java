package dev.mnemo.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.RelevanceModel;
import org.junit.jupiter.api.Test;

/**
 * The shipped relevance model reads evidence of a match only: no write-time prior (importance,
 * authority, frequency, recency, category, dates, the final score that carries them) is among its
 * inputs, and every input is a feature the read path computes.
 */
class RelevanceModelPriorsTest {
  @Test
  void theShippedModelReadsNoPrior() {
    RelevanceModel m = RelevanceModel.defaultModel();
    assertThat(m.features()).doesNotContainAnyElementsOf(RelevanceFeatures.PRIORS);
    assertThat(RelevanceFeatures.NAMES).doesNotContainAnyElementsOf(RelevanceFeatures.PRIORS);
    assertThat(RelevanceFeatures.NAMES).containsAll(m.features());
  }

  @Test
  void aTimeMismatchCountsOnlyWhenTheMessageNamesATime() {
    assertThat(RelevanceFeatures.NAMES).contains("time_outside").doesNotContain("time_match");
  }
}

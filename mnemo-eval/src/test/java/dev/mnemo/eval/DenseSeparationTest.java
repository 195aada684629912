package dev.mnemo.eval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.Test;

class DenseSeparationTest {

  @Test
  void evidenceAboveEveryOtherRecord_scoresFullRecallAndAucAndAPositiveLead() {
    double[] cos = {0.9, 0.5, 0.4, 0.3};
    boolean[] ev = {true, false, false, false};
    DenseSeparation.Question q = DenseSeparation.measure("d", "k", false, cos, ev);
    assertThat(q.recallAt10()).isEqualTo(1.0);
    assertThat(q.auc()).isEqualTo(1.0);
    assertThat(q.lead()).isCloseTo(0.4, within(1e-12));
    // sd of {0.9, 0.5, 0.4, 0.3} (n - 1) = 0.26300
    assertThat(q.leadZ()).isCloseTo(0.4 / 0.26300, within(1e-3));
    assertThat(q.maxZ()).isCloseTo((0.9 - 0.525) / 0.26300, within(1e-3));
  }

  @Test
  void auc_countsPairsAndTiesHalf() {
    // evidence 0.5 beats 0.4, ties 0.5, loses to 0.6: (1 + 0.5 + 0) / 3
    double[] cos = {0.5, 0.4, 0.5, 0.6};
    boolean[] ev = {true, false, false, false};
    DenseSeparation.Question q = DenseSeparation.measure("d", "k", false, cos, ev);
    assertThat(q.auc()).isCloseTo(0.5, within(1e-12));
    assertThat(q.lead()).isCloseTo(-0.1, within(1e-12));
  }

  @Test
  void recall_countsOnlyTheTenHighestCosines() {
    double[] cos = new double[12];
    boolean[] ev = new boolean[12];
    for (int i = 0; i < 12; i++) cos[i] = 1.0 - i * 0.01;
    ev[0] = true;
    ev[11] = true; // the lowest of twelve: outside the top 10
    assertThat(DenseSeparation.measure("d", "k", false, cos, ev).recallAt10()).isEqualTo(0.5);
  }

  @Test
  void nothingToFind_hasOnlyAZScore() {
    double[] cos = {0.6, 0.5, 0.4};
    DenseSeparation.Question q = DenseSeparation.measure("d", "absent", true, cos, new boolean[3]);
    assertThat(q.recallAt10()).isNaN();
    assertThat(q.auc()).isNaN();
    assertThat(q.lead()).isNaN();
    assertThat(q.maxZ()).isCloseTo(1.0, within(1e-12));
  }

  @Test
  void summary_averagesAnswerableQuestionsAndSeparatesThemFromNothingToFind() {
    var answerable =
        DenseSeparation.measure(
            "d", "k", false, new double[] {0.9, 0.5, 0.4}, new boolean[] {true, false, false});
    var missed =
        DenseSeparation.measure(
            "d", "k", false, new double[] {0.5, 0.9, 0.4}, new boolean[] {true, false, false});
    var none =
        DenseSeparation.measure("d", "absent", true, new double[] {0.6, 0.59, 0.4}, new boolean[3]);
    DenseSeparation.Summary s = DenseSeparation.summarize(List.of(answerable, missed, none));
    assertThat(s.answerable()).isEqualTo(2);
    assertThat(s.none()).isEqualTo(1);
    assertThat(s.auc()).isCloseTo(0.75, within(1e-12));
    assertThat(s.topIsEvidence()).isEqualTo(0.5);
    // both answerable questions have maxZ 1.12 (same cosines), above the none question's 0.63
    assertThat(s.noneAuc()).isEqualTo(1.0);
    assertThat(s.row("m")).startsWith("| m | 2 | 1.000 | 0.750 |");
  }

  @Test
  void refusesMismatchedLengths() {
    assertThatThrownBy(
            () -> DenseSeparation.measure("d", "k", false, new double[2], new boolean[3]))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("2 and 3");
  }
}

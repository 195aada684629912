package dev.mnemo.eval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class AnswerScoresTest {

  @Test
  void exactMatch_ignoresCasePunctuationAndArticles() {
    assertThat(AnswerScores.exactMatch("The Lisbon marathon!", "lisbon marathon")).isEqualTo(1.0);
    assertThat(AnswerScores.exactMatch("Lisbon", "Porto")).isZero();
  }

  @Test
  void f1_isTheHarmonicMeanOfTokenPrecisionAndRecall() {
    // answer tokens [in, lisbon, in, october], gold [lisbon]: precision 1/4, recall 1
    assertThat(AnswerScores.f1("In Lisbon, in October", "Lisbon")).isCloseTo(0.4, within(1e-9));
    assertThat(AnswerScores.f1("7 May 2023", "7 May 2023")).isEqualTo(1.0);
    assertThat(AnswerScores.f1("I don't know", "Pixel")).isZero();
    assertThat(AnswerScores.f1("", "")).isEqualTo(1.0);
  }
}

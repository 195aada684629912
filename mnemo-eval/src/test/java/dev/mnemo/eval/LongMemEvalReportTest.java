package dev.mnemo.eval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.mnemo.eval.LocomoRunner.Ranking;
import dev.mnemo.eval.LongMemEvalReport.Answer;
import java.util.List;
import org.junit.jupiter.api.Test;

class LongMemEvalReportTest {

  @Test
  void recallAll_needsEveryEvidenceItem_recallAnyOne() {
    List<String> ranked = List.of("a", "b", "c", "d");
    assertThat(LongMemEvalReport.recallAll(List.of("b", "d"), ranked, 2)).isEqualTo(0.0);
    assertThat(LongMemEvalReport.recallAll(List.of("b", "d"), ranked, 4)).isEqualTo(1.0);
    assertThat(LongMemEvalReport.recallAny(List.of("b", "d"), ranked, 2)).isEqualTo(1.0);
    assertThat(LongMemEvalReport.recallAny(List.of("x"), ranked, 4)).isEqualTo(0.0);
    assertThat(LongMemEvalReport.recallAll(List.of(), ranked, 4)).isNaN();
    assertThat(LongMemEvalReport.share(List.of("b", "d"), ranked, 2)).isEqualTo(0.5);
    assertThat(LongMemEvalReport.share(List.of("b", "d", "x", "y"), ranked, 4)).isEqualTo(0.5);
  }

  @Test
  void ndcg_isDcgOverTheIdealOrdering() {
    // evidence at ranks 2 and 4: (1/log2 3 + 1/log2 5) / (1 + 1/log2 3)
    double expected = (1 / log2(3) + 1 / log2(5)) / (1 + 1 / log2(3));
    assertThat(LongMemEvalReport.ndcg(List.of("b", "d"), List.of("a", "b", "c", "d"), 10))
        .isCloseTo(expected, within(1e-12));
    assertThat(LongMemEvalReport.ndcg(List.of("a"), List.of("a", "b"), 10)).isEqualTo(1.0);
    // the ideal is cut at k too: two evidence items, k = 1, the first one ranked first
    assertThat(LongMemEvalReport.ndcg(List.of("a", "z"), List.of("a", "b"), 1)).isEqualTo(1.0);
    assertThat(LongMemEvalReport.ndcg(List.of("z"), List.of("a", "b"), 10)).isEqualTo(0.0);
  }

  @Test
  void report_averagesOverQuestions_leavingAbstentionAndMissingTurnEvidenceOut() {
    Answer hit =
        new Answer(
            "q1",
            "multi-session",
            false,
            Ranking.FULL,
            List.of("s1:0"),
            List.of("s1"),
            List.of("s1:0", "s2:3"),
            List.of(10, 20),
            List.of("s1", "s2"),
            5);
    Answer miss =
        new Answer(
            "q2",
            "multi-session",
            false,
            Ranking.FULL,
            List.of(),
            List.of("s9"),
            List.of("s1:0"),
            List.of(7),
            List.of("s1"),
            7);
    Answer abs =
        new Answer(
            "q3_abs",
            "knowledge-update",
            true,
            Ranking.FULL,
            List.of(),
            List.of("s1"),
            List.of("s1:0"),
            List.of(7),
            List.of("s1"),
            9);
    LongMemEvalReport r =
        new LongMemEvalReport(true, 10, List.of(Ranking.FULL), 3, 30, 1.0, List.of(hit, miss, abs));
    assertThat(r.sessionRecallAt(Ranking.FULL, 10)).isEqualTo(0.5);
    assertThat(r.turnRecallAt(Ranking.FULL, 10)).isEqualTo(1.0); // q2 has no evidence turn
    var p = r.toJson().path("policies").path("full");
    assertThat(p.path("questions").asInt()).isEqualTo(2);
    assertThat(p.path("turn_questions").asInt()).isEqualTo(1);
    assertThat(p.path("tokens@1").asDouble()).isEqualTo(8.5);
    assertThat(p.path("tokens@10").asDouble()).isEqualTo(18.5);
    assertThat(p.path("abstention").path("recall@10").asDouble()).isEqualTo(1.0);
    assertThat(r.ks()).containsExactly(1, 3, 5, 10);
  }

  @Test
  void answer_needsOneTokenCountPerTurn() {
    assertThatThrownBy(
            () ->
                new Answer(
                    "q",
                    "t",
                    false,
                    Ranking.FULL,
                    List.of(),
                    List.of(),
                    List.of("a"),
                    List.of(),
                    List.of(),
                    1))
        .hasMessage("turnTokens must have one entry per turn, were 0 for 1");
  }

  private static double log2(double x) {
    return Math.log(x) / Math.log(2);
  }
}

package dev.mnemo.eval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import dev.mnemo.Category;
import dev.mnemo.NewMemory;
import dev.mnemo.eval.LocomoRunner.Ranking;
import dev.mnemo.eval.LongMemEvalReport.Answer;
import dev.mnemo.testkit.HashingEmbedder;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class LongMemEvalRunnerTest {

  private static final List<LongMemEvalQuestion> TINY =
      LongMemEvalLoader.load(LongMemEvalLoaderTest.TINY);

  @Test
  void memories_everyTurnOfBothRoles_datedBySession_withNeighboursAsContext() {
    List<NewMemory> ms = LongMemEvalRunner.memories(TINY.get(0), true);
    assertThat(ms).hasSize(8);
    NewMemory evidence = ms.get(2);
    assertThat(evidence.owner()).isEqualTo("q-user-1");
    assertThat(evidence.text()).startsWith("We just adopted a border collie");
    assertThat(evidence.category()).isEqualTo(Category.EPISODIC);
    assertThat(evidence.sources()).containsExactly("s-puppy:0");
    assertThat(evidence.episode()).isEqualTo("s-puppy");
    assertThat(evidence.seq()).isEqualTo(0);
    assertThat(evidence.recordedAt()).isEqualTo(Instant.parse("2024-06-10T18:30:00Z"));
    assertThat(evidence.validFrom()).isEqualTo(evidence.recordedAt());
    assertThat(evidence.metadata()).isEqualTo(Map.of("role", "user"));
    assertThat(ms.get(3).metadata()).isEqualTo(Map.of("role", "assistant"));
    // two neighbours on each side, inside their session
    assertThat(evidence.context()).isEqualTo(ms.get(3).text() + "\n" + ms.get(4).text());
    assertThat(ms.get(3).context()).startsWith(ms.get(2).text() + "\n" + ms.get(4).text());
    assertThat(LongMemEvalRunner.memories(TINY.get(0), false))
        .allSatisfy(m -> assertThat(m.context()).isNull());
  }

  @Test
  void pieces_cutsALongTurnAtWhiteSpace_losingNothing() {
    String word = "abcdefghi ";
    String longTurn = word.repeat(2_000); // 20,000 characters
    List<String> ps = LongMemEvalRunner.pieces(longTurn, 8_000);
    assertThat(ps).hasSize(3).allSatisfy(p -> assertThat(p.length()).isLessThanOrEqualTo(8_000));
    assertThat(String.join(" ", ps)).isEqualTo(longTurn.strip());
    assertThat(LongMemEvalRunner.pieces("  ", 8_000)).isEmpty();
    assertThat(LongMemEvalRunner.pieces("x".repeat(10), 4)).containsExactly("xxxx", "xxxx", "xx");
  }

  @Test
  void memories_ofALongTurn_shareItsSource_andEmptyTurnsAreSkipped() {
    LongMemEvalQuestion q = TINY.get(0);
    LongMemEvalQuestion.Session s =
        new LongMemEvalQuestion.Session(
            "s-long",
            "s-long",
            Instant.parse("2024-01-01T00:00:00Z"),
            List.of(
                new LongMemEvalQuestion.Turn("user", "", false),
                new LongMemEvalQuestion.Turn("assistant", "word ".repeat(3_000), true)));
    LongMemEvalQuestion longOne =
        new LongMemEvalQuestion(
            "q-long",
            q.type(),
            q.question(),
            q.answer(),
            q.askedAt(),
            List.of(s),
            Set.of("s-long"));
    List<NewMemory> ms = LongMemEvalRunner.memories(longOne, true);
    assertThat(ms).hasSize(2).allSatisfy(m -> assertThat(m.sources()).containsExactly("s-long:1"));
    assertThat(ms).extracting(NewMemory::seq).containsExactly(0, 1);
  }

  @Test
  void run_ranksTurnsAndSessions_underEveryRanking_abstentionApart() {
    List<String> lines = new ArrayList<>();
    LongMemEvalReport r =
        new LongMemEvalRunner(
                TestEngines.lucene(new HashingEmbedder()),
                true,
                5,
                List.of(Ranking.values()),
                lines::add)
            .run(TINY);
    assertThat(lines)
        .hasSize(3)
        .first()
        .asString()
        .startsWith("[1/3] q-user-1 single-session-user: 8 memories written");
    assertThat(r.answers()).hasSize(3 * Ranking.values().length);
    assertThat(r.memories()).isEqualTo(8 + 8 + 4);
    for (Answer a : r.answers()) {
      assertThat(a.turns()).hasSizeLessThanOrEqualTo(5).doesNotHaveDuplicates();
      assertThat(a.sessions())
          .doesNotHaveDuplicates()
          .allSatisfy(id -> assertThat(id).doesNotContain("#"));
      assertThat(a.tokensAt(5)).isPositive();
    }
    // BM25 finds the one turn that says "puppy", and reads its session off it: a session of the
    // question's own day, dated hours after question_date, is known when the question is asked
    assertThat(LongMemEvalRunner.askedAt(TINY.get(0)))
        .isEqualTo(Instant.parse("2024-06-10T23:59:59Z"));
    Answer bm25 = r.answers(Ranking.BM25, false, "single-session-user").get(0);
    assertThat(bm25.turns().get(0)).isEqualTo("s-puppy:0");
    assertThat(bm25.sessions().get(0)).isEqualTo("s-puppy");
    assertThat(bm25.turnRecallAt(1)).isEqualTo(1.0);

    JsonNode json = r.toJson();
    assertThat(json.path("benchmark").asText()).isEqualTo("longmemeval");
    assertThat(json.path("policies").fieldNames())
        .toIterable()
        .containsExactly("full", "dense", "bm25", "full-rrf");
    for (JsonNode p : json.path("policies")) {
      assertThat(p.path("questions").asInt()).isEqualTo(2);
      assertThat(p.path("turn_questions").asInt()).isEqualTo(2);
      for (String m :
          List.of(
              "recall@5", "ndcg@5", "turn_recall@5", "turn_ndcg@5", "tokens@5", "latency_p50_ms")) {
        assertThat(p.path(m).isNumber()).as(m).isTrue();
      }
      assertThat(p.path("turn_recall@5").asDouble())
          .isGreaterThanOrEqualTo(p.path("turn_recall@1").asDouble());
      assertThat(p.path("per_type").fieldNames())
          .toIterable()
          .containsExactly("single-session-assistant", "single-session-user");
      assertThat(p.path("abstention").path("questions").asInt()).isEqualTo(1);
      assertThat(p.path("abstention").path("turn_questions").asInt()).isZero();
    }
    assertThat(
            json.path("policies")
                .path("bm25")
                .path("per_type")
                .path("single-session-user")
                .path("turn_recall@1")
                .asDouble())
        .isCloseTo(1.0, within(1e-9));
    assertThat(r.table()).contains("turnR@5", "single-session-user", "abstention", "full-rrf");
  }
}

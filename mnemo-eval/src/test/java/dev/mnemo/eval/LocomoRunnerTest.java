package dev.mnemo.eval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import dev.mnemo.Category;
import dev.mnemo.NewMemory;
import dev.mnemo.eval.LocomoRunner.Ranking;
import dev.mnemo.testkit.HashingEmbedder;
import java.util.List;
import org.junit.jupiter.api.Test;

class LocomoRunnerTest {

  private static final LocomoConversation TINY =
      LocomoLoader.load(LocomoLoaderTest.DIR.resolve("tiny.json"));

  @Test
  void memories_oneEpisodicPerTurn_datedBySession_withNeighboursAsContext() {
    List<NewMemory> ms = LocomoRunner.memories(TINY, true);
    assertThat(ms).hasSize(7);
    NewMemory second = ms.get(1);
    assertThat(second.owner()).isEqualTo("tiny");
    assertThat(second.category()).isEqualTo(Category.EPISODIC);
    assertThat(second.sources()).containsExactly("D1:2");
    assertThat(second.episode()).isEqualTo("session_1");
    assertThat(second.seq()).isEqualTo(1);
    assertThat(second.recordedAt()).isEqualTo(TINY.sessions().get(0).at());
    assertThat(second.validFrom()).isEqualTo(TINY.sessions().get(0).at());
    assertThat(second.metadata())
        .containsEntry("speaker", second.text().substring(0, second.text().indexOf(':')));
    // two turns on each side, in order
    assertThat(second.context())
        .isEqualTo(ms.get(0).text() + "\n" + ms.get(2).text() + "\n" + ms.get(3).text());
    // neighbours stay inside their session
    assertThat(ms.get(3).context()).isEqualTo(ms.get(1).text() + "\n" + ms.get(2).text());
    assertThat(ms.get(4).context()).isEqualTo(ms.get(5).text() + "\n" + ms.get(6).text());
    assertThat(LocomoRunner.memories(TINY, false))
        .allSatisfy(m -> assertThat(m.context()).isNull());
  }

  @Test
  void namedSpeaker_isTheOneSpeakerTheQuestionNames() {
    assertThat(LocomoRunner.namedSpeaker("What did Ben's kitten do?", "Ana", "Ben"))
        .isEqualTo("Ben");
    assertThat(LocomoRunner.namedSpeaker("Did Ana and Ben meet?", "Ana", "Ben")).isNull();
    assertThat(LocomoRunner.namedSpeaker("What about Benjamin?", "Ana", "Ben")).isNull();
  }

  @Test
  void recallAt_isTheShareOfEvidenceInTheTopK() {
    LocomoReport.Answer a =
        new LocomoReport.Answer(
            "c",
            0,
            1,
            Ranking.FULL,
            List.of("D1:1", "D2:2"),
            List.of("D3:3", "D2:2", "D1:1"),
            1,
            Double.NaN,
            Double.NaN);
    assertThat(a.recallAt(1)).isEqualTo(0.0);
    assertThat(a.recallAt(2)).isEqualTo(0.5);
    assertThat(a.recallAt(3)).isEqualTo(1.0);
    assertThat(a.recallAt(20)).isEqualTo(1.0);
  }

  @Test
  void run_measuresEveryRankingOnTheEvidenceQuestions() {
    LocomoReport r =
        new LocomoRunner(TestEngines.lucene(new HashingEmbedder()), true, 5).run(List.of(TINY));
    assertThat(r.turns()).isEqualTo(7);
    assertThat(r.ks()).containsExactly(1, 3, 5);
    // three evidence questions and one adversarial, under each of the four rankings
    assertThat(r.answers()).hasSize(4 * Ranking.values().length);
    JsonNode json = r.toJson();
    assertThat(json.path("policies").fieldNames())
        .toIterable()
        .containsExactly("full", "dense", "bm25", "full-rrf");
    for (JsonNode p : json.path("policies")) {
      assertThat(p.path("questions").asInt()).isEqualTo(3);
      assertThat(p.path("recall@1").asDouble()).isBetween(0.0, 1.0);
      assertThat(p.path("recall@5").asDouble())
          .isGreaterThanOrEqualTo(p.path("recall@1").asDouble());
      assertThat(p.path("per_category").fieldNames()).toIterable().containsExactly("1", "2", "4");
      assertThat(p.path("adversarial").path("questions").asInt()).isEqualTo(1);
      assertThat(p.path("adversarial").path("named_speaker_base_rate").asDouble())
          .isCloseTo(4.0 / 7, within(1e-3)); // Ben said 4 of the 7 turns
    }
    // the kitten's name: only its evidence turn itself says "kitten" (others only in their context)
    assertThat(
            r.answers().stream()
                .filter(a -> a.ranking() == Ranking.BM25 && a.index() == 0)
                .findFirst()
                .orElseThrow()
                .recallAt(1))
        .isEqualTo(1.0);
    assertThat(r.table()).contains("recall@5", "full-rrf");
  }

  @Test
  void recallAt_countsARecordForEveryEvidenceTurnAmongItsSources() {
    LocomoReport.Answer a =
        new LocomoReport.Answer(
            "c",
            0,
            1,
            Ranking.FULL,
            List.of("D1:1", "D2:2"),
            List.of("D1:1", "D2:2", "D3:3"),
            1,
            Double.NaN,
            Double.NaN,
            List.of(List.of("D1:1", "D2:2"), List.of("D3:3")));
    assertThat(a.recallAt(1)).isEqualTo(1.0);
  }

  @Test
  void writePathOffline_ingestsTheTurns_andReportsWhatItStored() {
    LocomoReport r =
        new LocomoRunner(
                TestEngines.lucene(new HashingEmbedder()), true, 5, LocomoRunner.WritePath.OFFLINE)
            .run(List.of(TINY));
    assertThat(r.turns()).isEqualTo(7);
    assertThat(r.write().writePath()).isEqualTo("offline");
    assertThat(r.write().records()).isBetween(1L, 7L);
    assertThat(r.write().tokensStored()).isPositive();
    assertThat(r.write().ackMsMedian()).isPositive();
    JsonNode json = r.toJson();
    assertThat(json.path("write_path").path("mode").asText()).isEqualTo("offline");
    assertThat(json.path("policies").path("full").path("questions").asInt()).isEqualTo(3);
    assertThat(LocomoRunner.turns(TINY, TINY.sessions().get(0)))
        .allSatisfy(
            t -> {
              assertThat(t.owner()).isEqualTo("tiny");
              assertThat(t.episode()).isEqualTo("session_1");
              assertThat(t.at()).isEqualTo(TINY.sessions().get(0).at());
            });
  }
}

package dev.mnemo.eval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mnemo.Fusion;
import dev.mnemo.Packing;
import dev.mnemo.RecallRequest;
import dev.mnemo.TimeFilter;
import dev.mnemo.Weights;
import dev.mnemo.eval.LocomoRunner.Ranking;
import dev.mnemo.llm.QueryRewriter;
import dev.mnemo.testkit.HashingEmbedder;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * Mechanics of the ablation run with a model-free embedder; the numbers are docs/evaluation.md's
 * business.
 */
class AblationRunnerTest {

  private static final Function<Path, dev.mnemo.Mnemo> ENGINES =
      TestEngines.lucene(new HashingEmbedder());

  private static RecallRequest built(Ablation a) {
    return a.apply(RecallRequest.builder("u", "q")).build();
  }

  @Test
  void variants_changeOneThingEach_andFullIsTheDefaults() {
    RecallRequest defaults = RecallRequest.builder("u", "q").build();
    assertThat(built(Ablation.FULL)).isEqualTo(defaults);
    Weights noWindow = Weights.DEFAULT.withWindow(0);
    assertThat(built(Ablation.DENSE).weights())
        .isEqualTo(noWindow.withBm25(0).withEntity(0).relevanceOnly());
    assertThat(built(Ablation.BM25).weights())
        .isEqualTo(noWindow.withDense(0).withEntity(0).relevanceOnly());
    assertThat(built(Ablation.DENSE_BM25).weights())
        .isEqualTo(noWindow.withEntity(0).relevanceOnly());
    assertThat(built(Ablation.ENTITY).weights()).isEqualTo(noWindow.relevanceOnly());
    assertThat(built(Ablation.WINDOW).weights()).isEqualTo(Weights.DEFAULT.relevanceOnly());
    assertThat(built(Ablation.RANKING).weights()).isEqualTo(Weights.DEFAULT);
    assertThat(built(Ablation.NO_WINDOW).weights()).isEqualTo(noWindow);
    assertThat(built(Ablation.NO_SPEAKER).weights()).isEqualTo(Weights.DEFAULT.withSpeaker(0));
    assertThat(built(Ablation.NO_CONTEXT).weights()).isEqualTo(Weights.DEFAULT.withContext(0));
    assertThat(built(Ablation.NOISY).query())
        .startsWith(built(Ablation.NOISY).query().substring(0, 5))
        .contains(" q ");
    assertThat(built(Ablation.NOISY_FOCUS).focus().question()).isEqualTo("q");
    for (Ablation a :
        List.of(
            Ablation.DENSE,
            Ablation.BM25,
            Ablation.DENSE_BM25,
            Ablation.ENTITY,
            Ablation.WINDOW,
            Ablation.RANKING)) {
      assertThat(built(a).timeFilter()).as(a.code()).isEqualTo(TimeFilter.OFF);
      assertThat(built(a).threshold()).as(a.code()).isEqualTo(RecallRequest.DEFAULT_THRESHOLD);
    }
    assertThat(built(Ablation.RRF).fusion()).isEqualTo(Fusion.rrf());
    assertThat(built(Ablation.TIME_FILTER).timeFilter()).isEqualTo(TimeFilter.FILTER);
    assertThat(built(Ablation.COVERAGE).packing()).isEqualTo(Packing.COVERAGE);
    assertThat(built(Ablation.NO_RELATIVE).relativeThreshold()).isZero();
    assertThat(built(Ablation.NO_RELATIVE).threshold()).isEqualTo(RecallRequest.DEFAULT_THRESHOLD);
    assertThat(built(Ablation.NO_THRESHOLD).threshold()).isZero();
    assertThat(built(Ablation.NO_THRESHOLD).relativeThreshold()).isZero();
  }

  @Test
  void codes_areUnique_andRoundTrip() {
    assertThat(new HashSet<>(Arrays.stream(Ablation.values()).map(Ablation::code).toList()))
        .hasSize(Ablation.values().length);
    for (Ablation a : Ablation.values()) assertThat(Ablation.fromCode(a.code())).isEqualTo(a);
    assertThatThrownBy(() -> Ablation.fromCode("sparse"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("ablation must be one of [dense, bm25,")
        .hasMessageEndingWith("was 'sparse'");
  }

  @Test
  void run_everyVariantAnswersEveryQuery_andFullSelectsWhatTheFullPolicySelects() {
    AblationReport r = new AblationRunner(ENGINES).run(List.of(ScenarioReaderTest.DEV));
    assertThat(r.results().keySet())
        .containsExactlyElementsOf(Ablation.available(false))
        .doesNotContain(Ablation.NOISY_REWRITER);
    assertThat(r.results().values()).allSatisfy(rs -> assertThat(rs).hasSize(12));
    List<QueryResult> policy =
        new ScenarioRunner(ENGINES, List.of(Policy.FULL))
            .run(List.of(ScenarioReaderTest.DEV))
            .results();
    List<QueryResult> full = r.results().get(Ablation.FULL);
    for (int i = 0; i < policy.size(); i++) {
      assertThat(full.get(i).query()).isEqualTo(policy.get(i).query());
      assertThat(full.get(i).selected())
          .as(full.get(i).query())
          .isEqualTo(policy.get(i).selected());
    }
    assertThat(r.metrics().keySet()).containsExactly(ScenarioReport.ALL, "dev");
    // without any threshold something is selected for the question that expects nothing
    assertThat(r.metrics(Ablation.NO_THRESHOLD).abstention()).isLessThan(1.0);
  }

  @Test
  void report_tableAndJson_nameEveryVariant() {
    AblationReport r =
        new AblationRunner(ENGINES, List.of(Ablation.BM25, Ablation.FULL))
            .run(List.of(ScenarioReaderTest.DEV));
    assertThat(r.table())
        .contains("split all (12 queries", "split dev", "bm25", "full", "variants:");
    ObjectNode j = r.toJson();
    assertThat(j.get("variants").fieldNames()).toIterable().containsExactly("bm25", "full");
    assertThat(j.get("splits").get("dev").get("full").has("recall")).isTrue();
    assertThat(j.get("splits").get("all").get("bm25").get("queries").asInt()).isEqualTo(12);
    List<ObjectNode> lines = r.queryLines();
    assertThat(lines).hasSize(24);
    assertThat(lines.get(0).get("variant").asText()).isEqualTo("bm25");
    assertThat(lines.get(12).get("variant").asText()).isEqualTo("full");
    assertThat(lines.get(0).fieldNames())
        .toIterable()
        .contains("scenario", "split", "query", "selected", "tokens_used");
  }

  @Test
  void locomo_measuresTheRankingVariants_andFullMatchesTheLocomoRunner() {
    LocomoConversation tiny = LocomoLoader.load(LocomoLoaderTest.DIR.resolve("tiny.json"));
    LocomoAblationReport r = new AblationRunner(ENGINES).locomo(List.of(tiny), true, 5);
    assertThat(r.answers().keySet())
        .doesNotContain(Ablation.NO_RELATIVE, Ablation.NO_THRESHOLD)
        .contains(Ablation.DENSE, Ablation.BM25, Ablation.FULL, Ablation.RRF, Ablation.COVERAGE);
    assertThat(r.answers().get(Ablation.FULL)).hasSize(3);
    assertThat(r.ks()).containsExactly(1, 3, 5);
    LocomoReport base = new LocomoRunner(ENGINES, true, 5).run(List.of(tiny));
    for (int k : r.ks()) {
      assertThat(r.recallAt(Ablation.FULL, k))
          .isCloseTo(base.recallAt(Ranking.FULL, k), within(1e-12));
      assertThat(r.recallAt(Ablation.RRF, k))
          .isCloseTo(base.recallAt(Ranking.FULL_RRF, k), within(1e-12));
    }
    ObjectNode j = r.toJson();
    assertThat(j.get("policies").get("full").has("recall@5")).isTrue();
    assertThat(j.get("policies").get("full").get("questions").asInt()).isEqualTo(3);
    assertThat(r.table()).contains("recall@5", "full-rrf");
  }

  @Test
  void rewriterVariant_searchesWithWhatTheRewriterWrote_andNeedsARewriter() {
    List<String> seen = new java.util.ArrayList<>();
    QueryRewriter echo =
        (text, focus) -> {
          seen.add(text);
          return new QueryRewriter.Rewrite("what " + text.length(), List.of("Ana"), true);
        };
    RecallRequest req =
        Ablation.NOISY_REWRITER
            .apply(RecallRequest.builder("u", "where does Ana live"), echo)
            .build();
    assertThat(seen).containsExactly(req.query());
    assertThat(req.query()).contains("where does Ana live").isNotEqualTo("where does Ana live");
    assertThat(req.focus().question()).isEqualTo("what " + req.query().length());
    assertThat(req.focus().entities()).containsExactly("Ana");
    assertThatThrownBy(() -> Ablation.NOISY_REWRITER.apply(RecallRequest.builder("u", "q")))
        .isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(() -> new AblationRunner(ENGINES, List.of(Ablation.NOISY_REWRITER)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("noisy+rewriter needs a language model");
    assertThat(Ablation.available(true))
        .contains(Ablation.NOISY_REWRITER)
        .hasSize(Ablation.values().length);
  }

  @Test
  void rewriterVariant_withARewriterThatRecoversTheQuestion_selectsWhatFullSelects() {
    List<String> questions =
        ScenarioReader.read(List.of(ScenarioReaderTest.DEV)).stream()
            .flatMap(sc -> sc.queries().stream())
            .map(ScenarioQuery::text)
            .toList();
    // a perfect rewriter: the question the noisy message wraps (the longest one it contains)
    QueryRewriter perfect =
        (text, focus) ->
            new QueryRewriter.Rewrite(
                questions.stream()
                    .filter(text::contains)
                    .max(java.util.Comparator.comparingInt(String::length))
                    .orElseThrow(),
                List.of(),
                true);
    AblationReport r =
        new AblationRunner(ENGINES, List.of(Ablation.FULL, Ablation.NOISY_REWRITER), perfect)
            .run(List.of(ScenarioReaderTest.DEV));
    List<QueryResult> full = r.results().get(Ablation.FULL);
    List<QueryResult> rewritten = r.results().get(Ablation.NOISY_REWRITER);
    for (int i = 0; i < full.size(); i++) {
      assertThat(rewritten.get(i).selected())
          .as(full.get(i).query())
          .isEqualTo(full.get(i).selected());
    }
  }

  @Test
  void emptyVariants_areRejected() {
    assertThatThrownBy(() -> new AblationRunner(ENGINES, List.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("variants must not be empty");
  }
}

package dev.mnemo.eval;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mnemo.llm.JsonChat;
import dev.mnemo.llm.LlmAnswerer;
import dev.mnemo.llm.LlmCounterfactual;
import dev.mnemo.llm.LlmJudge;
import dev.mnemo.testkit.HashingEmbedder;
import dev.mnemo.testkit.ScriptedChatModel;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The answer-level evaluation end to end on a real engine, with the scripted fake model. */
class AnswerEvaluatorTest {

  static final String SCENARIO =
      """
      {"id": "s-maya", "split": "dev", "writes": [
        {"id": "e1", "owner": "u-maya", "recorded_at": "2026-03-01T10:00:00Z", "text": "Maya writes all her code in Vim.", "fact_key": "editor"},
        {"id": "e2", "owner": "u-maya", "recorded_at": "2026-06-02T09:00:00Z", "text": "Maya switched her editor from Vim to Emacs in June.", "fact_key": "editor", "valid_from": "2026-06-01"},
        {"id": "e3", "owner": "u-maya", "recorded_at": "2026-06-03T09:00:00Z", "text": "Maya's dog is called Biscuit."},
        {"id": "e4", "owner": "u-maya", "recorded_at": "2026-06-04T09:00:00Z", "text": "Maya's team ships a release every second Thursday."}],
       "queries": [
        {"id": "q1", "owner": "u-maya", "asked_at": "2026-07-01T00:00:00Z", "text": "Which editor does Maya use?", "expect": ["e2"], "forbid": ["e1"]},
        {"id": "q2", "owner": "u-maya", "asked_at": "2026-07-01T00:00:00Z", "text": "What is the name of Maya's dog?", "expect": ["e3"]},
        {"id": "q3", "owner": "u-maya", "asked_at": "2026-07-01T00:00:00Z", "text": "Which opera does Maya like best?", "expect_none": true}]}
      """
          .replace("\n", " ");

  static AnswerEvaluator evaluator(ScriptedChatModel model, AnswerEvaluator.Options options) {
    JsonChat chat = new JsonChat(model);
    return new AnswerEvaluator(
        TestEngines.lucene(new HashingEmbedder()),
        new LlmAnswerer(chat),
        new LlmJudge(chat),
        new LlmCounterfactual(chat),
        options,
        null);
  }

  static List<AnswerSuite> suites() {
    return AnswerSuites.scenarios(List.of(ScenarioReader.parse(SCENARIO, "test:1")));
  }

  @Test
  void run_scenario_answersWithAndWithoutMemory_judgesBoth_andComputesEveryRate() {
    ScriptedChatModel model = FakeAnswerModel.model();
    AnswerReport report = evaluator(model, AnswerEvaluator.Options.DEFAULT).run(suites());
    Map<String, AnswerReport.Outcome> byId =
        report.outcomes().stream().collect(Collectors.toMap(AnswerReport.Outcome::id, o -> o));
    assertThat(byId).containsOnlyKeys("q1", "q2", "q3");

    AnswerReport.Outcome dog = byId.get("q2");
    assertThat(dog.answerWithout()).isEqualTo("I don't know");
    assertThat(dog.correctWithout()).isFalse();
    assertThat(dog.answerWith()).isEqualTo("Maya's dog is called Biscuit.");
    assertThat(dog.correctWith()).isTrue();
    assertThat(dog.used()).hasSize(1);
    assertThat(dog.f1With()).isEqualTo(1.0);
    assertThat(dog.needed()).as("leaving the dog record out loses the answer").hasSize(1);
    AnswerReport.Outcome editor = byId.get("q1");
    assertThat(editor.answerWith()).contains("Emacs");
    assertThat(editor.correctWith()).isTrue();
    AnswerReport.Outcome opera = byId.get("q3");
    assertThat(opera.correctWithout()).isTrue();
    assertThat(opera.correctWith()).isTrue();
    assertThat(
            model.calls().stream()
                .filter(c -> c.system().equals(LlmJudge.RUBRIC) && c.user().contains("opera")))
        .as("the same answer with and without memory is judged once")
        .hasSize(1);

    ObjectNode j = report.toJson();
    assertThat(j.get("questions").asInt()).isEqualTo(3);
    assertThat(j.get("errors").asInt()).isZero();
    assertThat(j.get("benefit_rate").asDouble()).isEqualTo(0.6667);
    assertThat(j.get("disturbance_rate").asDouble()).isZero();
    assertThat(j.get("net_benefit").asDouble()).isEqualTo(0.6667);
    assertThat(j.get("with_memory").get("accuracy").asDouble()).isEqualTo(1.0);
    assertThat(j.get("without_memory").get("accuracy").asDouble()).isEqualTo(0.3333);
    long fetched = report.outcomes().stream().filter(o -> !o.fetched().isEmpty()).count();
    assertThat(j.get("fetch_rate").asDouble()).isEqualTo(Math.round(fetched / 3.0 * 1e4) / 1e4);
    long used =
        report.outcomes().stream()
            .filter(o -> !o.fetched().isEmpty() && !o.used().isEmpty())
            .count();
    assertThat(j.get("use_rate").asDouble())
        .isEqualTo(Math.round((double) used / fetched * 1e4) / 1e4);
    assertThat(j.get("precision_at_k").asDouble()).isBetween(0.0, 1.0);
    assertThat(j.get("per_category").has("dev")).isTrue();

    JsonNode cf = j.get("counterfactual");
    assertThat(cf.get("memories_changed").asInt()).isEqualTo(2);
    assertThat(cf.get("relevant_questions").asInt()).isEqualTo(2);
    assertThat(cf.get("sensitivity").asDouble()).isEqualTo(1.0);
    assertThat(cf.get("other_questions").asInt()).isEqualTo(4);
    assertThat(cf.get("stability").asDouble()).isEqualTo(1.0);
    assertThat(report.counterfactuals().get(1).changed())
        .isEqualTo("Maya's dog is called Zanzibar.");

    JsonNode u = j.get("utility");
    assertThat(u.get("records_stored").asInt()).isEqualTo(4);
    assertThat(u.get("records_needed").asInt()).isEqualTo(2);
    List<Double> lost = new ArrayList<>();
    u.get("curve").forEach(p -> lost.add(p.get("answers_lost").asDouble()));
    assertThat(lost).hasSize(11);
    assertThat(lost.get(0)).isZero();
    assertThat(lost.get(5)).as("half the storage is never needed").isZero();
    assertThat(lost.get(10)).isPositive();
    assertThat(lost).isSorted();
    assertThat(report.table()).contains("benefit").contains("counterfactual").contains("utility");
    assertThat(report.queryLines().get(0).has("answer_with")).isTrue();
  }

  @Test
  void run_judgeAlwaysMalformed_marksEveryQuestionAnErrorAndRatesStayEmpty() {
    ScriptedChatModel model =
        new ScriptedChatModel()
            .responder(
                c ->
                    c.system().equals(LlmJudge.RUBRIC)
                        ? "{\"verdict\": 1}"
                        : FakeAnswerModel.answer(c.user()));
    AnswerReport report = evaluator(model, new AnswerEvaluator.Options(0, 0, false)).run(suites());
    assertThat(report.outcomes())
        .hasSize(3)
        .allSatisfy(o -> assertThat(o.error()).contains("invalid twice"));
    ObjectNode j = report.toJson();
    assertThat(j.get("errors").asInt()).isEqualTo(3);
    assertThat(j.get("benefit_rate").isNull()).isTrue();
    assertThat(j.has("utility")).isFalse();
  }

  @Test
  void locomoSuites_carryTheGoldAnswersAndAskAfterTheLastSession() {
    List<LocomoConversation> cs =
        List.of(LocomoLoader.load(LocomoLoaderTest.DIR.resolve("tiny.json")));
    List<AnswerSuite> suites = AnswerSuites.locomo(LocomoLoaderTest.DIR, cs, 5, 300, 100);
    assertThat(suites)
        .singleElement()
        .satisfies(
            s -> {
              assertThat(s.writes()).hasSize(7);
              assertThat(s.cases())
                  .extracting(AnswerCase::gold)
                  .containsExactly("Pixel", "Lisbon; 30 km", "2023", AnswerCase.NOTHING_STORED);
              assertThat(s.cases().get(0).relevant()).containsExactly("D1:1");
              assertThat(s.cases().get(0).request().k()).isEqualTo(5);
              assertThat(s.cases().get(3).category()).isEqualTo("category-5");
            });
    AnswerReport report =
        evaluator(FakeAnswerModel.model(), new AnswerEvaluator.Options(1, 1, true)).run(suites);
    AnswerReport.Outcome kitten = report.outcomes().get(0);
    assertThat(kitten.correctWith()).isTrue();
    assertThat(kitten.correctWithout()).isFalse();
    assertThat(report.toJson().get("per_category").has("category-4")).isTrue();
  }

  @Test
  void changedWrites_changeTheTargetAndItsNeighboursContext() {
    List<dev.mnemo.NewMemory> ws =
        LocomoRunner.memories(LocomoLoader.load(LocomoLoaderTest.DIR.resolve("tiny.json")), true);
    List<dev.mnemo.NewMemory> changed =
        AnswerEvaluator.changedWrites(ws, ws.get(0), "Ana: I adopted a dog.");
    assertThat(changed.get(0).text()).isEqualTo("Ana: I adopted a dog.");
    assertThat(changed.get(1).context()).startsWith("Ana: I adopted a dog.");
    assertThat(changed.get(5)).isEqualTo(ws.get(5));
  }
}

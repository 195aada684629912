package dev.mnemo.eval;

import com.fasterxml.jackson.databind.JsonNode;
import dev.mnemo.NewMemory;
import dev.mnemo.RecallRequest;
import dev.mnemo.json.JsonCodec;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Builds {@link AnswerSuite}s from the two evaluation inputs.
 *
 * <p><b>Scenarios</b> ({@code docs/scenarios.md}): one suite per scenario with its writes; one case
 * per query that has an {@code expect} list (gold = the expected writes' texts, relevant = their
 * ids) or {@code expect_none} (gold = {@link AnswerCase#NOTHING_STORED}); the query's own mode,
 * time, scope, k and budget. Scenario files carry no written answers, so the gold answer is the
 * expected memory itself: the judge decides whether the answer states it; exact match and F1
 * against a whole sentence are low by construction and mean little there.
 *
 * <p><b>LoCoMo</b>: one suite per conversation, its turns as memories exactly as the LoCoMo runner
 * writes them (with neighbour context); one case per question of categories 1-4 that has an {@code
 * answer} in the file (gold = that answer, relevant = its evidence turns) and per category 5
 * question (gold = {@link AnswerCase#NOTHING_STORED}: the question's premise is not in the
 * conversation), asked an hour after the last session with the engine's defaults, at the given k
 * and budget.
 */
public final class AnswerSuites {
  private AnswerSuites() {}

  public static List<AnswerSuite> scenarios(List<Scenario> scenarios) {
    List<AnswerSuite> out = new ArrayList<>();
    for (Scenario s : scenarios) {
      Map<String, String> textById = new HashMap<>();
      for (NewMemory m : s.writes()) textById.put(m.sources().get(0), m.text());
      List<AnswerCase> cases = new ArrayList<>();
      for (ScenarioQuery q : s.queries()) {
        String gold;
        if (q.expectNone()) gold = AnswerCase.NOTHING_STORED;
        else if (!q.expect().isEmpty())
          gold = String.join(" ", q.expect().stream().map(textById::get).toList());
        else continue;
        cases.add(
            new AnswerCase(
                q.id(),
                s.split(),
                ScenarioRunner.request(q).explain(false).build(),
                gold,
                Set.copyOf(q.expect())));
      }
      if (!cases.isEmpty()) out.add(new AnswerSuite(s.id(), s.writes(), cases));
    }
    return out;
  }

  /**
   * @param dir the directory the conversations were loaded from (read again for the gold answers,
   *     which {@link LocomoLoader} leaves out)
   * @param perConversation at most this many questions of each conversation (in file order), for
   *     cost
   */
  public static List<AnswerSuite> locomo(
      Path dir, List<LocomoConversation> conversations, int k, int budget, int perConversation) {
    List<AnswerSuite> out = new ArrayList<>();
    for (LocomoConversation c : conversations) {
      List<String> gold = goldAnswers(dir.resolve(c.name() + ".json"));
      List<AnswerCase> cases = new ArrayList<>();
      for (int i = 0; i < c.questions().size() && cases.size() < perConversation; i++) {
        LocomoConversation.Question q = c.questions().get(i);
        String g =
            q.category() == 5 ? AnswerCase.NOTHING_STORED : i < gold.size() ? gold.get(i) : null;
        if (g == null || g.isBlank() || q.category() < 1 || q.category() > 5) continue;
        RecallRequest req =
            RecallRequest.builder(c.name(), q.text())
                .askedAt(c.lastSessionAt().plus(Duration.ofHours(LocomoRunner.ASK_AFTER_HOURS)))
                .k(k)
                .budgetTokens(budget)
                .build();
        cases.add(
            new AnswerCase(
                "q" + i, "category-" + q.category(), req, g, new LinkedHashSet<>(q.evidence())));
      }
      if (!cases.isEmpty())
        out.add(new AnswerSuite(c.name(), LocomoRunner.memories(c, true), cases));
    }
    return out;
  }

  /**
   * Each {@code qa} entry's {@code answer} as text (numbers and years included), null where it has
   * none.
   */
  static List<String> goldAnswers(Path file) {
    JsonNode root;
    try {
      root = JsonCodec.read(file);
    } catch (IOException e) {
      throw new IllegalArgumentException(file + ": not readable as JSON: " + e.getMessage(), e);
    }
    List<String> out = new ArrayList<>();
    JsonNode qa = root.get("qa");
    if (qa == null || !qa.isArray()) return out;
    for (JsonNode q : qa) {
      JsonNode a = q.get("answer");
      out.add(a == null || a.isNull() || a.isContainerNode() ? null : a.asText());
    }
    return out;
  }
}

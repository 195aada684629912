package dev.mnemo.eval;

import dev.mnemo.Diagnostics;
import dev.mnemo.MemoryRecord;
import dev.mnemo.Mnemo;
import dev.mnemo.RecallRequest;
import dev.mnemo.RecallResult;
import dev.mnemo.Recalled;
import dev.mnemo.TimeFilter;
import dev.mnemo.spi.Eligibility;
import dev.mnemo.text.Words;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * An answer-level proxy that needs no language model: for each question, what each policy injects
 * at one token budget, and whether the gold answer's words are all in it. "Answer in block" is the
 * share of questions whose gold answer (its words of two characters or more, lower case, function
 * words aside) all appear in the texts selected; "irrelevant tokens" are the tokens of selected
 * records that are not evidence. A crude reading (a date written differently does not match, for
 * every policy alike), but it says at equal cost how often the answer reached the prompt and what
 * else came with it.
 *
 * <p>Arms: {@code none}; {@code recent} (newest eligible records); {@code keyword} (BM25 alone, any
 * match); {@code full-no-gate} (the read path with the gate off); {@code gate-loose}, {@code gate}
 * (the model's default) and {@code gate-strict}: the read path with the gate at 0.2, its default
 * and 0.65. Every arm at most 50 records within the budget.
 */
public final class AnswerProxy {
  private AnswerProxy() {}

  static final int K = 50;
  static final List<String> ARMS =
      List.of("none", "recent", "keyword", "full-no-gate", "gate-loose", "gate", "gate-strict");

  /** One question's outcome under one arm. */
  public record Outcome(
      String dataset,
      String question,
      boolean abstention,
      String arm,
      boolean answerInBlock,
      int tokens,
      int irrelevantTokens,
      boolean fetched) {}

  /** The totals of one arm over a set of questions. */
  public record Summary(
      String arm,
      int questions,
      double answerInBlock,
      double tokens,
      double irrelevantTokens,
      double fetchRate) {}

  public static List<Outcome> locomo(
      Function<Path, Mnemo> engines,
      List<LocomoConversation> conversations,
      int budget,
      Consumer<String> progress) {
    List<Outcome> out = new ArrayList<>();
    for (LocomoConversation c : conversations) {
      Path dir = TempDirs.create("mnemo-answer-proxy-", "conversation " + c.name());
      try (Mnemo mnemo = engines.apply(dir)) {
        mnemo.rememberAll(LocomoRunner.memories(c, true));
        for (LocomoConversation.Question q : c.questions()) {
          if (q.category() < 1 || q.category() > 4 || q.answer() == null || q.answer().isBlank())
            continue;
          Instant asked =
              c.lastSessionAt().plus(java.time.Duration.ofHours(LocomoRunner.ASK_AFTER_HOURS));
          ask(
              mnemo,
              "locomo",
              c.name(),
              q.text(),
              q.answer(),
              asked,
              Set.copyOf(q.evidence()),
              false,
              budget,
              out);
        }
        progress.accept("answer proxy: locomo " + c.name());
      } finally {
        TempDirs.delete(dir);
      }
    }
    return out;
  }

  public static List<Outcome> longMemEval(
      Function<Path, Mnemo> engines,
      List<LongMemEvalQuestion> questions,
      int budget,
      Consumer<String> progress) {
    List<Outcome> out = new ArrayList<>();
    int i = 0;
    for (LongMemEvalQuestion q : questions) {
      Path dir = TempDirs.create("mnemo-answer-proxy-", "question " + q.id());
      try (Mnemo mnemo = engines.apply(dir)) {
        mnemo.rememberAll(LongMemEvalRunner.memories(q, true));
        ask(
            mnemo,
            "longmemeval",
            q.id(),
            q.question(),
            q.answer(),
            LongMemEvalRunner.askedAt(q),
            Set.copyOf(q.evidenceTurnIds()),
            q.abstention(),
            budget,
            out);
        progress.accept("answer proxy: longmemeval " + (++i) + "/" + questions.size());
      } finally {
        TempDirs.delete(dir);
      }
    }
    return out;
  }

  private static void ask(
      Mnemo mnemo,
      String dataset,
      String owner,
      String question,
      String answer,
      Instant asked,
      Set<String> evidence,
      boolean abstention,
      int budget,
      List<Outcome> out) {
    Set<String> answerWords = answerWords(answer);
    for (String arm : ARMS) {
      List<MemoryRecord> chosen = new ArrayList<>();
      List<Integer> tokens = new ArrayList<>();
      if (arm.equals("recent")) {
        Diagnostics e =
            mnemo
                .diagnostics()
                .orElseThrow(
                    () ->
                        new IllegalStateException(
                            "arm recent reads the store directly and needs the built-in engine (Mnemo.builder())"));
        Instant t = asked.truncatedTo(ChronoUnit.MILLIS);
        int used = 0;
        for (MemoryRecord r :
            e.store().latest(new Eligibility(owner, null, Set.of(), Map.of(), t, t, null), 200)) {
          if (chosen.size() >= K) break;
          int n = e.tokenizer().count(r.text());
          if (used + n > budget) continue;
          used += n;
          chosen.add(r);
          tokens.add(n);
        }
      } else if (!arm.equals("none")) {
        RecallRequest.Builder b =
            RecallRequest.builder(owner, question).askedAt(asked).k(K).budgetTokens(budget);
        switch (arm) {
          case "keyword" ->
              b.weights(ScenarioRunner.KEYWORD_WEIGHTS)
                  .threshold(ScenarioRunner.ANY_MATCH)
                  .relativeThreshold(0)
                  .minRelevance(0.0)
                  .timeFilter(TimeFilter.OFF);
          case "full-no-gate" -> b.minRelevance(0.0);
          case "gate-loose" -> b.minRelevance(0.2);
          case "gate-strict" -> b.minRelevance(0.65);
          default -> {}
        }
        RecallResult r = mnemo.recall(b.build());
        for (Recalled x : r.selected()) {
          chosen.add(x.record());
          tokens.add(x.tokens());
        }
      }
      StringBuilder block = new StringBuilder();
      int total = 0;
      int irrelevant = 0;
      for (int i = 0; i < chosen.size(); i++) {
        block.append(' ').append(chosen.get(i).text());
        total += tokens.get(i);
        if (chosen.get(i).sources().stream().noneMatch(evidence::contains))
          irrelevant += tokens.get(i);
      }
      Set<String> blockWords = new HashSet<>(Words.words(block.toString()));
      boolean found = !answerWords.isEmpty() && blockWords.containsAll(answerWords);
      out.add(
          new Outcome(
              dataset,
              owner + "/" + question,
              abstention,
              arm,
              found,
              total,
              irrelevant,
              !chosen.isEmpty()));
    }
  }

  /** The words of an answer that must appear: two characters or more, function words aside. */
  static Set<String> answerWords(String answer) {
    Set<String> out = new HashSet<>();
    if (answer == null) return out;
    for (String w : Words.words(answer))
      if (w.length() >= 2 && !Words.FUNCTION.contains(w)) out.add(w);
    return out;
  }

  /**
   * Per arm, over the outcomes matching {@code abstention} (abstention questions are reported
   * apart).
   */
  public static Map<String, Summary> summarize(List<Outcome> outcomes, boolean abstention) {
    Map<String, Summary> out = new LinkedHashMap<>();
    for (String arm : ARMS) {
      List<Outcome> xs =
          outcomes.stream()
              .filter(o -> o.arm().equals(arm) && o.abstention() == abstention)
              .toList();
      if (xs.isEmpty()) continue;
      out.put(
          arm,
          new Summary(
              arm,
              xs.size(),
              xs.stream().filter(Outcome::answerInBlock).count() / (double) xs.size(),
              xs.stream().mapToInt(Outcome::tokens).average().orElse(0),
              xs.stream().mapToInt(Outcome::irrelevantTokens).average().orElse(0),
              xs.stream().filter(Outcome::fetched).count() / (double) xs.size()));
    }
    return out;
  }

  /** {dataset: {"questions" or "abstention": {arm: summary}}} as JSON. */
  public static com.fasterxml.jackson.databind.node.ObjectNode json(List<Outcome> outcomes) {
    var o = dev.mnemo.json.JsonCodec.object();
    for (String ds : outcomes.stream().map(Outcome::dataset).distinct().toList()) {
      var d = o.putObject(ds);
      List<Outcome> mine = outcomes.stream().filter(x -> x.dataset().equals(ds)).toList();
      for (boolean abs : new boolean[] {false, true}) {
        Map<String, Summary> m = summarize(mine, abs);
        if (m.isEmpty()) continue;
        var part = d.putObject(abs ? "abstention" : "questions");
        m.values()
            .forEach(
                s ->
                    part.putObject(s.arm())
                        .put("questions", s.questions())
                        .put("answer_in_block", Math.round(s.answerInBlock() * 1e4) / 1e4)
                        .put("tokens", Math.round(s.tokens() * 10) / 10.0)
                        .put("irrelevant_tokens", Math.round(s.irrelevantTokens() * 10) / 10.0)
                        .put("fetch_rate", Math.round(s.fetchRate() * 1e4) / 1e4));
      }
    }
    return o;
  }

  public static String table(List<Outcome> outcomes, int budget) {
    StringBuilder sb = new StringBuilder();
    for (String ds : outcomes.stream().map(Outcome::dataset).distinct().toList()) {
      List<Outcome> mine = outcomes.stream().filter(o -> o.dataset().equals(ds)).toList();
      for (boolean abs : new boolean[] {false, true}) {
        Map<String, Summary> m = summarize(mine, abs);
        if (m.isEmpty()) continue;
        sb.append(
            String.format(
                Locale.ROOT,
                "%n%s%s, budget %d tokens%n%-13s %9s %14s %8s %10s %10s%n",
                ds,
                abs ? " abstention questions (_abs)" : "",
                budget,
                "arm",
                "questions",
                "answer in block",
                "tokens",
                "irrelevant",
                "fetch rate"));
        m.values()
            .forEach(
                s ->
                    sb.append(
                        String.format(
                            Locale.ROOT,
                            "%-13s %9d %14.3f %8.1f %10.1f %10.3f%n",
                            s.arm(),
                            s.questions(),
                            s.answerInBlock(),
                            s.tokens(),
                            s.irrelevantTokens(),
                            s.fetchRate())));
      }
    }
    return sb.toString();
  }
}

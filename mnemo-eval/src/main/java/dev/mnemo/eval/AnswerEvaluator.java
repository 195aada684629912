package dev.mnemo.eval;

import dev.mnemo.Category;
import dev.mnemo.MemoryRecord;
import dev.mnemo.Mnemo;
import dev.mnemo.NewMemory;
import dev.mnemo.RecallResult;
import dev.mnemo.Recalled;
import dev.mnemo.llm.LlmAnswerer;
import dev.mnemo.llm.LlmCounterfactual;
import dev.mnemo.llm.LlmException;
import dev.mnemo.llm.LlmJudge;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The answer-level evaluation: does memory make a language model's answers better?
 *
 * <p>For each question of each {@link AnswerSuite} (its writes in one fresh store): recall with the
 * case's request; answer once without memories and once with the recalled ones (same answerer,
 * model, settings; only the memories differ); judge both against the gold answer with the fixed
 * rubric ({@link LlmJudge}; an answer that normalizes to one already judged for the question keeps
 * that verdict) and score exact match and token F1 ({@link AnswerScores}). The answerer cites the
 * memories it drew on, which gives the use rate.
 *
 * <p><b>Utility</b> (leave-one-out): for each question answered correctly with memory, each
 * recalled record is left out in turn and the question answered and judged again; a record whose
 * absence makes the answer wrong was needed. {@link AnswerReport} turns this into a
 * storage-reduction vs answers-lost curve. Leave-one-out misses redundancy (two records that each
 * suffice are both "not needed"), so the curve is optimistic where facts are stored twice.
 *
 * <p><b>Counterfactual check</b>: per suite, up to {@code counterfactualTargets} memories that
 * questions are about are changed by the model ({@link LlmCounterfactual}: the same statement with
 * another value); the history is written again with the changed memory (neighbours' context updated
 * too) and the questions about it, plus up to {@code counterfactualOthers} questions about other
 * memories, answered again with memory. The answer should change where the memory is relevant and
 * stay the same elsewhere; "the same" is equality of the normalized answer text, which assumes a
 * deterministic model (temperature 0).
 *
 * <p>A language-model failure (after the retries) on one question is recorded on that question as
 * an error and the run goes on; such questions are left out of every rate and counted. Not
 * thread-safe.
 */
public final class AnswerEvaluator {

  /**
   * @param counterfactualTargets memories changed per suite (0: no counterfactual check)
   * @param counterfactualOthers unrelated questions re-asked per changed memory
   * @param utility whether to measure leave-one-out utility
   */
  public record Options(int counterfactualTargets, int counterfactualOthers, boolean utility) {
    public static final Options DEFAULT = new Options(2, 3, true);

    public Options {
      if (counterfactualTargets < 0)
        throw new IllegalArgumentException(
            "counterfactual targets must be >= 0, was " + counterfactualTargets);
      if (counterfactualOthers < 0)
        throw new IllegalArgumentException(
            "counterfactual others must be >= 0, was " + counterfactualOthers);
    }
  }

  private final Function<Path, Mnemo> engines;
  private final LlmAnswerer answerer;
  private final LlmJudge judge;
  private final LlmCounterfactual counterfactual;
  private final Options options;
  private final Consumer<String> progress;

  public AnswerEvaluator(
      Function<Path, Mnemo> engines,
      LlmAnswerer answerer,
      LlmJudge judge,
      LlmCounterfactual counterfactual,
      Options options,
      Consumer<String> progress) {
    this.engines = Objects.requireNonNull(engines, "engines");
    this.answerer = Objects.requireNonNull(answerer, "answerer");
    this.judge = Objects.requireNonNull(judge, "judge");
    this.counterfactual = Objects.requireNonNull(counterfactual, "counterfactual");
    this.options = Objects.requireNonNull(options, "options");
    this.progress = progress == null ? s -> {} : progress;
  }

  public AnswerReport run(List<AnswerSuite> suites) {
    List<AnswerReport.Outcome> outcomes = new ArrayList<>();
    List<AnswerReport.Counterfactual> counterfactuals = new ArrayList<>();
    int stored = 0;
    for (AnswerSuite suite : suites) {
      stored += suite.writes().size();
      List<AnswerReport.Outcome> mine = new ArrayList<>();
      Path dir = TempDirs.create("mnemo-answers-", "suite " + suite.id());
      try (Mnemo mnemo = engines.apply(dir)) {
        if (!suite.writes().isEmpty()) mnemo.rememberAll(suite.writes());
        for (int i = 0; i < suite.cases().size(); i++) {
          progress.accept(suite.id() + ": question " + (i + 1) + "/" + suite.cases().size());
          mine.add(ask(mnemo, suite, suite.cases().get(i)));
        }
      } finally {
        TempDirs.delete(dir);
      }
      outcomes.addAll(mine);
      if (options.counterfactualTargets() > 0) counterfactuals.addAll(counterfactuals(suite, mine));
    }
    return new AnswerReport(outcomes, counterfactuals, stored, options.utility());
  }

  private AnswerReport.Outcome ask(Mnemo mnemo, AnswerSuite suite, AnswerCase c) {
    RecallResult res = mnemo.recall(c.request());
    List<MemoryRecord> fetched = res.selected().stream().map(Recalled::record).toList();
    List<String> lines = fetched.stream().map(AnswerEvaluator::line).toList();
    int relevantFetched =
        (int)
            fetched.stream()
                .filter(r -> r.sources().stream().anyMatch(c.relevant()::contains))
                .count();
    List<String> ids = fetched.stream().map(MemoryRecord::id).toList();
    try {
      LlmAnswerer.Answer without = answerer.answer(c.question(), c.request().askedAt(), List.of());
      LlmAnswerer.Answer with = answerer.answer(c.question(), c.request().askedAt(), lines);
      // One verdict per distinct (normalized) answer of a question: the judge runs at temperature
      // 0, and
      // "I don't know" or the same answer with and without memory need not be judged twice.
      Map<List<String>, LlmJudge.Verdict> verdicts = new HashMap<>();
      Function<String, LlmJudge.Verdict> judged =
          a ->
              verdicts.computeIfAbsent(
                  AnswerScores.tokens(a), k -> judge.judge(c.question(), c.gold(), a));
      LlmJudge.Verdict vWithout = judged.apply(without.answer());
      LlmJudge.Verdict vWith = judged.apply(with.answer());
      List<String> needed = null;
      if (options.utility() && vWith.correct() && !lines.isEmpty()) {
        needed = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
          List<String> rest = new ArrayList<>(lines);
          rest.remove(i);
          LlmAnswerer.Answer a = answerer.answer(c.question(), c.request().askedAt(), rest);
          if (!judged.apply(a.answer()).correct()) needed.add(ids.get(i));
        }
      }
      return new AnswerReport.Outcome(
          suite.id(),
          c.id(),
          c.category(),
          c.question(),
          c.gold(),
          ids,
          relevantFetched,
          !c.relevant().isEmpty(),
          without.answer(),
          with.answer(),
          with.used(),
          vWithout.correct(),
          vWith.correct(),
          vWith.reason(),
          AnswerScores.exactMatch(without.answer(), c.gold()),
          AnswerScores.exactMatch(with.answer(), c.gold()),
          AnswerScores.f1(without.answer(), c.gold()),
          AnswerScores.f1(with.answer(), c.gold()),
          needed,
          null);
    } catch (LlmException e) {
      return AnswerReport.Outcome.failed(
          suite.id(),
          c.id(),
          c.category(),
          c.question(),
          c.gold(),
          ids,
          relevantFetched,
          !c.relevant().isEmpty(),
          e.getMessage());
    }
  }

  /** A memory as the answerer sees it: dated like the engine's rendered block. */
  static String line(MemoryRecord r) {
    if (r.validFrom() == null) return r.text();
    LocalDate from = LocalDate.ofInstant(r.validFrom(), ZoneOffset.UTC);
    String when =
        r.validTo() != null
            ? from + " to " + LocalDate.ofInstant(r.validTo(), ZoneOffset.UTC)
            : r.category() == Category.EPISODIC ? from.toString() : "since " + from;
    return "[" + when + "] " + r.text();
  }

  private List<AnswerReport.Counterfactual> counterfactuals(
      AnswerSuite suite, List<AnswerReport.Outcome> outcomes) {
    Set<String> targets = new LinkedHashSet<>();
    for (AnswerCase c : suite.cases()) {
      for (String id : c.relevant()) {
        if (targets.size() < options.counterfactualTargets() && writeIndex(suite, id) >= 0)
          targets.add(id);
      }
    }
    List<AnswerReport.Counterfactual> out = new ArrayList<>();
    for (String target : targets) {
      NewMemory original = suite.writes().get(writeIndex(suite, target));
      progress.accept(suite.id() + ": counterfactual of " + target);
      String changed;
      try {
        changed = counterfactual.change(original.text());
      } catch (LlmException e) {
        out.add(
            new AnswerReport.Counterfactual(
                suite.id(), target, original.text(), null, List.of(), e.getMessage()));
        continue;
      }
      List<AnswerReport.Check> checks = new ArrayList<>();
      String error = null;
      Path dir = TempDirs.create("mnemo-counterfactual-", "suite " + suite.id());
      try (Mnemo mnemo = engines.apply(dir)) {
        mnemo.rememberAll(changedWrites(suite.writes(), original, changed));
        int others = 0;
        for (int i = 0; i < suite.cases().size(); i++) {
          AnswerCase c = suite.cases().get(i);
          AnswerReport.Outcome before = outcomes.get(i);
          boolean relevant = c.relevant().contains(target);
          if (before.error() != null || (!relevant && others >= options.counterfactualOthers()))
            continue;
          if (!relevant) others++;
          List<String> lines =
              mnemo.recall(c.request()).selected().stream().map(r -> line(r.record())).toList();
          String after = answerer.answer(c.question(), c.request().askedAt(), lines).answer();
          boolean same =
              AnswerScores.tokens(after).equals(AnswerScores.tokens(before.answerWith()));
          checks.add(new AnswerReport.Check(c.id(), relevant, before.answerWith(), after, !same));
        }
      } catch (LlmException e) {
        error = e.getMessage();
      } finally {
        TempDirs.delete(dir);
      }
      out.add(
          new AnswerReport.Counterfactual(
              suite.id(), target, original.text(), changed, checks, error));
    }
    return out;
  }

  private static int writeIndex(AnswerSuite suite, String sourceId) {
    for (int i = 0; i < suite.writes().size(); i++) {
      List<String> s = suite.writes().get(i).sources();
      if (!s.isEmpty() && s.get(0).equals(sourceId)) return i;
    }
    return -1;
  }

  /**
   * The writes with {@code original}'s text changed, and that text changed in every other write's
   * context too.
   */
  static List<NewMemory> changedWrites(List<NewMemory> writes, NewMemory original, String changed) {
    List<NewMemory> out = new ArrayList<>(writes.size());
    for (NewMemory m : writes) {
      String text = m == original ? changed : m.text();
      String context = m.context() == null ? null : m.context().replace(original.text(), changed);
      out.add(
          new NewMemory(
              m.owner(),
              text,
              m.scope(),
              m.category(),
              context,
              m.sources(),
              m.episode(),
              m.seq(),
              m.recordedAt(),
              m.validFrom(),
              m.validTo(),
              m.factKey(),
              m.importance(),
              m.authority(),
              m.conflictPolicy(),
              m.entities(),
              m.metadata(),
              m.lowerAuthority(),
              m.access()));
    }
    return out;
  }
}

package dev.mnemo.eval;

import dev.mnemo.Mnemo;
import dev.mnemo.NewMemory;
import dev.mnemo.RecallResult;
import dev.mnemo.eval.LocomoConversation.Question;
import dev.mnemo.llm.QueryRewriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

/**
 * Ablations in one run at the same budget: every {@link Ablation} of the read path over the same
 * stores and questions.
 *
 * <p>Scenarios go through {@link ScenarioRunner}'s machinery (one fresh engine per scenario, writes
 * once, every query under every variant at the query's own k and budget, the same timing and
 * metrics as the policies). LoCoMo conversations are indexed as {@link LocomoRunner} indexes them
 * and asked as it asks (after the last session, thresholds off, k = kMax, a budget that never
 * binds), so what differs is the ranking alone; the threshold variants, which would equal {@code
 * full} there, are left out. Not thread-safe: run one at a time.
 */
public final class AblationRunner {

  private final Function<Path, Mnemo> engines;
  private final List<Ablation> variants;

  private final QueryRewriter rewriter;

  /** A runner of every variant that needs no language model. */
  public AblationRunner(Function<Path, Mnemo> engines) {
    this(engines, Ablation.available(false));
  }

  /** A runner of these variants, none of which may need a language model. */
  public AblationRunner(Function<Path, Mnemo> engines, List<Ablation> variants) {
    this(engines, variants, null);
  }

  /**
   * @param engines opens a fresh engine on an empty directory; the runner closes it and deletes the
   *     directory afterwards
   * @param variants the variants, in table order
   * @param rewriter the query rewriter of {@code noisy+rewriter}, or null when no model is
   *     configured
   * @throws IllegalArgumentException when a variant needs a rewriter and none is given
   */
  public AblationRunner(
      Function<Path, Mnemo> engines, List<Ablation> variants, QueryRewriter rewriter) {
    this.engines = Objects.requireNonNull(engines, "engines");
    this.variants = List.copyOf(variants);
    if (this.variants.isEmpty()) throw new IllegalArgumentException("variants must not be empty");
    this.rewriter = rewriter;
    for (Ablation a : this.variants) {
      if (a.needsModel() && rewriter == null) {
        throw new IllegalArgumentException(
            a.code()
                + " needs a language model for its query rewriter: configure one "
                + "(--llm-model or $MNEMO_LLM_MODEL, docs/llm.md) or leave the variant out");
      }
    }
  }

  /**
   * Reads every scenario file first (a malformed line fails before anything runs), then runs them.
   */
  public AblationReport run(List<Path> files) {
    return runScenarios(ScenarioReader.read(files));
  }

  /** Runs these scenarios under every variant. */
  public AblationReport runScenarios(List<Scenario> scenarios) {
    List<ScenarioRunner.Arm> arms = new ArrayList<>();
    for (Ablation a : variants) {
      arms.add(
          new ScenarioRunner.Arm(
              a.code(),
              Policy.FULL,
              (mnemo, q) ->
                  ScenarioRunner.recall(
                      mnemo, a.apply(ScenarioRunner.request(q), rewriter).build())));
    }
    ScenarioRunner runner = new ScenarioRunner(engines, List.of(Policy.FULL));
    Map<Ablation, List<QueryResult>> out = new EnumMap<>(Ablation.class);
    for (Ablation a : variants) out.put(a, new ArrayList<>());
    for (Scenario s : scenarios) {
      for (ScenarioRunner.ArmResult r : runner.runArms(s, arms))
        out.get(Ablation.fromCode(r.arm())).add(r.result());
    }
    return new AblationReport(out);
  }

  /**
   * Evidence recall of every variant that changes the ranking over LoCoMo conversations, one fresh
   * engine per conversation.
   *
   * @param neighbourContext whether turns are indexed with their neighbours as context
   * @param kMax records retrieved per question, 1..1000
   */
  public LocomoAblationReport locomo(
      List<LocomoConversation> conversations, boolean neighbourContext, int kMax) {
    new LocomoRunner(engines, neighbourContext, kMax); // validates kMax with LocomoRunner's message
    List<Ablation> ranking = variants.stream().filter(Ablation::changesRanking).toList();
    Map<Ablation, List<LocomoReport.Answer>> out = new EnumMap<>(Ablation.class);
    for (Ablation a : ranking) out.put(a, new ArrayList<>());
    for (LocomoConversation c : conversations) {
      Path dir = TempDirs.create("mnemo-locomo-", "conversation " + c.name());
      try (Mnemo mnemo = engines.apply(dir)) {
        List<NewMemory> memories = LocomoRunner.memories(c, neighbourContext);
        mnemo.rememberAll(memories);
        for (int qi = 0; qi < c.questions().size(); qi++) {
          Question q = c.questions().get(qi);
          if (q.category() < 1 || q.category() > 4 || q.evidence().isEmpty()) continue;
          for (Ablation a : ranking) {
            long t0 = System.nanoTime();
            RecallResult res =
                mnemo.recall(a.apply(LocomoRunner.request(c, q, kMax), rewriter).build());
            double ms = (System.nanoTime() - t0) / 1e6;
            out.get(a)
                .add(
                    new LocomoReport.Answer(
                        c.name(),
                        qi,
                        q.category(),
                        LocomoRunner.Ranking.FULL,
                        q.evidence(),
                        res.sourceIds(),
                        ms,
                        Double.NaN,
                        Double.NaN));
          }
        }
      } finally {
        TempDirs.delete(dir);
      }
    }
    return new LocomoAblationReport(
        neighbourContext, kMax, conversations.stream().map(LocomoConversation::name).toList(), out);
  }
}

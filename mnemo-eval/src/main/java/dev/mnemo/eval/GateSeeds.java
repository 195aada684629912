package dev.mnemo.eval;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mnemo.Mnemo;
import dev.mnemo.json.JsonCodec;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;

/**
 * The fetch gate measured over several generator seeds: for each seed, dev and held-out histories
 * are generated, then every policy ({@code none, recent, keyword, full}) and the gate's operating
 * points ({@code full-no-gate}, {@code gate-loose}, {@code gate-strict}) run on them; the metrics
 * are reported per split and arm, and per kind of question for {@code full}, as the mean over seeds
 * with the lowest and highest value.
 */
public final class GateSeeds {
  private GateSeeds() {}

  static final List<Policy> POLICIES =
      List.of(Policy.NONE, Policy.RECENT, Policy.KEYWORD, Policy.FULL);
  static final List<Ablation> VARIANTS =
      List.of(Ablation.NO_GATE, Ablation.GATE_LOOSE, Ablation.GATE_STRICT);

  /**
   * Metrics of every seed, by split and arm ({@code policy or variant}), and by split and kind for
   * full.
   */
  public record Result(
      List<Long> seeds,
      Map<String, Map<String, List<PolicyMetrics>>> byArm,
      Map<String, Map<String, List<PolicyMetrics>>> byKind) {}

  public static Result run(
      Function<Path, Mnemo> engines,
      List<Long> seeds,
      int dev,
      int heldout,
      Consumer<String> progress) {
    Map<String, Map<String, List<PolicyMetrics>>> byArm = new TreeMap<>();
    Map<String, Map<String, List<PolicyMetrics>>> byKind = new TreeMap<>();
    for (long seed : seeds) {
      Path dir = TempDirs.create("mnemo-gate-seeds-", "seed " + seed);
      try {
        List<Path> files = new HistoryGenerator(seed).write(dir, dev, heldout);
        ScenarioReport policies = new ScenarioRunner(engines, POLICIES).run(files);
        policies
            .metrics()
            .forEach((split, m) -> m.forEach((p, pm) -> add(byArm, split, p.code(), pm)));
        policies
            .byKind(Policy.FULL)
            .forEach((split, m) -> m.forEach((k, pm) -> add(byKind, split, k, pm)));
        AblationReport variants = new AblationRunner(engines, VARIANTS).run(files);
        variants
            .metrics()
            .forEach((split, m) -> m.forEach((v, pm) -> add(byArm, split, v.code(), pm)));
        progress.accept("seed " + seed + " done");
      } finally {
        TempDirs.delete(dir);
      }
    }
    return new Result(List.copyOf(seeds), byArm, byKind);
  }

  private static void add(
      Map<String, Map<String, List<PolicyMetrics>>> m, String split, String arm, PolicyMetrics pm) {
    m.computeIfAbsent(split, k -> new LinkedHashMap<>())
        .computeIfAbsent(arm, k -> new ArrayList<>())
        .add(pm);
  }

  /** Mean over seeds with min-max, e.g. {@code 0.512 (0.48-0.55)}; NaN values left out. */
  static String stat(List<PolicyMetrics> ms, ToDoubleFunction<PolicyMetrics> f, String fmt) {
    double[] v = ms.stream().mapToDouble(f).filter(x -> !Double.isNaN(x)).toArray();
    if (v.length == 0) return "-";
    double mean = java.util.Arrays.stream(v).average().orElse(Double.NaN);
    double lo = java.util.Arrays.stream(v).min().orElse(Double.NaN);
    double hi = java.util.Arrays.stream(v).max().orElse(Double.NaN);
    return String.format(Locale.ROOT, fmt + " (" + fmt + "-" + fmt + ")", mean, lo, hi);
  }

  public static String table(Result r) {
    StringBuilder sb = new StringBuilder();
    sb.append("seeds ").append(r.seeds()).append(": mean over seeds (lowest-highest)\n");
    r.byArm()
        .forEach(
            (split, arms) -> {
              sb.append(
                  String.format(
                      Locale.ROOT,
                      "%nsplit %s%n%-14s %-22s %-22s %-22s %-22s %-20s %-20s%n",
                      split,
                      "arm",
                      "recall",
                      "precision",
                      "abstention",
                      "fetch rate",
                      "tokens",
                      "irrelevant tokens"));
              arms.forEach(
                  (arm, ms) ->
                      sb.append(
                          String.format(
                              Locale.ROOT,
                              "%-14s %-22s %-22s %-22s %-22s %-20s %-20s%n",
                              arm,
                              stat(ms, PolicyMetrics::recall, "%.3f"),
                              stat(ms, PolicyMetrics::precision, "%.3f"),
                              stat(ms, PolicyMetrics::abstention, "%.3f"),
                              stat(ms, PolicyMetrics::fetchRate, "%.3f"),
                              stat(ms, PolicyMetrics::meanTokens, "%.1f"),
                              stat(ms, PolicyMetrics::irrelevantTokens, "%.1f"))));
            });
    r.byKind()
        .forEach(
            (split, kinds) -> {
              sb.append(
                  String.format(
                      Locale.ROOT,
                      "%nfull by kind of question, split %s%n%-10s %-22s %-22s %-22s %-20s%n",
                      split,
                      "kind",
                      "recall",
                      "precision",
                      "abstention",
                      "irrelevant tokens"));
              kinds.forEach(
                  (kind, ms) ->
                      sb.append(
                          String.format(
                              Locale.ROOT,
                              "%-10s %-22s %-22s %-22s %-20s%n",
                              kind,
                              stat(ms, PolicyMetrics::recall, "%.3f"),
                              stat(ms, PolicyMetrics::precision, "%.3f"),
                              stat(ms, PolicyMetrics::abstention, "%.3f"),
                              stat(ms, PolicyMetrics::irrelevantTokens, "%.1f"))));
            });
    return sb.toString();
  }

  /**
   * Every seed's metrics as JSON: {split: {arm: [metrics per seed]}}, and by_kind the same for
   * full.
   */
  public static ObjectNode json(Result r) {
    ObjectNode o = JsonCodec.object();
    r.seeds().forEach(o.putArray("seeds")::add);
    ObjectNode arms = o.putObject("by_arm");
    r.byArm()
        .forEach(
            (split, m) -> {
              ObjectNode s = arms.putObject(split);
              m.forEach((arm, ms) -> ms.forEach(pm -> s.withArray(arm).add(pm.toJson())));
            });
    ObjectNode kinds = o.putObject("by_kind");
    r.byKind()
        .forEach(
            (split, m) -> {
              ObjectNode s = kinds.putObject(split);
              m.forEach((k, ms) -> ms.forEach(pm -> s.withArray(k).add(pm.toJson())));
            });
    return o;
  }
}

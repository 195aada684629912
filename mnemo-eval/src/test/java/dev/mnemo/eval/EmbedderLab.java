package dev.mnemo.eval;

import dev.mnemo.NewMemory;
import dev.mnemo.embed.OnnxEmbedder;
import dev.mnemo.embed.OnnxModel;
import dev.mnemo.eval.LocomoConversation.Question;
import dev.mnemo.text.Words;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * A development tool, not a test: compares the local embedders ({@link OnnxModel}) by cosine alone
 * on the dev splits ({@link DenseSeparation}: evidence recall@10, AUC and lead of the evidence over
 * the owner's other records, z-score of the best cosine on questions with nothing to find) and
 * times them. Each record's vector is its text as the write path embeds it (fact key words + text);
 * a turn split into pieces scores its best piece, so recall is turn-level. bge is measured twice:
 * with its retrieval instruction before the query and without (the query embedded as a passage).
 *
 * <p>Data: LoCoMo dev (every conversation of a directory, categories 1-4 with evidence), the first
 * {@code LIMIT} LongMemEval dev questions in {@link LongMemEvalLoader#firstByType} order, and the
 * history generator's dev split (seed 42, {@link HistoryGenerator#DEFAULT_DEV} histories; never the
 * held-out split). Run: {@code java -cp <test classpath> dev.mnemo.eval.EmbedderLab LOCOMO_DIR
 * LONGMEMEVAL_FILE LIMIT [model id ...]}; prints markdown tables.
 */
public final class EmbedderLab {
  private EmbedderLab() {}

  /** A set of records of one owner and the questions asked of them. */
  private record Unit(String dataset, List<String> texts, List<String> sources, List<Ask> asks) {}

  /** One question: which records it may see (null: all), what answers it. */
  private record Ask(
      String text, String kind, boolean expectNone, Set<String> evidence, boolean[] visible) {}

  /** One question's cosines over the owner's sources, and which of them are evidence. */
  private record Scored(DenseSeparation.Question question, double[] cosines, boolean[] evidence) {}

  private record Variant(OnnxModel model, boolean instruction) {
    String label() {
      return model.id() + (instruction ? "" : " (no query instruction)");
    }
  }

  public static void main(String[] args) throws Exception {
    List<Unit> units = new ArrayList<>();
    units.addAll(locomo(Path.of(args[0])));
    units.addAll(longMemEval(Path.of(args[1]), Integer.parseInt(args[2])));
    units.addAll(generated());
    List<OnnxModel> models = new ArrayList<>();
    for (int i = 3; i < args.length; i++) {
      OnnxModel m = OnnxModel.byId(args[i]);
      if (m == null) throw new IllegalArgumentException("unknown model " + args[i]);
      models.add(m);
    }
    if (models.isEmpty()) models.addAll(List.of(OnnxModel.values()));
    Map<String, Map<String, List<Scored>>> scored = new LinkedHashMap<>();
    Map<String, List<String>> timings = new LinkedHashMap<>();
    for (OnnxModel model : models) {
      List<Variant> variants = new ArrayList<>(List.of(new Variant(model, true)));
      if (!model.queryPrefix().isEmpty() && model.passagePrefix().isEmpty()) {
        variants.add(new Variant(model, false));
      }
      Map<String, long[]> time = new LinkedHashMap<>(); // dataset -> passages, ns, queries, ns
      try (OnnxEmbedder embedder = new OnnxEmbedder(model)) {
        embedder.embedQuery("warm up");
        for (Unit u : units) {
          long[] t = time.computeIfAbsent(u.dataset(), d -> new long[4]);
          long start = System.nanoTime();
          List<float[]> passages = embedder.embedPassages(u.texts());
          t[0] += passages.size();
          t[1] += System.nanoTime() - start;
          for (Ask a : u.asks()) {
            for (Variant v : variants) {
              long qStart = System.nanoTime();
              float[] q =
                  v.instruction()
                      ? embedder.embedQuery(a.text())
                      : embedder.embedPassages(List.of(a.text())).get(0);
              if (v.instruction()) {
                t[2]++;
                t[3] += System.nanoTime() - qStart;
              }
              scored
                  .computeIfAbsent(u.dataset(), d -> new LinkedHashMap<>())
                  .computeIfAbsent(v.label(), l -> new ArrayList<>())
                  .add(measure(u, a, passages, q));
            }
          }
          System.err.printf(
              Locale.ROOT, "%s %s: %d records%n", model.id(), u.dataset(), u.texts().size());
        }
      }
      time.forEach(
          (dataset, t) ->
              timings
                  .computeIfAbsent(dataset, d -> new ArrayList<>())
                  .add(
                      String.format(
                          Locale.ROOT,
                          "| %s | %.2f | %.1f | %d | %.1f |",
                          model.id(),
                          t[3] / 1e6 / t[2],
                          t[1] / 1e6 / t[0],
                          t[0],
                          t[0] / (t[1] / 1e9))));
    }
    Map<String, Map<String, List<DenseSeparation.Question>>> results = new LinkedHashMap<>();
    scored.forEach(
        (dataset, byVariant) -> {
          Map<String, List<DenseSeparation.Question>> mine = new LinkedHashMap<>();
          byVariant.forEach(
              (label, list) -> mine.put(label, list.stream().map(Scored::question).toList()));
          List<Scored> e5 = byVariant.get(OnnxModel.E5_SMALL_V2_Q.id());
          List<Scored> bge = byVariant.get(OnnxModel.BGE_SMALL_EN_V15_Q.id());
          if (e5 != null && bge != null)
            mine.put("e5 + bge (mean of z-scored cosines)", pair(e5, bge));
          results.put(dataset, mine);
        });
    StringBuilder out = new StringBuilder();
    results.forEach(
        (dataset, byVariant) -> {
          out.append("\n### ").append(dataset).append("\n\n");
          out.append(DenseSeparation.Summary.header()).append('\n');
          byVariant.forEach(
              (label, qs) -> out.append(DenseSeparation.summarize(qs).row(label)).append('\n'));
          out.append("\nBy kind:\n\n");
          out.append(DenseSeparation.Summary.header().replace("| embedder |", "| embedder, kind |"))
              .append('\n');
          byVariant.forEach(
              (label, qs) -> {
                Map<String, List<DenseSeparation.Question>> byKind = new TreeMap<>();
                for (DenseSeparation.Question q : qs) {
                  byKind.computeIfAbsent(q.kind(), k -> new ArrayList<>()).add(q);
                }
                byKind.forEach(
                    (kind, kq) ->
                        out.append(DenseSeparation.summarize(kq).row(label + ", " + kind))
                            .append('\n'));
              });
        });
    out.append("\n### Time per embedding (2 worker threads, this machine under load)\n");
    timings.forEach(
        (dataset, rows) -> {
          out.append("\n")
              .append(dataset)
              .append(":\n\n| embedder | ms per query | ms per passage (batch) | passages |")
              .append(" passages/s |\n|---|---:|---:|---:|---:|\n");
          rows.forEach(r -> out.append(r).append('\n'));
        });
    System.out.println(out);
  }

  /**
   * Both models' cosines of each question, each z-scored over the owner's records, averaged: what
   * the two as one signal would separate.
   */
  private static List<DenseSeparation.Question> pair(List<Scored> a, List<Scored> b) {
    List<DenseSeparation.Question> out = new ArrayList<>();
    for (int i = 0; i < a.size(); i++) {
      double[] za = z(a.get(i).cosines());
      double[] zb = z(b.get(i).cosines());
      double[] mean = new double[za.length];
      for (int j = 0; j < za.length; j++) mean[j] = (za[j] + zb[j]) / 2;
      DenseSeparation.Question q = a.get(i).question();
      out.add(
          DenseSeparation.measure(
              q.dataset(), q.kind(), q.expectNone(), mean, a.get(i).evidence()));
    }
    return out;
  }

  private static double[] z(double[] c) {
    double mean = java.util.Arrays.stream(c).average().orElse(0);
    double var = 0;
    for (double x : c) var += (x - mean) * (x - mean);
    double sd = c.length > 1 ? Math.sqrt(var / (c.length - 1)) : 1;
    double[] out = new double[c.length];
    for (int i = 0; i < c.length; i++) out[i] = sd > 0 ? (c[i] - mean) / sd : 0;
    return out;
  }

  private static Scored measure(Unit u, Ask a, List<float[]> passages, float[] q) {
    // A source (turn or write) scores its best piece.
    Map<String, Double> best = new LinkedHashMap<>();
    for (int i = 0; i < passages.size(); i++) {
      if (a.visible() != null && !a.visible()[i]) continue;
      double c = dot(q, passages.get(i));
      best.merge(u.sources().get(i), c, Math::max);
    }
    double[] cosines = new double[best.size()];
    boolean[] evidence = new boolean[best.size()];
    int i = 0;
    for (Map.Entry<String, Double> e : best.entrySet()) {
      cosines[i] = e.getValue();
      evidence[i++] = a.evidence().contains(e.getKey());
    }
    return new Scored(
        DenseSeparation.measure(u.dataset(), a.kind(), a.expectNone(), cosines, evidence),
        cosines,
        evidence);
  }

  private static double dot(float[] a, float[] b) {
    double s = 0;
    for (int i = 0; i < a.length; i++) s += a[i] * b[i];
    return s;
  }

  private static List<String> texts(List<NewMemory> ms) {
    return ms.stream().map(m -> Words.withFactKey(m.factKey(), m.text())).toList();
  }

  private static List<String> sources(List<NewMemory> ms) {
    return ms.stream().map(m -> m.sources().get(0)).toList();
  }

  private static List<Unit> locomo(Path dir) {
    List<Unit> out = new ArrayList<>();
    for (LocomoConversation c : LocomoLoader.loadDir(dir)) {
      List<NewMemory> ms = LocomoRunner.memories(c, false);
      List<Ask> asks = new ArrayList<>();
      for (Question q : c.questions()) {
        if (q.category() < 1 || q.category() > 4 || q.evidence().isEmpty()) continue;
        asks.add(
            new Ask(q.text(), "category " + q.category(), false, Set.copyOf(q.evidence()), null));
      }
      out.add(new Unit("LoCoMo dev", texts(ms), sources(ms), asks));
    }
    return out;
  }

  private static List<Unit> longMemEval(Path file, int limit) {
    List<Unit> out = new ArrayList<>();
    for (LongMemEvalQuestion q :
        LongMemEvalLoader.firstByType(LongMemEvalLoader.load(file), limit)) {
      List<NewMemory> ms = LongMemEvalRunner.memories(q, false);
      Set<String> evidence = new HashSet<>(q.evidenceTurnIds());
      boolean none = q.abstention() || evidence.isEmpty();
      out.add(
          new Unit(
              "LongMemEval dev",
              texts(ms),
              sources(ms),
              List.of(new Ask(q.question(), q.type(), none, none ? Set.of() : evidence, null))));
    }
    return out;
  }

  private static List<Unit> generated() {
    List<Unit> out = new ArrayList<>();
    List<String> lines =
        new HistoryGenerator(HistoryGenerator.DEFAULT_SEED)
            .lines("dev", HistoryGenerator.DEFAULT_DEV);
    for (int l = 0; l < lines.size(); l++) {
      Scenario s = ScenarioReader.parse(lines.get(l), "generated dev:" + (l + 1));
      List<NewMemory> ms = s.writes();
      List<Ask> asks = new ArrayList<>();
      for (ScenarioQuery q : s.queries()) {
        if (q.expect().isEmpty() && !q.expectNone()) continue;
        boolean[] visible = new boolean[ms.size()];
        for (int i = 0; i < ms.size(); i++) {
          NewMemory m = ms.get(i);
          visible[i] =
              m.owner().equals(q.owner())
                  && (m.recordedAt() == null || !m.recordedAt().isAfter(q.askedAt()));
        }
        asks.add(
            new Ask(
                q.text(),
                ScenarioReport.kind(q.id()),
                q.expectNone(),
                Set.copyOf(q.expect()),
                visible));
      }
      out.add(new Unit("generated dev (seed 42)", texts(ms), sources(ms), asks));
    }
    return out;
  }
}

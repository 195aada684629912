package dev.mnemo.eval;

import dev.mnemo.Mnemo;
import dev.mnemo.RecallRequest;
import dev.mnemo.embed.E5SmallEmbedder;
import dev.mnemo.spi.Embedder;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * A development tool, not a test: indexes each LoCoMo conversation of a directory once and asks its
 * questions under several request variants in one JVM, printing evidence recall@k per variant and
 * category. Used to try read-path mechanisms quickly on the dev split; the numbers that count come
 * from {@code mnemo eval locomo}. Extra variants as in {@link LongMemEvalLab#labRequest} through
 * {@code -Dlab.variants}; embeddings are cached in CACHE_DIR. Run: {@code java -cp <test classpath>
 * dev.mnemo.eval.LocomoLab DIR [CACHE_DIR]}.
 */
public final class LocomoLab {
  public static void main(String[] args) throws Exception {
    List<LocomoConversation> convs = LocomoLoader.loadDir(Path.of(args[0]));
    Map<String, UnaryOperator<RecallRequest.Builder>> variants = variants();
    Embedder e5 = new E5SmallEmbedder();
    CachingEmbedder cached =
        CachingEmbedder.open(e5, Path.of(args.length > 1 ? args[1] : "/tmp/lme/locomo-cache"));
    int[] ks = {1, 5, 10, 20};
    Map<String, double[]> sums = new LinkedHashMap<>();
    Map<String, Map<Integer, double[]>> perCat = new LinkedHashMap<>();
    Map<String, double[]> cat5 = new LinkedHashMap<>();
    int n = 0;
    int n5 = 0;
    for (LocomoConversation c : convs) {
      Path dir = TempDirs.create("lab-", c.name());
      try (Mnemo m = Mnemo.builder().directory(dir).embedder(Embedder.shared(cached)).build()) {
        m.rememberAll(LocomoRunner.memories(c, true));
        for (var q : c.questions()) {
          boolean adv = q.category() == 5;
          if (!adv && (q.category() < 1 || q.category() > 4 || q.evidence().isEmpty())) continue;
          String named =
              adv ? LocomoRunner.namedSpeaker(q.text(), c.speakerA(), c.speakerB()) : null;
          if (adv && named == null) continue;
          if (adv) n5++;
          else n++;
          for (var v : variants.entrySet()) {
            var res = m.recall(v.getValue().apply(LocomoRunner.request(c, q, 20)).build());
            if (adv) {
              var top = res.selected().subList(0, Math.min(5, res.selected().size()));
              double share =
                  top.isEmpty()
                      ? 0
                      : (double)
                              top.stream()
                                  .filter(x -> x.record().text().startsWith(named + ":"))
                                  .count()
                          / top.size();
              cat5.computeIfAbsent(v.getKey(), x -> new double[1])[0] += share;
              continue;
            }
            List<String> src = res.sourceIds();
            double[] s = sums.computeIfAbsent(v.getKey(), x -> new double[ks.length]);
            double[] pc =
                perCat
                    .computeIfAbsent(v.getKey(), x -> new LinkedHashMap<>())
                    .computeIfAbsent(q.category(), x -> new double[2]);
            for (int i = 0; i < ks.length; i++) {
              List<String> top = src.subList(0, Math.min(ks[i], src.size()));
              double r =
                  (double) q.evidence().stream().filter(top::contains).count()
                      / q.evidence().size();
              s[i] += r;
              if (ks[i] == 10) {
                pc[0] += r;
                pc[1]++;
              }
            }
          }
        }
      } finally {
        TempDirs.delete(dir);
      }
    }
    System.out.printf(
        Locale.ROOT,
        "%-28s %7s %7s %7s %7s   %s   cat5_named@5%n",
        "variant",
        "R@1",
        "R@5",
        "R@10",
        "R@20",
        "R@10 by category");
    for (var v : sums.entrySet()) {
      StringBuilder cats = new StringBuilder();
      perCat.get(v.getKey()).entrySet().stream()
          .sorted(Map.Entry.comparingByKey())
          .forEach(
              e ->
                  cats.append(
                      String.format(
                          Locale.ROOT,
                          " c%d=%.3f",
                          e.getKey(),
                          e.getValue()[0] / e.getValue()[1])));
      double[] s = v.getValue();
      System.out.printf(
          Locale.ROOT,
          "%-28s %7.3f %7.3f %7.3f %7.3f  %s   %.3f%n",
          v.getKey(),
          s[0] / n,
          s[1] / n,
          s[2] / n,
          s[3] / n,
          cats,
          cat5.getOrDefault(v.getKey(), new double[1])[0] / Math.max(1, n5));
    }
    cached.close();
    e5.close();
  }

  static Map<String, UnaryOperator<RecallRequest.Builder>> variants() {
    Map<String, UnaryOperator<RecallRequest.Builder>> v = new LinkedHashMap<>();
    v.put("full", b -> b);
    v.put("full-rrf", b -> b.fusion(dev.mnemo.Fusion.rrf()));
    var W = dev.mnemo.Weights.DEFAULT;
    for (String extra : System.getProperty("lab.variants", "").split(";")) {
      if (extra.isBlank()) continue;
      v.put(extra, b -> LongMemEvalLab.labRequest(extra, b));
    }
    v.put("dense", b -> b.weights(W.withBm25(0).withEntity(0).withWindow(0).relevanceOnly()));
    v.put("bm25", b -> b.weights(W.withDense(0).withEntity(0).withWindow(0).relevanceOnly()));
    return v;
  }
}

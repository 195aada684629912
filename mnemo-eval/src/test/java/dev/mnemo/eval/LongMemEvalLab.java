package dev.mnemo.eval;

import dev.mnemo.Fusion;
import dev.mnemo.Mnemo;
import dev.mnemo.RecallRequest;
import dev.mnemo.Weights;
import dev.mnemo.embed.E5SmallEmbedder;
import dev.mnemo.spi.Embedder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * A development tool, not a test: indexes each LongMemEval question's haystack once and asks it
 * under several request variants in one JVM (embeddings from a {@link CachingEmbedder}), printing
 * turn-level evidence recall@10, turn recall_all@10 and session recall_all@10 per variant and type.
 * Variants named {@code ext-rrf(a,b)} fuse two variants' turn rankings outside the engine (k = 60),
 * as a plain retrieval tool would. The numbers that count come from {@code mnemo eval longmemeval}.
 * Run: {@code java -cp <test classpath> dev.mnemo.eval.LongMemEvalLab FILE CACHE_DIR [LIMIT]}.
 */
public final class LongMemEvalLab {
  public static void main(String[] args) throws Exception {
    List<LongMemEvalQuestion> qs =
        LongMemEvalLoader.interleaveByType(LongMemEvalLoader.load(Path.of(args[0])));
    int limit = args.length > 2 ? Integer.parseInt(args[2]) : qs.size();
    Map<String, UnaryOperator<RecallRequest.Builder>> variants = variants();
    Embedder e5 = new E5SmallEmbedder();
    CachingEmbedder cached = CachingEmbedder.open(e5, Path.of(args[1]));
    Map<String, Map<String, double[]>> sums =
        new LinkedHashMap<>(); // variant -> type -> [evid, all, sess, n]
    int done = 0;
    long start = System.nanoTime();
    for (LongMemEvalQuestion q : qs.subList(0, Math.min(limit, qs.size()))) {
      if (q.abstention()) continue;
      Path dir = TempDirs.create("lmelab-", q.id());
      Map<String, String> sessionOf = new HashMap<>();
      for (var s : q.sessions())
        for (int i = 0; i < s.turns().size(); i++) sessionOf.put(s.turnId(i), s.id());
      try (Mnemo m = Mnemo.builder().directory(dir).embedder(Embedder.shared(cached)).build()) {
        m.rememberAll(LongMemEvalRunner.memories(q, true));
        Map<String, List<String>> rankings = new LinkedHashMap<>();
        for (var v : variants.entrySet()) {
          var res =
              m.recall(
                  v.getValue()
                      .apply(
                          LocomoRunner.rankingRequest(
                              q.id(), q.question(), LongMemEvalRunner.askedAt(q), 50))
                      .build());
          rankings.put(v.getKey(), res.sourceIds().stream().distinct().toList());
        }
        rankings.put(
            "ext-rrf(dense,bm25-noctx)", rrf(rankings.get("dense"), rankings.get("bm25-noctx")));
        rankings.put("ext-rrf(dense,bm25)", rrf(rankings.get("dense"), rankings.get("bm25")));
        rankings.put(
            "ext-rrf(full,dense,bm25-noctx)",
            rrf(rankings.get("full"), rankings.get("dense"), rankings.get("bm25-noctx")));
        List<String> ev = q.evidenceTurnIds();
        if (System.getProperty("lab.dump", "").equals(q.type())) {
          Map<String, String> textOf = new HashMap<>();
          Map<String, String> roleOf = new HashMap<>();
          for (var s : q.sessions())
            for (int i = 0; i < s.turns().size(); i++) {
              textOf.put(s.turnId(i), s.turns().get(i).content());
              roleOf.put(s.turnId(i), s.turns().get(i).role());
            }
          List<String> r = rankings.get("full");
          System.out.println(
              "Q "
                  + q.id()
                  + ": "
                  + q.question()
                  + " | evidence "
                  + ev.size()
                  + " in ranks "
                  + ev.stream().map(e -> String.valueOf(r.indexOf(e) + 1)).toList());
          for (int i = 0; i < Math.min(12, r.size()); i++) {
            String t = textOf.get(r.get(i)).replace('\n', ' ');
            System.out.printf(
                "  %2d %s %-9s %-22s %s%n",
                i + 1,
                ev.contains(r.get(i)) ? "*" : " ",
                roleOf.get(r.get(i)),
                r.get(i),
                t.substring(0, Math.min(110, t.length())));
          }
          for (String e : ev)
            if (r.indexOf(e) < 0 || r.indexOf(e) >= 12) {
              String t = textOf.get(e).replace('\n', ' ');
              System.out.printf(
                  "  %2d * %-9s %-22s %s%n",
                  r.indexOf(e) + 1, roleOf.get(e), e, t.substring(0, Math.min(110, t.length())));
            }
        }
        List<String> evs = List.copyOf(q.answerSessionIds());
        for (var r : rankings.entrySet()) {
          List<String> top = r.getValue().subList(0, Math.min(10, r.getValue().size()));
          List<String> sess = r.getValue().stream().map(sessionOf::get).distinct().toList();
          List<String> topS = sess.subList(0, Math.min(10, sess.size()));
          for (String type : List.of(q.type(), "ALL")) {
            double[] a =
                sums.computeIfAbsent(r.getKey(), x -> new LinkedHashMap<>())
                    .computeIfAbsent(type, x -> new double[5]);
            if (!ev.isEmpty()) {
              a[0] += (double) ev.stream().filter(top::contains).count() / ev.size();
              a[1] += top.containsAll(ev) ? 1 : 0;
              a[3]++;
            }
            a[2] += topS.containsAll(evs) ? 1 : 0;
            a[4]++;
          }
        }
      } finally {
        TempDirs.delete(dir);
      }
      done++;
      System.err.printf(Locale.ROOT, "%d done, %.0f s%n", done, (System.nanoTime() - start) / 1e9);
      if (done % 20 == 0) print(sums, false);
    }
    print(sums, true);
    cached.close();
    e5.close();
  }

  static void print(Map<String, Map<String, double[]>> sums, boolean perType) {
    System.out.printf(
        Locale.ROOT,
        "%-34s %8s %8s %8s %5s%n",
        "variant",
        "turnEv10",
        "turnAll10",
        "sessAll10",
        "n");
    for (var v : sums.entrySet()) {
      for (var t : v.getValue().entrySet()) {
        if (!perType && !t.getKey().equals("ALL")) continue;
        double[] a = t.getValue();
        System.out.printf(
            Locale.ROOT,
            "%-34s %8.3f %8.3f %8.3f %5d  %s%n",
            v.getKey(),
            a[0] / a[3],
            a[1] / a[3],
            a[2] / a[4],
            (int) a[3],
            t.getKey());
      }
    }
    System.out.flush();
  }

  /**
   * A variant's request: a name starting with "rrf" fuses by reciprocal rank; parts after '+' named
   * {@code w.NAME=value} set that weight (dense, bm25, entity, window, context, speaker, recency,
   * importance, timeMatch). Variants come from the system property {@code lab.variants}, separated
   * by ';'; {@code -Dlab.dump=TYPE} prints the full ranking's head for that type's questions.
   */
  static RecallRequest.Builder labRequest(String variant, RecallRequest.Builder b) {
    if (variant.startsWith("rrf")) b.fusion(Fusion.rrf());
    Weights w = Weights.DEFAULT;
    String[] parts = variant.split("\\+");
    for (int i = 1; i < parts.length; i++) {
      if (!parts[i].startsWith("w."))
        throw new IllegalArgumentException("not a weight: " + parts[i]);
      String[] kv = parts[i].substring(2).split("=");
      double x = Double.parseDouble(kv[1]);
      w =
          switch (kv[0]) {
            case "dense" -> w.withDense(x);
            case "bm25" -> w.withBm25(x);
            case "entity" -> w.withEntity(x);
            case "window" -> w.withWindow(x);
            case "context" -> w.withContext(x);
            case "speaker" -> w.withSpeaker(x);
            case "recency" -> w.withRecency(x);
            case "importance" -> w.withImportance(x);
            case "timeMatch" -> w.withTimeMatch(x);
            default -> throw new IllegalArgumentException(kv[0]);
          };
    }
    return b.weights(w);
  }

  @SafeVarargs
  static List<String> rrf(List<String>... lists) {
    Map<String, Double> score = new HashMap<>();
    for (List<String> l : lists)
      for (int i = 0; i < l.size(); i++) score.merge(l.get(i), 1.0 / (60 + i + 1), Double::sum);
    List<String> out = new ArrayList<>(score.keySet());
    out.sort((x, y) -> Double.compare(score.get(y), score.get(x)));
    return out;
  }

  static Map<String, UnaryOperator<RecallRequest.Builder>> variants() {
    Map<String, UnaryOperator<RecallRequest.Builder>> v = new LinkedHashMap<>();
    var W = Weights.DEFAULT;
    v.put("full", b -> b);
    v.put("full-rrf", b -> b.fusion(Fusion.rrf()));
    v.put("dense", b -> b.weights(W.withBm25(0).withEntity(0).withWindow(0).relevanceOnly()));
    v.put("bm25", b -> b.weights(W.withDense(0).withEntity(0).withWindow(0).relevanceOnly()));
    v.put(
        "bm25-noctx",
        b -> b.weights(W.withDense(0).withEntity(0).withWindow(0).withContext(0).relevanceOnly()));
    for (String extra : System.getProperty("lab.variants", "").split(";")) {
      if (extra.isBlank()) continue;
      v.put(extra, b -> LongMemEvalLab.labRequest(extra, b));
    }
    return v;
  }
}

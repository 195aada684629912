package dev.mnemo.testkit;

import dev.mnemo.MemoryRecord;
import dev.mnemo.spi.Candidate;
import dev.mnemo.spi.CandidateQuery;
import dev.mnemo.spi.CandidateSet;
import dev.mnemo.spi.Eligibility;
import dev.mnemo.spi.MemoryStore;
import dev.mnemo.text.Words;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * The reference {@link MemoryStore}: every record in a map, every search a scan. It passes {@link
 * MemoryStoreContract} like the Lucene and Solr stores, so the engine's read path, write path and
 * ingest pipeline can be tested in milliseconds without disk, index or model, and a new store's
 * behaviour can be compared with the simplest one that is right.
 *
 * <p>It follows the Lucene store where the contract leaves room: records in write order (a replaced
 * record moves to the end, as an updated Lucene document does), ties broken by that order, the
 * dense score {@code (1 + dot) / 2}, and BM25 as Lucene computes it ({@code k1 = 1.2}, {@code b =
 * 0.75}, {@code idf = ln(1 + (n - df + 0.5) / (df + 0.5))}, per-field statistics over all records,
 * the context field added at the query's context weight). Its text analysis is core's own {@link
 * Words} (lower-cased words, function words dropped, the crude stem) instead of Lucene's English
 * analyzer, so scores differ a little from the embedded store's; written by hand because the point
 * of the reference is to depend on nothing but core.
 *
 * <p>Nothing is durable: a new instance is empty, and {@link #apply} is atomic (validated first,
 * then applied under one lock). Thread-safe.
 */
public final class InMemoryMemoryStore implements MemoryStore {
  static final double K1 = 1.2;
  static final double B = 0.75;

  /** A record with its analyzed text and context. */
  private record Doc(
      MemoryRecord record,
      Map<String, Integer> text,
      int textLength,
      Map<String, Integer> context,
      int contextLength) {
    static Doc of(MemoryRecord r) {
      List<String> t = analyze(r.text());
      List<String> c = analyze(r.context());
      return new Doc(r, frequencies(t), t.size(), frequencies(c), c.size());
    }
  }

  private final LinkedHashMap<String, Doc> byId = new LinkedHashMap<>();
  private String embeddingModel;
  private long generation;
  private boolean closed;

  /** The analyzed terms of a text, in order (duplicates kept): what BM25 counts. */
  static List<String> analyze(String text) {
    List<String> out = new ArrayList<>();
    if (text == null) return out;
    for (String w : Words.words(text)) if (!Words.FUNCTION.contains(w)) out.add(Words.stem(w));
    return out;
  }

  private static Map<String, Integer> frequencies(List<String> terms) {
    Map<String, Integer> f = new HashMap<>();
    for (String t : terms) f.merge(t, 1, Integer::sum);
    return f;
  }

  @Override
  public synchronized void apply(List<MemoryRecord> upserts, Collection<String> deleteIds) {
    open();
    List<Doc> docs = new ArrayList<>(upserts.size());
    for (MemoryRecord r : upserts) {
      Objects.requireNonNull(r, "a record to write is null; nothing was written");
      Objects.requireNonNull(r.id(), "a record to write has no id; nothing was written");
      docs.add(Doc.of(r));
    }
    for (Doc d : docs) {
      byId.remove(
          d.record().id()); // a replaced record moves to the end, like an updated Lucene document
      byId.put(d.record().id(), d);
      String model = d.record().embeddingModel();
      if (model != null && !model.isEmpty()) embeddingModel = model;
    }
    for (String id : deleteIds) byId.remove(id);
    generation++;
  }

  @Override
  public synchronized Optional<MemoryRecord> get(String owner, String id) {
    open();
    Doc d = byId.get(id);
    return d != null && d.record().owner().equals(owner)
        ? Optional.of(d.record())
        : Optional.empty();
  }

  @Override
  public synchronized List<MemoryRecord> versions(String owner, String factKey) {
    return oldestFirst(r -> r.owner().equals(owner) && factKey.equals(r.factKey()));
  }

  @Override
  public synchronized List<MemoryRecord> lineage(String owner, String id) {
    return oldestFirst(
        r -> r.owner().equals(owner) && (r.id().equals(id) || id.equals(r.origin())));
  }

  @Override
  public synchronized List<MemoryRecord> latest(Eligibility eligibility, int limit) {
    open();
    return byId.values().stream()
        .map(Doc::record)
        .filter(eligibility::admits)
        .sorted(
            Comparator.comparing(MemoryRecord::recordedAt)
                .reversed()
                .thenComparing(MemoryRecord::id))
        .limit(Math.max(1, limit))
        .toList();
  }

  @Override
  public synchronized long count(Eligibility eligibility) {
    open();
    return byId.values().stream().filter(d -> eligibility.admits(d.record())).count();
  }

  @Override
  public synchronized CandidateSet candidates(CandidateQuery q) {
    open();
    List<Doc> eligible = new ArrayList<>();
    for (Doc d : byId.values()) if (q.eligibility().admits(d.record())) eligible.add(d);
    Map<Doc, int[]> ranks =
        new LinkedHashMap<>(); // {dense, bm25, entity, time}, in the order found
    if (q.vector() != null) {
      List<Doc> withVector = eligible.stream().filter(d -> sameLength(d, q.vector())).toList();
      rank(
          ranks,
          top(withVector, d -> (1 + dot(q.vector(), d.record().embedding())) / 2, q.perSignal()),
          0);
    }
    List<String> terms = analyze(q.text());
    Bm25 bm25 = terms.isEmpty() ? null : new Bm25(terms, q.contextWeight());
    if (bm25 != null) {
      List<Doc> matching = eligible.stream().filter(bm25::matches).toList();
      rank(ranks, top(matching, bm25::score, q.perSignal()), 1);
    }
    if (!q.entities().isEmpty()) {
      List<Doc> naming =
          eligible.stream()
              .filter(d -> d.record().entities().stream().anyMatch(q.entities()::contains))
              .limit(q.perSignal())
              .toList();
      rank(ranks, naming, 2);
    }
    if (q.timeRange() != null) {
      List<Doc> inRange =
          eligible.stream()
              .filter(
                  d ->
                      (!d.record().validFrom().isBefore(q.timeRange().from())
                              && d.record().validFrom().isBefore(q.timeRange().to()))
                          || (d.record().eventTime() != null
                              && d.record()
                                  .eventTime()
                                  .overlaps(q.timeRange().from(), q.timeRange().to())))
              .sorted(
                  Comparator.comparing((Doc d) -> d.record().recordedAt())
                      .reversed()) // stable: ties in write order
              .limit(q.perSignal())
              .toList();
      rank(ranks, inRange, 3);
    }
    if (ranks.isEmpty()) return CandidateSet.empty();
    List<Candidate> out = new ArrayList<>(ranks.size());
    for (var e : ranks.entrySet()) {
      Doc d = e.getKey();
      int[] r = e.getValue();
      double cosine =
          q.vector() != null && sameLength(d, q.vector())
              ? dot(q.vector(), d.record().embedding())
              : Double.NaN;
      out.add(
          new Candidate(
              d.record(), cosine, bm25 == null ? 0 : bm25.score(d), r[0], r[1], r[2], r[3]));
    }
    Map<String, Long> entityFrequencies = new TreeMap<>();
    Set<String> named = new TreeSet<>();
    for (Candidate c : out)
      for (String en : c.record().entities()) if (q.entities().contains(en)) named.add(en);
    for (String en : named) {
      entityFrequencies.put(
          en, eligible.stream().filter(d -> d.record().entities().contains(en)).count());
    }
    return new CandidateSet(
        out,
        bm25 == null ? 0 : bm25.max(),
        entityFrequencies.isEmpty() ? 0 : eligible.size(),
        entityFrequencies);
  }

  @Override
  public synchronized int deleteOwner(String owner) {
    open();
    int before = byId.size();
    byId.values().removeIf(d -> d.record().owner().equals(owner));
    generation++;
    return before - byId.size();
  }

  @Override
  public void export(String owner, Consumer<MemoryRecord> sink) {
    List<MemoryRecord> all;
    synchronized (this) {
      all = oldestFirst(r -> owner == null || r.owner().equals(owner));
    }
    all.forEach(sink); // outside the lock: the sink may call back into the store
  }

  @Override
  public synchronized Optional<String> embeddingModel() {
    return Optional.ofNullable(embeddingModel);
  }

  @Override
  public synchronized String state() {
    return "generation-" + generation;
  }

  @Override
  public synchronized long count() {
    open();
    return byId.size();
  }

  /** Drops every record; later calls fail. */
  @Override
  public synchronized void close() {
    closed = true;
    byId.clear();
  }

  private void open() {
    if (closed) throw new IllegalStateException("the in-memory store is closed");
  }

  private List<MemoryRecord> oldestFirst(Predicate<MemoryRecord> which) {
    open();
    return byId.values().stream()
        .map(Doc::record)
        .filter(which)
        .sorted(Comparator.comparing(MemoryRecord::recordedAt).thenComparing(MemoryRecord::id))
        .toList();
  }

  private static boolean sameLength(Doc d, float[] vector) {
    return d.record().embedding() != null && d.record().embedding().length == vector.length;
  }

  private static double dot(float[] a, float[] b) {
    double s = 0;
    for (int i = 0; i < a.length; i++) s += a[i] * b[i];
    return s;
  }

  /** The {@code k} best by {@code score}, highest first; equal scores in write order. */
  private static List<Doc> top(
      List<Doc> docs, java.util.function.ToDoubleFunction<Doc> score, int k) {
    return docs.stream().sorted(Comparator.comparingDouble(score).reversed()).limit(k).toList();
  }

  private static void rank(Map<Doc, int[]> ranks, List<Doc> list, int signal) {
    for (int i = 0; i < list.size(); i++)
      ranks.computeIfAbsent(list.get(i), d -> new int[4])[signal] = i + 1;
  }

  /**
   * BM25 of one query over the store's text and context fields, with the statistics of all records.
   */
  private final class Bm25 {
    private final List<String> terms;
    private final double contextWeight;
    private final Field text;
    private final Field context;

    Bm25(List<String> terms, double contextWeight) {
      this.terms = terms;
      this.contextWeight = contextWeight;
      this.text = new Field(Doc::text, Doc::textLength);
      this.context = new Field(Doc::context, Doc::contextLength);
    }

    boolean matches(Doc d) {
      for (String t : terms) {
        if (d.text().containsKey(t) || (contextWeight > 0 && d.context().containsKey(t)))
          return true;
      }
      return false;
    }

    double score(Doc d) {
      double s = text.score(d);
      return contextWeight > 0 ? s + contextWeight * context.score(d) : s;
    }

    /**
     * The highest score BM25 could give any record: the sum of the query terms' IDF over the text
     * field.
     */
    double max() {
      double max = 0;
      for (String t : terms) max += text.idf(t);
      return max;
    }

    /**
     * Per-field statistics: documents that have the field, their average length, document
     * frequencies.
     */
    private final class Field {
      private final java.util.function.Function<Doc, Map<String, Integer>> tf;
      private final java.util.function.ToIntFunction<Doc> length;
      private final long docCount;
      private final double avgLength;
      private final Map<String, Long> df = new HashMap<>();

      Field(
          java.util.function.Function<Doc, Map<String, Integer>> tf,
          java.util.function.ToIntFunction<Doc> length) {
        this.tf = tf;
        this.length = length;
        long n = 0;
        long sum = 0;
        for (Doc d : byId.values()) {
          int len = length.applyAsInt(d);
          if (len == 0) continue;
          n++;
          sum += len;
          for (String t : new TreeSet<>(terms))
            if (tf.apply(d).containsKey(t)) df.merge(t, 1L, Long::sum);
        }
        docCount = n;
        avgLength = n == 0 ? 1 : (double) sum / n;
      }

      double idf(String term) {
        long f = df.getOrDefault(term, 0L);
        return Math.log(1 + (docCount - f + 0.5) / (f + 0.5));
      }

      double score(Doc d) {
        int len = length.applyAsInt(d);
        if (len == 0) return 0;
        double norm = K1 * (1 - B + B * len / avgLength);
        double s = 0;
        for (String t : terms) {
          Integer f = tf.apply(d).get(t);
          if (f != null) s += idf(t) * f / (f + norm);
        }
        return s;
      }
    }
  }
}

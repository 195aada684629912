package dev.mnemo.store.lucene;

import dev.mnemo.MemoryRecord;
import dev.mnemo.spi.Candidate;
import dev.mnemo.spi.CandidateQuery;
import dev.mnemo.spi.CandidateSet;
import dev.mnemo.spi.Eligibility;
import dev.mnemo.spi.Vectors;
import dev.mnemo.store.lucene.LuceneMemoryStore.ReadOptions;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Supplier;
import org.apache.lucene.search.BooleanClause.Occur;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.ConstantScoreQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.util.BytesRef;

/**
 * A candidate search of one index: the call's eligible documents computed once, each signal
 * searched under them ({@link LexicalSearch}, {@link DenseSearch}), the hits ranked per signal into
 * one set with their cosine and exact BM25; and the sets of several indexes merged into one.
 */
final class CandidateSearch {
  private final Partitions partitions;
  private final LexicalSearch lexical;
  private final DenseSearch dense;

  CandidateSearch(Partitions partitions, LexicalSearch lexical, DenseSearch dense) {
    this.partitions = partitions;
    this.lexical = lexical;
    this.dense = dense;
  }

  /**
   * The candidates of the index holding the query's owner, or, for no owner, of every index merged
   * ({@link #merged}). {@code later}: the vector, asked for once the other signals are searched;
   * null: the query's (a read of every index asks for it first).
   */
  CandidateSet candidates(CandidateQuery q, Supplier<float[]> later, ReadOptions o) {
    String owner = q.eligibility().owner();
    if (owner == null && !partitions.table().isEmpty()) {
      CandidateQuery all = later == null ? q : q.withVector(later.get());
      return merged(partitions.acrossAll((p, s) -> candidates(p, s, all, null, o)), q.perSignal());
    }
    return partitions.read(owner, (p, s) -> candidates(p, s, q, later, o));
  }

  /**
   * The call's eligibility filter on one index and the number of documents it admits, counted once
   * when first needed (-1 until then).
   */
  private static final class Eligible {
    final Query filter;
    private long count;

    Eligible(Query filter, long count) {
      this.filter = filter;
      this.count = count;
    }

    long count(IndexSearcher s) throws IOException {
      if (count < 0) count = s.count(filter);
      return count;
    }
  }

  /**
   * Candidates of a read for no owner (evaluation) from several indexes as one set: each signal's
   * lists merged by its score (cosine, BM25 against each index's own statistics, newest for time;
   * entity matches by their rank) and cut again at {@code perSignal}; counts summed.
   */
  static CandidateSet merged(List<CandidateSet> sets, int perSignal) {
    record Found(Candidate c, int index) {}
    List<Found> all = new ArrayList<>();
    double bm25Max = 0;
    long eligible = 0;
    Map<String, Long> frequencies = new TreeMap<>();
    Map<String, List<MemoryRecord>> versions = new HashMap<>();
    boolean withVersions = true;
    for (int i = 0; i < sets.size(); i++) {
      CandidateSet s = sets.get(i);
      if (s.versions() == null) withVersions = false;
      else
        s.versions()
            .forEach((k, v) -> versions.computeIfAbsent(k, x -> new ArrayList<>()).addAll(v));
      for (Candidate c : s.candidates()) all.add(new Found(c, i));
      bm25Max = Math.max(bm25Max, s.bm25Max());
      eligible += s.eligibleCount();
      s.entityFrequencies().forEach((k, v) -> frequencies.merge(k, v, Long::sum));
    }
    int[][] ranks = new int[all.size()][4];
    List<java.util.function.ToIntFunction<Candidate>> rankOf =
        List.of(
            Candidate::denseRank, Candidate::bm25Rank, Candidate::entityRank, Candidate::timeRank);
    List<Comparator<Found>> orders =
        List.of(
            Comparator.comparingDouble((Found f) -> -f.c().cosine()),
            Comparator.comparingDouble((Found f) -> -f.c().bm25()),
            Comparator.comparingInt((Found f) -> f.c().entityRank()),
            Comparator.comparing(
                (Found f) -> f.c().record().recordedAt(), Comparator.reverseOrder()));
    for (int signal = 0; signal < 4; signal++) {
      java.util.function.ToIntFunction<Candidate> r = rankOf.get(signal);
      List<Integer> ranked = new ArrayList<>();
      for (int i = 0; i < all.size(); i++) if (r.applyAsInt(all.get(i).c()) > 0) ranked.add(i);
      Comparator<Found> order =
          orders
              .get(signal)
              .thenComparingInt(Found::index)
              .thenComparingInt(f -> r.applyAsInt(f.c()));
      ranked.sort((a, b) -> order.compare(all.get(a), all.get(b)));
      for (int k = 0; k < ranked.size() && k < perSignal; k++) ranks[ranked.get(k)][signal] = k + 1;
    }
    List<Candidate> out = new ArrayList<>();
    for (int i = 0; i < all.size(); i++) {
      int[] r = ranks[i];
      if (r[0] == 0 && r[1] == 0 && r[2] == 0 && r[3] == 0) continue;
      Candidate c = all.get(i).c();
      out.add(new Candidate(c.record(), c.cosine(), c.bm25(), r[0], r[1], r[2], r[3]));
    }
    return new CandidateSet(
        out,
        bm25Max,
        frequencies.isEmpty() ? 0 : eligible,
        frequencies,
        withVersions ? versions : null);
  }

  /**
   * The candidates of one index. {@code later}: the vector, asked for once the other signals are
   * searched; null: the query's.
   */
  CandidateSet candidates(
      Partition p, IndexSearcher s, CandidateQuery q, Supplier<float[]> later, ReadOptions o)
      throws IOException {
    Eligible eligible = eligible(p, s, q, o);
    // Each signal's hits, ranked into one map in this order (dense, BM25, entities, time) once all
    // are searched: the dense search may wait for a vector still being computed.
    TermStatistics terms = o.termStatistics() ? p.terms : null;
    Query text = lexical.textQuery(q.text(), q.contextWeight(), terms, s);
    TopDocs[] hits = lexicalHits(s, q, text, eligible.filter);
    // While a vector is still being computed, the lexical candidates' records and exact BM25 are
    // read too: the same values the loop below would read, only earlier.
    Map<Integer, MemoryRecord> early = Map.of();
    Map<Integer, Float> bm25 = null;
    double bm25Max = lexical.bm25Max(s, q.text(), terms);
    if (later != null) {
      early = loadHits(s, hits, o);
      bm25 = LexicalSearch.exactBm25(s, text, early.keySet());
    }
    float[] vector = later == null ? q.vector() : later.get();
    if (vector != null) {
      long n = eligible.count(s);
      // an owner's own index holds only their records: its graph and scan are the owner's
      hits[0] = dense.search(s, vector, eligible.filter, n, q.perSignal(), o, p.owner != null);
    }
    Map<Integer, int[]> ranks = new LinkedHashMap<>(); // doc -> {dense, bm25, entity, time}
    for (int signal = 0; signal < hits.length; signal++)
      if (hits[signal] != null) rank(ranks, hits[signal], signal);
    if (ranks.isEmpty()) return CandidateSet.empty();
    if (bm25 == null) {
      bm25 = LexicalSearch.exactBm25(s, text, ranks.keySet());
    } else if (hits[0] != null) {
      Set<Integer> denseOnly = new HashSet<>(ranks.keySet());
      denseOnly.removeAll(early.keySet());
      bm25.putAll(LexicalSearch.exactBm25(s, text, denseOnly));
    }
    List<Candidate> out = scored(s, ranks, early, bm25, vector, o);
    Map<String, Long> entityFrequencies = entityFrequencies(s, q, out, eligible);
    return new CandidateSet(
        out,
        bm25Max,
        entityFrequencies.isEmpty() ? 0 : eligible.count(s),
        entityFrequencies,
        o.versionsWithCandidates() ? versions(s, eligible.filter, out, o) : null);
  }

  /**
   * The eligibility filter of the call on this index: the eligible documents computed once ({@link
   * EligibleDocs}, counted as they are), or the eligibility query.
   */
  private static Eligible eligible(Partition p, IndexSearcher s, CandidateQuery q, ReadOptions o)
      throws IOException {
    Eligibility eligibility = Filters.forIndex(q.eligibility(), s.getIndexReader());
    if (!o.eligibleOnce()) return new Eligible(Filters.of(eligibility), -1);
    // an owner's own index holds only their records (moves and writes route by owner)
    boolean ownersOwn = p.owner != null && p.owner.equals(eligibility.owner());
    EligibleDocs docs =
        EligibleDocs.compute(s, eligibility, p.columns, ownersOwn, ownersOwn ? p.current : null);
    return new Eligible(docs.asQuery(), docs.count());
  }

  /** The hits of BM25 (1), entities (2) and time (3) under the filter; null where not asked. */
  private static TopDocs[] lexicalHits(IndexSearcher s, CandidateQuery q, Query text, Query filter)
      throws IOException {
    TopDocs[] hits = new TopDocs[4];
    if (text != null) {
      hits[1] = s.search(Queries.and(text, filter), q.perSignal());
    }
    if (!q.entities().isEmpty()) {
      hits[2] =
          s.search(Queries.and(LexicalSearch.entityQuery(q.entities()), filter), q.perSignal());
    }
    if (q.timeRange() != null) {
      Query inRange =
          LexicalSearch.timeQuery(
              q.timeRange().from().toEpochMilli(), q.timeRange().to().toEpochMilli());
      hits[3] =
          s.search(
              new ConstantScoreQuery(Queries.and(inRange, filter)),
              q.perSignal(),
              LexicalSearch.NEWEST);
    }
    return hits;
  }

  /** The records of the lexical signals' hits, each loaded once. */
  private static Map<Integer, MemoryRecord> loadHits(IndexSearcher s, TopDocs[] hits, ReadOptions o)
      throws IOException {
    Map<Integer, MemoryRecord> early = new HashMap<>();
    for (int signal = 1; signal < hits.length; signal++)
      if (hits[signal] != null)
        for (ScoreDoc hit : hits[signal].scoreDocs)
          if (!early.containsKey(hit.doc))
            early.put(hit.doc, StoredRecords.load(s, hit.doc, o.recordCache()));
    return early;
  }

  /** The ranked documents as candidates, with their cosine to {@code vector} and exact BM25. */
  private static List<Candidate> scored(
      IndexSearcher s,
      Map<Integer, int[]> ranks,
      Map<Integer, MemoryRecord> early,
      Map<Integer, Float> bm25,
      float[] vector,
      ReadOptions o)
      throws IOException {
    List<Candidate> out = new ArrayList<>(ranks.size());
    for (var e : ranks.entrySet()) {
      int doc = e.getKey();
      int[] r = e.getValue();
      MemoryRecord rec = early.get(doc);
      if (rec == null) rec = StoredRecords.load(s, doc, o.recordCache());
      double cos = Double.NaN;
      if (vector != null && rec.embedding() != null && rec.embedding().length == vector.length) {
        cos = Vectors.dot(vector, rec.embedding());
      }
      out.add(new Candidate(rec, cos, bm25.getOrDefault(doc, 0f), r[0], r[1], r[2], r[3]));
    }
    return out;
  }

  /** How many eligible records name each of the query's entities that some candidate names. */
  private static Map<String, Long> entityFrequencies(
      IndexSearcher s, CandidateQuery q, List<Candidate> out, Eligible eligible)
      throws IOException {
    Map<String, Long> entityFrequencies = new TreeMap<>();
    if (q.entities().isEmpty()) return entityFrequencies;
    Set<String> named = new java.util.TreeSet<>();
    for (Candidate c : out)
      for (String e : c.record().entities()) if (q.entities().contains(e)) named.add(e);
    if (!named.isEmpty()) {
      eligible.count(s);
      for (String e : named)
        entityFrequencies.put(
            e, (long) s.count(Queries.and(Queries.term(Schema.ENTITY, e), eligible.filter)));
    }
    return entityFrequencies;
  }

  /**
   * For each fact key of the candidates that some other eligible record shares, every eligible
   * record with that key: one search of the key terms under the call's eligibility filter; the
   * candidates' records are reused, only versions outside the candidates are loaded.
   */
  private static Map<String, List<MemoryRecord>> versions(
      IndexSearcher s, Query filter, List<Candidate> candidates, ReadOptions o) throws IOException {
    Map<String, MemoryRecord> byId = new HashMap<>();
    Set<BytesRef> keys = new java.util.TreeSet<>();
    int keyed = 0;
    for (Candidate c : candidates) {
      byId.put(c.record().id(), c.record());
      if (c.record().factKey() == null) continue;
      keys.add(new BytesRef(c.record().factKey()));
      keyed++;
    }
    Map<String, List<MemoryRecord>> out = new HashMap<>();
    if (keys.isEmpty()) return out;
    Query q =
        new BooleanQuery.Builder()
            .add(new org.apache.lucene.search.TermInSetQuery(Schema.FACT_KEY, keys), Occur.FILTER)
            .add(filter, Occur.FILTER)
            .build();
    int n = s.count(q);
    // every eligible record of these keys is a candidate, and no two candidates share a key
    if (n == keyed && keyed == keys.size()) return out;
    for (ScoreDoc sd : s.search(q, Math.max(1, n)).scoreDocs) {
      MemoryRecord r = StoredRecords.load(s, sd.doc, o.recordCache());
      MemoryRecord known = byId.get(r.id());
      out.computeIfAbsent(r.factKey(), k -> new ArrayList<>()).add(known != null ? known : r);
    }
    out.values().removeIf(v -> v.size() < 2);
    return out;
  }

  private static void rank(Map<Integer, int[]> ranks, TopDocs top, int signal) {
    for (int i = 0; i < top.scoreDocs.length; i++) {
      ranks.computeIfAbsent(top.scoreDocs[i].doc, d -> new int[4])[signal] = i + 1;
    }
  }
}

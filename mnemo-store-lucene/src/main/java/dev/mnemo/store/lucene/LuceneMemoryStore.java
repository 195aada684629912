package dev.mnemo.store.lucene;

import dev.mnemo.MemoryRecord;
import dev.mnemo.MnemoException;
import dev.mnemo.spi.Candidate;
import dev.mnemo.spi.CandidateQuery;
import dev.mnemo.spi.CandidateSet;
import dev.mnemo.spi.Eligibility;
import dev.mnemo.spi.MemoryStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.LongPoint;
import org.apache.lucene.index.FloatVectorValues;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.KnnVectorValues;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.ReaderUtil;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause.Occur;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.BoostQuery;
import org.apache.lucene.search.ConstantScoreQuery;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.KnnFloatVectorQuery;
import org.apache.lucene.search.MatchAllDocsQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.ScoreMode;
import org.apache.lucene.search.Scorer;
import org.apache.lucene.search.SearcherManager;
import org.apache.lucene.search.Sort;
import org.apache.lucene.search.SortField;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.search.Weight;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.util.BytesRef;
import org.apache.lucene.util.QueryBuilder;

/**
 * The embedded default store: one Lucene index in one directory.
 *
 * <p>Text is indexed with an English analyzer (Snowball stemming and stop list), vectors in an
 * HNSW graph (dot product on L2-normalized vectors), owner, scope, category, fact key, entities and
 * metadata as keyword fields, the four times as points. Every search runs with the
 * {@link Eligibility} as a Lucene filter, inside the kNN search (an exact scan of the eligible
 * vectors when few are eligible, else Lucene's filtered HNSW) and inside BM25, so nothing is
 * post-filtered from a top-k. A call computes the eligible documents once ({@link EligibleDocs}:
 * the fixed rules as a query the query cache keeps, the time rules on each segment's
 * {@link TimeColumns}) and hands them to each of its searches; records it loads are kept in a
 * bounded {@link RecordCache}.
 *
 * <p>Durability: {@link #apply} commits (fsync) before it returns and only then refreshes the
 * searcher, so a reader sees all of one call or none of it, and an acknowledged write survives a
 * crash. Thread-safe: writes are serialized, reads are concurrent.
 */
public final class LuceneMemoryStore implements MemoryStore {
  private final Directory directory;
  private final IndexWriter writer;
  private final SearcherManager searchers;
  private final Analyzer analyzer;
  private final Object writeLock = new Object();
  private volatile boolean failed;
  private final LuceneTurnLog turns;
  private final LazyRecallLog recalls;
  private final TimeColumns.Cache timeColumns;
  /**
   * One cache for the JVM, shared by every open store: a server opens a store per tenant, and the
   * bound must hold for all of them together (keys are segments, which no two stores share).
   */
  private static final RecordCache RECORDS = new RecordCache(RecordCache.DEFAULT_BYTES);

  private LuceneMemoryStore(Directory directory, IndexWriter writer, TimeColumns.Cache timeColumns, Analyzer analyzer,
      int exactScanMax, LuceneTurnLog turns, LazyRecallLog recalls) throws IOException {
    this.timeColumns = timeColumns;
    this.turns = turns;
    this.recalls = recalls;
    this.exactScanMax = exactScanMax;
    this.directory = directory;
    this.writer = writer;
    this.analyzer = analyzer;
    this.searchers = new SearcherManager(writer, null);
    this.embeddingModel = committedModel(writer);
  }

  /** The embedding model of the vectors in the index, kept in the commit data; null when none was written. */
  private volatile String embeddingModel;

  /** The folder of {@code dir} that holds the turn log (a second index; Lucene leaves folders it did not write alone). */
  static final String TURNS_DIR = "turns";

  /** The turn log kept beside the records, in {@code dir/turns}. */
  @Override
  public Optional<dev.mnemo.spi.TurnLog> turnLog() {
    return Optional.of(turns);
  }

  /** The folder of {@code dir} that holds the retrieval log (a third index). */
  static final String RECALLS_DIR = "recalls";

  /** The retrieval log kept beside the records, in {@code dir/recalls} (opened on first use). */
  @Override
  public Optional<dev.mnemo.spi.RecallLog> recallLog() {
    return Optional.of(recalls);
  }

  /** A count query with the eligibility filter. */
  @Override
  public long count(Eligibility eligibility) {
    IndexSearcher s = acquire();
    try {
      return s.count(Filters.of(eligibility, s.getIndexReader()));
    } catch (IOException e) {
      throw readFailed(e);
    } finally {
      release(s);
    }
  }

  /** The version of the index reader searches see: it changes with every commit. */
  @Override
  public String state() {
    IndexSearcher s = acquire();
    try {
      return "lucene:" + ((org.apache.lucene.index.DirectoryReader) s.getIndexReader()).getVersion();
    } finally {
      release(s);
    }
  }

  /** Records naming any of the source ids: a term query on the indexed sources. */
  @Override
  public List<MemoryRecord> bySources(String owner, Collection<String> sourceIds) {
    if (sourceIds.isEmpty()) return List.of();
    List<MemoryRecord> out = new ArrayList<>();
    List<String> ids = List.copyOf(new java.util.LinkedHashSet<>(sourceIds));
    int chunk = Math.max(1, IndexSearcher.getMaxClauseCount() - 1);
    java.util.Set<String> seen = new java.util.HashSet<>();
    for (int i = 0; i < ids.size(); i += chunk) {
      BooleanQuery.Builder any = new BooleanQuery.Builder();
      for (String id : ids.subList(i, Math.min(ids.size(), i + chunk))) any.add(term(Schema.SOURCE, id), Occur.SHOULD);
      for (MemoryRecord r : find(and(term(Schema.OWNER, owner), any.build()), Integer.MAX_VALUE)) {
        if (seen.add(r.id())) out.add(r);
      }
    }
    return out;
  }

  /** Opens (creating if needed) the store in {@code dir}; all committed data is there after a restart. */
  public static LuceneMemoryStore open(Path dir) {
    return open(dir, EXACT_SCAN_MAX);
  }

  /** Opens the store with another exact-scan limit (tests force the graph search with 0). */
  static LuceneMemoryStore open(Path dir, int exactScanMax) {
    try {
      Files.createDirectories(dir);
      return open(FSDirectory.open(dir), dir, exactScanMax);
    } catch (IOException e) {
      throw new MnemoException("cannot open the Lucene store in " + dir + ": " + e.getMessage(), false, e);
    }
  }

  /**
   * Opens the store over {@code d} (tests wrap it to inject faults), its turn log in {@code
   * dir/turns}. Exception-safe in Lucene's way: whatever fails, everything opened so far is closed
   * (the directory, the writer and its {@code write.lock}), so a failed open leaves no lock behind.
   * The index's format version is checked first.
   */
  static LuceneMemoryStore open(Directory d, Path dir, int exactScanMax) throws IOException {
    IndexWriter w = null;
    LuceneTurnLog turns = null;
    boolean success = false;
    try {
      checkFormat(d, dir);
      Analyzer analyzer = Analyzers.english();
      IndexWriterConfig cfg = new IndexWriterConfig(analyzer);
      cfg.setOpenMode(IndexWriterConfig.OpenMode.CREATE_OR_APPEND);
      cfg.setCommitOnClose(true);
      // A merged segment's time columns are read in the merge thread, before searches see it, so
      // the first recall after a merge does not pay for them. Only a head start: a failure here
      // must not fail the merge (the first search reads them instead).
      TimeColumns.Cache columns = new TimeColumns.Cache();
      cfg.setMergedSegmentWarmer(r -> {
        try {
          columns.of(r);
        } catch (IOException | RuntimeException e) {
          // read on first use
        }
      });
      w = new IndexWriter(d, cfg);
      turns = LuceneTurnLog.open(dir.resolve(TURNS_DIR));
      LuceneMemoryStore store = new LuceneMemoryStore(d, w, columns, analyzer, exactScanMax, turns,
          new LazyRecallLog(dir.resolve(RECALLS_DIR)));
      success = true;
      return store;
    } finally {
      if (!success) {
        // rollback, not close: a failed open must not commit anything either
        if (w != null) org.apache.lucene.util.IOUtils.closeWhileHandlingException(w::rollback);
        java.io.Closeable log = turns == null ? null : turns::close;
        org.apache.lucene.util.IOUtils.closeWhileHandlingException(log, d);
      }
    }
  }

  /** Refuses an index written in another format than {@link Schema#FORMAT_VERSION}, saying what to do. */
  private static void checkFormat(Directory d, Path dir) throws IOException {
    if (!org.apache.lucene.index.DirectoryReader.indexExists(d)) return;
    var commits = org.apache.lucene.index.DirectoryReader.listCommits(d);
    String format = commits.get(commits.size() - 1).getUserData().get("format");
    if (format != null && !format.equals(Schema.FORMAT_VERSION)) {
      throw new MnemoException("the store in " + dir + " has index format " + format + "; this version of Mnemo reads "
          + "format " + Schema.FORMAT_VERSION + ". Open it with the Mnemo that wrote it and move the data with "
          + "./mnemo export, then ./mnemo import into a new directory", false);
    }
  }

  @Override
  public Optional<String> embeddingModel() {
    return Optional.ofNullable(embeddingModel);
  }

  /** Reads the model id the last commit recorded (null: none yet). */
  private static String committedModel(IndexWriter w) {
    for (var e : w.getLiveCommitData() == null ? List.<Map.Entry<String, String>>of() : w.getLiveCommitData()) {
      if (e.getKey().equals("embedding_model")) return e.getValue();
    }
    return null;
  }

  @Override
  public void apply(List<MemoryRecord> upserts, Collection<String> deleteIds) {
    synchronized (writeLock) {
      checkWritable();
      List<Document> docs = new ArrayList<>(upserts.size());
      try {
        for (MemoryRecord r : upserts) docs.add(Schema.checkedDocument(r));
      } catch (IllegalArgumentException e) {
        // refused before the writer saw anything: the store stays writable
        throw new MnemoException("write refused, nothing was written: " + e.getMessage(), false, e);
      }
      try {
        for (int i = 0; i < docs.size(); i++) {
          writer.updateDocument(new Term(Schema.ID, upserts.get(i).id()), docs.get(i));
        }
        for (String id : deleteIds) {
          writer.deleteDocuments(new Term(Schema.ID, id));
        }
        String model = embeddingModel;
        for (MemoryRecord r : upserts) if (r.embeddingModel() != null && !r.embeddingModel().isEmpty()) model = r.embeddingModel();
        writer.setLiveCommitData(model == null ? Map.of("format", Schema.FORMAT_VERSION).entrySet()
            : Map.of("format", Schema.FORMAT_VERSION, "embedding_model", model).entrySet());
        writer.commit();
        embeddingModel = model;
        searchers.maybeRefreshBlocking();
      } catch (IOException | RuntimeException e) {
        rollbackQuietly(e);
        throw new MnemoException("write failed, nothing was acknowledged: " + e.getMessage(), false, e);
      }
    }
  }

  private void rollbackQuietly(Exception cause) {
    // Uncommitted changes of a failed call must never ride along with a later commit: roll the
    // writer back to the last commit, which closes it; the store then refuses further writes.
    failed = true;
    try {
      writer.rollback();
    } catch (IOException | RuntimeException e) {
      cause.addSuppressed(e);
    }
  }

  @Override
  public Optional<MemoryRecord> get(String owner, String id) {
    List<MemoryRecord> r = find(and(term(Schema.OWNER, owner), term(Schema.ID, id)), 1);
    return r.isEmpty() ? Optional.empty() : Optional.of(r.get(0));
  }

  @Override
  public List<MemoryRecord> versions(String owner, String factKey) {
    return versions(owner, factKey, ReadOptions.DEFAULT);
  }

  /** A fact key's versions: the read path asks for them right after the candidates, which are often among them. */
  private List<MemoryRecord> versions(String owner, String factKey, ReadOptions o) {
    return find(and(term(Schema.OWNER, owner), term(Schema.FACT_KEY, factKey)), Integer.MAX_VALUE, o.recordCache());
  }

  @Override
  public List<MemoryRecord> lineage(String owner, String id) {
    Query either = new BooleanQuery.Builder()
        .add(term(Schema.ID, id), Occur.SHOULD)
        .add(term(Schema.ORIGIN, id), Occur.SHOULD)
        .setMinimumNumberShouldMatch(1)
        .build();
    return find(and(term(Schema.OWNER, owner), either), Integer.MAX_VALUE);
  }

  @Override
  public List<MemoryRecord> latest(Eligibility eligibility, int limit) {
    IndexSearcher s = acquire();
    try {
      Sort sort = new Sort(new SortField(Schema.RECORDED, SortField.Type.LONG, true),
          new SortField(Schema.ID, SortField.Type.STRING));
      TopDocs top = s.search(new ConstantScoreQuery(Filters.of(eligibility, s.getIndexReader())), Math.max(1, limit), sort);
      List<MemoryRecord> out = new ArrayList<>();
      for (ScoreDoc sd : top.scoreDocs) out.add(load(s, sd.doc));
      return out;
    } catch (IOException e) {
      throw readFailed(e);
    } finally {
      release(s);
    }
  }

  /**
   * How the store reads, lever by lever; every combination returns the same candidates (tests hold
   * it), so a benchmark can measure what each one gains against the others in one run.
   *
   * @param eligibleOnce compute the eligible documents once per call ({@link EligibleDocs}) and
   *     pass them to every search as a filter that is neither re-evaluated nor cached, instead of
   *     the eligibility query in each search
   * @param recordCache keep loaded records ({@link RecordCache}) instead of decoding stored fields
   *     and vectors for every candidate of every call
   */
  public record ReadOptions(boolean eligibleOnce, boolean recordCache) {
    /** Every lever on: what the store does. */
    public static final ReadOptions DEFAULT = new ReadOptions(true, true);
    /** Every lever off: how the store read before them. */
    public static final ReadOptions BASELINE = new ReadOptions(false, false);
  }

  /**
   * This store read with other {@link ReadOptions} (benchmarks and equivalence tests): the same
   * index, writer and searchers; closing the view closes nothing.
   */
  public MemoryStore withReadOptions(ReadOptions options) {
    return new View(options);
  }

  @Override
  public CandidateSet candidates(CandidateQuery q) {
    return candidates(q, ReadOptions.DEFAULT);
  }

  private CandidateSet candidates(CandidateQuery q, ReadOptions o) {
    IndexSearcher s = acquire();
    try {
      Query filter;
      long eligible = -1; // counted once, when first needed
      Eligibility eligibility = Filters.forIndex(q.eligibility(), s.getIndexReader());
      if (o.eligibleOnce()) {
        EligibleDocs docs = EligibleDocs.compute(s, eligibility, timeColumns);
        filter = docs.asQuery();
        eligible = docs.count();
      } else {
        filter = Filters.of(eligibility);
      }
      Map<Integer, int[]> ranks = new LinkedHashMap<>(); // doc -> {dense, bm25, entity, time}
      if (q.vector() != null) {
        if (eligible < 0) eligible = s.count(filter);
        rank(ranks, dense(s, q.vector(), filter, eligible, q.perSignal()), 0);
      }
      Query text = textQuery(q.text(), q.contextWeight());
      if (text != null) {
        TopDocs top = s.search(and(text, filter), q.perSignal());
        rank(ranks, top, 1);
      }
      if (!q.entities().isEmpty()) {
        BooleanQuery.Builder any = new BooleanQuery.Builder();
        for (String e : q.entities()) {
          any.add(new ConstantScoreQuery(term(Schema.ENTITY, e)), Occur.SHOULD);
        }
        TopDocs top = s.search(and(any.build(), filter), q.perSignal());
        rank(ranks, top, 2);
      }
      if (q.timeRange() != null) {
        Query inRange = LongPoint.newRangeQuery(Schema.VALID_FROM, q.timeRange().from().toEpochMilli(),
            q.timeRange().to().toEpochMilli() - 1);
        // Newest first; equal times in index order. Not by id: ids are random, so a tie at the list's
        // cut (a conversation's turns share their session's time) would change from run to run.
        Sort newest = new Sort(new SortField(Schema.RECORDED, SortField.Type.LONG, true));
        TopDocs top = s.search(new ConstantScoreQuery(and(inRange, filter)), q.perSignal(), newest);
        rank(ranks, top, 3);
      }
      if (ranks.isEmpty()) return CandidateSet.empty();
      Map<Integer, Float> bm25 = exactBm25(s, text, ranks);
      List<Candidate> out = new ArrayList<>(ranks.size());
      for (var e : ranks.entrySet()) {
        int doc = e.getKey();
        int[] r = e.getValue();
        MemoryRecord rec = load(s, doc, o.recordCache());
        double cos = Double.NaN;
        if (q.vector() != null && rec.embedding() != null && rec.embedding().length == q.vector().length) {
          double dot = 0;
          for (int i = 0; i < q.vector().length; i++) dot += q.vector()[i] * rec.embedding()[i];
          cos = dot;
        }
        out.add(new Candidate(rec, cos, bm25.getOrDefault(doc, 0f), r[0], r[1], r[2], r[3]));
      }
      Map<String, Long> entityFrequencies = new java.util.TreeMap<>();
      if (!q.entities().isEmpty()) {
        java.util.Set<String> named = new java.util.TreeSet<>();
        for (Candidate c : out) for (String e : c.record().entities()) if (q.entities().contains(e)) named.add(e);
        if (!named.isEmpty()) {
          if (eligible < 0) eligible = s.count(filter);
          for (String e : named) entityFrequencies.put(e, (long) s.count(and(term(Schema.ENTITY, e), filter)));
        }
      }
      return new CandidateSet(out, bm25Max(s, q.text()), entityFrequencies.isEmpty() ? 0 : eligible, entityFrequencies);
    } catch (IOException e) {
      throw readFailed(e);
    } finally {
      release(s);
    }
  }

  /**
   * The highest score BM25 could give any record for {@code text}: the sum of the query tokens' IDF
   * (Lucene's BM25 term score is {@code idf * tf / (tf + k1 * norm)}, which tends to idf as tf
   * grows). Dividing by it puts BM25 on a [0, 1] scale that means the same in a store of ten
   * records and one of ten million.
   */
  private double bm25Max(IndexSearcher s, String text) throws IOException {
    if (text == null || text.isBlank()) return 0;
    var stats = s.collectionStatistics(Schema.TEXT);
    if (stats == null) return 0;
    long n = stats.docCount();
    double max = 0;
    try (var ts = analyzer.tokenStream(Schema.TEXT, text)) {
      var term = ts.addAttribute(org.apache.lucene.analysis.tokenattributes.TermToBytesRefAttribute.class);
      ts.reset();
      while (ts.incrementToken()) {
        Term t = new Term(Schema.TEXT, BytesRef.deepCopyOf(term.getBytesRef()));
        // a query word no record contains still counts: it is part of what was asked
        int df = s.getIndexReader().docFreq(t);
        max += Math.log(1 + (n - df + 0.5) / (df + 0.5));
      }
      ts.end();
    }
    return max;
  }

  /**
   * Eligible records at or below this count are scored exactly instead of through the HNSW graph.
   * Measured at 1M records: with an owner holding 1 % of the index, Lucene's filtered graph search
   * explored, gave up and then scanned (22 ms) where the scan alone took 4.9 ms; at 10 % the graph
   * search succeeded in 11-12 ms. Exact scoring is also exact: no recall lost to the graph.
   */
  static final int EXACT_SCAN_MAX = 20_000;

  private final int exactScanMax;

  /** The {@code k} eligible records nearest to {@code vector}: an exact scan when few are eligible. */
  private TopDocs dense(IndexSearcher s, float[] vector, Query filter, long eligible, int k) throws IOException {
    if (eligible > exactScanMax) {
      return s.search(new KnnFloatVectorQuery(Schema.VECTOR, vector, k, filter), k);
    }
    TopK heap = new TopK(k);
    Weight w = s.createWeight(s.rewrite(new ConstantScoreQuery(filter)), ScoreMode.COMPLETE_NO_SCORES, 1f);
    for (LeafReaderContext leaf : s.getIndexReader().leaves()) {
      FloatVectorValues values = leaf.reader().getFloatVectorValues(Schema.VECTOR);
      Scorer scorer = values == null ? null : w.scorer(leaf);
      if (scorer == null) continue;
      KnnVectorValues.DocIndexIterator vit = values.iterator();
      DocIdSetIterator docs = scorer.iterator();
      var live = leaf.reader().getLiveDocs();
      for (int doc = docs.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = docs.nextDoc()) {
        if (live != null && !live.get(doc)) continue;
        if (vit.docID() < doc) vit.advance(doc);
        if (vit.docID() != doc) continue;
        float[] v = values.vectorValue(vit.index());
        if (v.length != vector.length) continue;
        // the same score Lucene's DOT_PRODUCT similarity gives, so both paths rank alike
        float score = Math.max((1 + org.apache.lucene.util.VectorUtil.dotProduct(vector, v)) / 2, 0);
        heap.offer(leaf.docBase + doc, score);
      }
    }
    ScoreDoc[] out = heap.drain();
    return new TopDocs(new org.apache.lucene.search.TotalHits(out.length,
        org.apache.lucene.search.TotalHits.Relation.EQUAL_TO), out);
  }

  /**
   * The {@code k} best (score, doc) pairs, higher score first and the lower doc first among equal
   * scores, in a heap of primitive longs (score's sortable bits above, the inverted doc below) rather
   * than one boxed {@link ScoreDoc} per scanned vector.
   */
  static final class TopK {
    private final org.apache.lucene.util.LongHeap heap;
    private final int k;

    TopK(int k) {
      this.k = k;
      this.heap = new org.apache.lucene.util.LongHeap(k);
    }

    void offer(int doc, float score) {
      long v = ((long) org.apache.lucene.util.NumericUtils.floatToSortableInt(score) << 32) | (0xFFFFFFFFL - doc);
      if (heap.size() < k) {
        heap.push(v);
      } else if (v > heap.top()) {
        heap.updateTop(v);
      }
    }

    /** The kept pairs, best first; empties the heap. */
    ScoreDoc[] drain() {
      ScoreDoc[] out = new ScoreDoc[heap.size()];
      for (int i = out.length - 1; i >= 0; i--) {
        long v = heap.pop();
        out[i] = new ScoreDoc((int) (0xFFFFFFFFL - (v & 0xFFFFFFFFL)),
            org.apache.lucene.util.NumericUtils.sortableIntToFloat((int) (v >>> 32)));
      }
      return out;
    }
  }

  /**
   * BM25 scores of every candidate: the text query's scorer advanced to each candidate doc, segment
   * by segment (the same scores a search would give them, without reading ids back from stored
   * fields or searching again).
   */
  private Map<Integer, Float> exactBm25(IndexSearcher s, Query text, Map<Integer, int[]> ranks) throws IOException {
    Map<Integer, Float> out = new HashMap<>();
    if (text == null) return out;
    int[] docs = ranks.keySet().stream().mapToInt(Integer::intValue).sorted().toArray();
    Weight weight = s.createWeight(s.rewrite(text), ScoreMode.COMPLETE, 1f);
    List<LeafReaderContext> leaves = s.getIndexReader().leaves();
    int i = 0;
    while (i < docs.length) {
      LeafReaderContext leaf = leaves.get(ReaderUtil.subIndex(docs[i], leaves));
      int end = leaf.docBase + leaf.reader().maxDoc();
      Scorer scorer = weight.scorer(leaf);
      DocIdSetIterator it = scorer == null ? null : scorer.iterator();
      for (; i < docs.length && docs[i] < end; i++) {
        if (it == null) continue;
        int local = docs[i] - leaf.docBase;
        if (it.docID() < local) it.advance(local);
        if (it.docID() == local) out.put(docs[i], scorer.score());
      }
    }
    return out;
  }

  private static void rank(Map<Integer, int[]> ranks, TopDocs top, int signal) {
    for (int i = 0; i < top.scoreDocs.length; i++) {
      ranks.computeIfAbsent(top.scoreDocs[i].doc, d -> new int[4])[signal] = i + 1;
    }
  }

  /**
   * The BM25 query: the analyzed query words as optional clauses over the record text, plus the
   * context (neighbouring turns, dates) at the query's context weight. Null for a query with no words.
   */
  private Query textQuery(String text, double contextWeight) {
    if (text == null || text.isBlank()) return null;
    QueryBuilder qb = new QueryBuilder(analyzer);
    Query main = qb.createBooleanQuery(Schema.TEXT, text, Occur.SHOULD);
    if (main == null) return null;
    Query ctx = contextWeight <= 0 ? null : qb.createBooleanQuery(Schema.CONTEXT, text, Occur.SHOULD);
    if (ctx == null) return main;
    return new BooleanQuery.Builder()
        .add(main, Occur.SHOULD)
        .add(new BoostQuery(ctx, (float) contextWeight), Occur.SHOULD)
        .build();
  }

  private void checkWritable() {
    if (failed) {
      throw new MnemoException("the store was rolled back to its last commit after a failed write; reopen it", false);
    }
  }

  @Override
  public int deleteOwner(String owner) {
    synchronized (writeLock) {
      checkWritable();
      IndexSearcher s = acquire();
      int n;
      try {
        n = s.count(term(Schema.OWNER, owner));
      } catch (IOException e) {
        throw readFailed(e);
      } finally {
        release(s);
      }
      try {
        writer.deleteDocuments(term(Schema.OWNER, owner));
        // A right to be forgotten: merge the deleted documents away so text and vectors are gone
        // from the files, not just hidden.
        writer.forceMergeDeletes(true);
        writer.commit();
        searchers.maybeRefreshBlocking();
      } catch (IOException | RuntimeException e) {
        rollbackQuietly(e);
        throw new MnemoException("forget failed for owner " + owner + ": " + e.getMessage(), false, e);
      }
      return n;
    }
  }

  /** Hits per page of {@link #export} (and of the turn log's export). */
  static final int EXPORT_PAGE = 1000;

  @Override
  public void export(String owner, Consumer<MemoryRecord> sink) {
    IndexSearcher s = acquire();
    try {
      Query q = owner == null ? new MatchAllDocsQuery() : term(Schema.OWNER, owner);
      Sort sort = new Sort(new SortField(Schema.RECORDED, SortField.Type.LONG), new SortField(Schema.ID, SortField.Type.STRING));
      // One searcher (a point-in-time view) read a page at a time with searchAfter: the records
      // reach the sink as they are read, and memory holds one page of hits, not every hit.
      ScoreDoc after = null;
      while (true) {
        TopDocs page = after == null ? s.search(q, EXPORT_PAGE, sort) : s.searchAfter(after, q, EXPORT_PAGE, sort);
        for (ScoreDoc sd : page.scoreDocs) sink.accept(load(s, sd.doc));
        if (page.scoreDocs.length < EXPORT_PAGE) break;
        after = page.scoreDocs[page.scoreDocs.length - 1];
      }
    } catch (IOException e) {
      throw readFailed(e);
    } finally {
      release(s);
    }
  }

  @Override
  public long count() {
    IndexSearcher s = acquire();
    try {
      return s.getIndexReader().numDocs();
    } finally {
      release(s);
    }
  }

  /** Bytes of the index files on disk. */
  public long sizeOnDisk() {
    try {
      long total = 0;
      for (String f : directory.listAll()) total += directory.fileLength(f);
      return total;
    } catch (IOException e) {
      throw readFailed(e);
    }
  }

  @Override
  public void close() {
    // Every resource is closed even when one fails (Lucene's IOUtils.close): a turn log that fails
    // to close must not leave the index's write.lock held.
    try {
      org.apache.lucene.util.IOUtils.close(turns::close, recalls::close, searchers, failed ? null : writer, directory);
    } catch (IOException e) {
      throw new MnemoException("closing the Lucene store failed: " + e.getMessage(), false, e);
    }
  }

  private List<MemoryRecord> find(Query q, int limit) {
    return find(q, limit, false);
  }

  private List<MemoryRecord> find(Query q, int limit, boolean cached) {
    IndexSearcher s = acquire();
    try {
      int n = limit == Integer.MAX_VALUE ? Math.max(1, s.count(q)) : limit;
      Sort sort = new Sort(new SortField(Schema.RECORDED, SortField.Type.LONG), new SortField(Schema.ID, SortField.Type.STRING));
      TopDocs top = s.search(q, n, sort);
      List<MemoryRecord> out = new ArrayList<>();
      for (ScoreDoc sd : top.scoreDocs) out.add(load(s, sd.doc, cached));
      return out;
    } catch (IOException e) {
      throw readFailed(e);
    } finally {
      release(s);
    }
  }

  private static MemoryRecord load(IndexSearcher s, int doc) throws IOException {
    List<LeafReaderContext> leaves = s.getIndexReader().leaves();
    LeafReaderContext leaf = leaves.get(ReaderUtil.subIndex(doc, leaves));
    return load(leaf, doc - leaf.docBase);
  }

  /** The record of {@code doc}, from the cache when {@code cached} (records of a segment never change). */
  private MemoryRecord load(IndexSearcher s, int doc, boolean cached) throws IOException {
    if (!cached) return load(s, doc);
    List<LeafReaderContext> leaves = s.getIndexReader().leaves();
    LeafReaderContext leaf = leaves.get(ReaderUtil.subIndex(doc, leaves));
    return RECORDS.get(leaf.reader(), doc - leaf.docBase, () -> load(leaf, doc - leaf.docBase));
  }

  private static MemoryRecord load(LeafReaderContext leaf, int local) throws IOException {
    Document d = leaf.reader().storedFields().document(local);
    return Schema.fromDocument(d, vector(leaf, local));
  }

  /** The record's raw vector, read from the vector values of its segment (not stored twice). */
  private static float[] vector(LeafReaderContext leaf, int local) throws IOException {
    FloatVectorValues values = leaf.reader().getFloatVectorValues(Schema.VECTOR);
    if (values == null) return null;
    KnnVectorValues.DocIndexIterator it = values.iterator();
    if (it.advance(local) != local) return null;
    return values.vectorValue(it.index()).clone();
  }

  private IndexSearcher acquire() {
    try {
      return searchers.acquire();
    } catch (IOException e) {
      throw readFailed(e);
    }
  }

  private void release(IndexSearcher s) {
    try {
      searchers.release(s);
    } catch (IOException e) {
      throw readFailed(e);
    }
  }

  private static MnemoException readFailed(IOException e) {
    return new MnemoException("reading the Lucene store failed: " + e.getMessage(), false, e);
  }

  static Query term(String field, String value) {
    return new TermQuery(new Term(field, value));
  }

  static Query and(Query must, Query filter) {
    return new BooleanQuery.Builder().add(must, Occur.MUST).add(filter, Occur.FILTER).build();
  }

  /** This store read with other {@link ReadOptions}; everything else is the store's own. */
  private final class View implements MemoryStore {
    private final ReadOptions options;

    View(ReadOptions options) {
      this.options = options;
    }

    @Override public CandidateSet candidates(CandidateQuery q) { return LuceneMemoryStore.this.candidates(q, options); }
    @Override public List<MemoryRecord> versions(String owner, String key) { return LuceneMemoryStore.this.versions(owner, key, options); }
    @Override public void apply(List<MemoryRecord> upserts, Collection<String> deleteIds) { LuceneMemoryStore.this.apply(upserts, deleteIds); }
    @Override public Optional<MemoryRecord> get(String owner, String id) { return LuceneMemoryStore.this.get(owner, id); }
    @Override public List<MemoryRecord> lineage(String owner, String id) { return LuceneMemoryStore.this.lineage(owner, id); }
    @Override public List<MemoryRecord> latest(Eligibility e, int limit) { return LuceneMemoryStore.this.latest(e, limit); }
    @Override public int deleteOwner(String owner) { return LuceneMemoryStore.this.deleteOwner(owner); }
    @Override public void export(String owner, Consumer<MemoryRecord> sink) { LuceneMemoryStore.this.export(owner, sink); }
    @Override public List<MemoryRecord> bySources(String owner, Collection<String> ids) { return LuceneMemoryStore.this.bySources(owner, ids); }
    @Override public Optional<dev.mnemo.spi.TurnLog> turnLog() { return LuceneMemoryStore.this.turnLog(); }
    @Override public Optional<String> embeddingModel() { return LuceneMemoryStore.this.embeddingModel(); }
    @Override public Optional<dev.mnemo.spi.RecallLog> recallLog() { return LuceneMemoryStore.this.recallLog(); }
    @Override public long count(Eligibility e) { return LuceneMemoryStore.this.count(e); }
    @Override public String state() { return LuceneMemoryStore.this.state(); }
    @Override public long count() { return LuceneMemoryStore.this.count(); }
    @Override public void close() {}
  }
}

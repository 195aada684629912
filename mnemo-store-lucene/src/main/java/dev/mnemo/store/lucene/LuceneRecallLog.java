package dev.mnemo.store.lucene;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.mnemo.CandidateTrace;
import dev.mnemo.LoggedRecall;
import dev.mnemo.MnemoException;
import dev.mnemo.RecallLogQuery;
import dev.mnemo.RecallStats;
import dev.mnemo.json.JsonCodec;
import dev.mnemo.json.RecallLogJson;
import dev.mnemo.spi.RecallLog;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.apache.lucene.codecs.lucene103.Lucene103Codec;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.LongPoint;
import org.apache.lucene.document.NumericDocValuesField;
import org.apache.lucene.document.SortedDocValuesField;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.NumericDocValues;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause.Occur;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.CollectorManager;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.MatchAllDocsQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.ScoreMode;
import org.apache.lucene.search.SearcherManager;
import org.apache.lucene.search.SimpleCollector;
import org.apache.lucene.search.Sort;
import org.apache.lucene.search.SortField;
import org.apache.lucene.search.TermInSetQuery;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.store.Directory;
import org.apache.lucene.util.BytesRef;

/**
 * The Lucene store's retrieval log: a third Lucene index in the {@code recalls} folder of the
 * store's directory, one document per logged recall. The entry itself is stored whole in its JSON
 * form ({@link RecallLogJson#entry}); beside it are indexed what a search needs: owner, logged time
 * (a point, and a doc value for newest-first order), the query's words (English analysis, as the
 * records'), every candidate's id and its outcome, the recall's outcome (selected or empty), and
 * doc values of the selected, used and injected-token counts for the rates.
 *
 * <p>Every change commits (fsync) before it returns. Forgetting an owner deletes its documents;
 * forgetting records rewrites the documents that show them without them; both then merge the
 * deleted documents away so no copy stays in the files. Thread-safe: writes serialized, reads
 * concurrent.
 */
final class LuceneRecallLog implements RecallLog {
  private static final String ID = "id";
  private static final String OWNER = "owner";
  private static final String AT = "at";
  private static final String AT_SORT = "at_sort";
  private static final String TEXT = "text";
  private static final String CANDIDATE = "cand";
  private static final String CANDIDATE_OUTCOME = "cand_outcome";
  private static final String SELECTED = "sel";
  private static final String RESULT = "result";
  private static final String N_SELECTED = "n_sel";
  private static final String N_USED = "n_used";
  private static final String TOKENS = "tokens";
  private static final String JSON = "json";

  private final Directory directory;
  private final IndexWriter writer;
  private final SearcherManager searchers;
  private final Analyzer analyzer;
  private final Object writeLock = new Object();

  /**
   * The commit data key of {@link #oldest}: so that a process can tell, from the last commit alone
   * and without opening the index, that retention has nothing to delete ({@link #oldestCommitted}).
   */
  static final String OLDEST_KEY = "oldest_at";

  /**
   * At most the logged time (epoch milliseconds) of the oldest entry: {@link Long#MAX_VALUE} for
   * none, {@link Long#MIN_VALUE} when not known (an index from before the key). Guarded by {@link
   * #writeLock}.
   */
  private long oldest;

  private LuceneRecallLog(Directory directory, IndexWriter writer, Analyzer analyzer)
      throws IOException {
    this.directory = directory;
    this.writer = writer;
    this.analyzer = analyzer;
    this.searchers = new SearcherManager(writer, null);
    String committed = commitData(writer.getLiveCommitData(), OLDEST_KEY);
    this.oldest =
        committed != null
            ? Long.parseLong(committed)
            : writer.getDocStats().numDocs == 0 ? Long.MAX_VALUE : Long.MIN_VALUE;
  }

  private static String commitData(Iterable<java.util.Map.Entry<String, String>> data, String key) {
    if (data != null) for (var e : data) if (e.getKey().equals(key)) return e.getValue();
    return null;
  }

  /**
   * What the last commit of the log in {@code dir} says of its oldest entry, without opening a
   * writer: empty when there is no log, its value otherwise (see {@link #oldest}; {@link
   * Long#MIN_VALUE} when the commit does not say).
   */
  static java.util.OptionalLong oldestCommitted(Path dir) throws IOException {
    if (!Files.isDirectory(dir)) return java.util.OptionalLong.empty();
    try (Directory d = org.apache.lucene.store.FSDirectory.open(dir)) {
      if (!org.apache.lucene.index.DirectoryReader.indexExists(d))
        return java.util.OptionalLong.empty();
      String v =
          org.apache.lucene.index.SegmentInfos.readLatestCommit(d).getUserData().get(OLDEST_KEY);
      return java.util.OptionalLong.of(v == null ? Long.MIN_VALUE : Long.parseLong(v));
    }
  }

  static LuceneRecallLog open(Path dir) {
    try {
      Files.createDirectories(dir);
      Directory d = SyncNewFilesDirectory.open(dir);
      try {
        FormatVersion.checkIndex("retrieval log", dir, d, FormatVersion.SIDE_INDEX);
      } catch (IOException | RuntimeException e) {
        d.close();
        throw e;
      }
      Analyzer analyzer = Analyzers.english();
      IndexWriterConfig cfg = new IndexWriterConfig(analyzer);
      cfg.setOpenMode(IndexWriterConfig.OpenMode.CREATE_OR_APPEND);
      cfg.setCommitOnClose(true);
      // Entries are read rarely and are mostly JSON, which DEFLATE shrinks far more than the
      // default LZ4: the smaller log is worth the slower read of one entry.
      cfg.setCodec(new Lucene103Codec(Lucene103Codec.Mode.BEST_COMPRESSION));
      // forceMergeDeletes must merge away every segment holding a deleted (forgotten) entry, not
      // only those above the default 10 % of deletions
      org.apache.lucene.index.TieredMergePolicy merges =
          new org.apache.lucene.index.TieredMergePolicy();
      merges.setForceMergeDeletesPctAllowed(0);
      cfg.setMergePolicy(merges);
      IndexWriter w = new IndexWriter(d, cfg);
      FormatVersion.stamp(w, FormatVersion.SIDE_INDEX);
      return new LuceneRecallLog(d, w, analyzer);
    } catch (IOException e) {
      throw new MnemoException(
          "cannot open the retrieval log in " + dir + ": " + e.getMessage(), false, e);
    }
  }

  private static String outcomeKey(String id, String outcome) {
    return id + "\u0000" + outcome;
  }

  private static Document document(LoggedRecall e) {
    return document(e, RecallLogJson.entry(e));
  }

  /** The document of {@code e}, storing {@code json} (its whole form) as it is. */
  private static Document document(LoggedRecall e, JsonNode json) {
    Document d = new Document();
    d.add(new StringField(ID, e.id(), Field.Store.NO));
    d.add(new SortedDocValuesField(ID, new BytesRef(e.id())));
    d.add(new StringField(OWNER, e.owner(), Field.Store.NO));
    long at = e.loggedAt().toEpochMilli();
    d.add(new LongPoint(AT, at));
    d.add(new NumericDocValuesField(AT_SORT, at));
    d.add(new TextField(TEXT, e.request().query(), Field.Store.NO));
    for (CandidateTrace c : e.trace().candidates()) {
      d.add(new StringField(CANDIDATE, c.id(), Field.Store.NO));
      d.add(
          new StringField(
              CANDIDATE_OUTCOME,
              outcomeKey(c.id(), c.outcome() == null ? "unranked" : c.outcome().code()),
              Field.Store.NO));
    }
    for (String s : e.selected()) d.add(new StringField(SELECTED, s, Field.Store.NO));
    d.add(new StringField(RESULT, e.abstained() ? "empty" : "selected", Field.Store.NO));
    d.add(new NumericDocValuesField(N_SELECTED, e.selected().size()));
    d.add(new NumericDocValuesField(N_USED, e.used().size()));
    d.add(new NumericDocValuesField(TOKENS, e.abstained() ? 0 : e.renderedTokens()));
    try {
      d.add(new StoredField(JSON, JsonCodec.WRITER.writeValueAsString(json)));
    } catch (JsonProcessingException x) {
      throw new UncheckedIOException(x);
    }
    return d;
  }

  @Override
  public void append(List<LoggedRecall> entries) {
    if (entries.isEmpty()) return;
    synchronized (writeLock) {
      try {
        for (LoggedRecall e : entries) {
          writer.updateDocument(new Term(ID, e.id()), document(e));
          oldest = Math.min(oldest, e.loggedAt().toEpochMilli());
        }
        commit();
      } catch (IOException | RuntimeException e) {
        throw failed("append", e);
      }
    }
  }

  /**
   * Stores entries in their whole JSON form as written (the retrieval log's journal), replacing one
   * of the same id, with one commit.
   */
  void appendStored(List<JsonNode> entries) {
    if (entries.isEmpty()) return;
    synchronized (writeLock) {
      try {
        for (JsonNode json : entries) {
          LoggedRecall e = RecallLogJson.entry(json);
          writer.updateDocument(new Term(ID, e.id()), document(e, json));
          oldest = Math.min(oldest, e.loggedAt().toEpochMilli());
        }
        commit();
      } catch (IOException | RuntimeException e) {
        throw failed("append", e);
      }
    }
  }

  @Override
  public Optional<LoggedRecall> get(String id) {
    List<LoggedRecall> r = find(new TermQuery(new Term(ID, id)), 0, 1);
    return r.isEmpty() ? Optional.empty() : Optional.of(r.get(0));
  }

  @Override
  public List<LoggedRecall> search(RecallLogQuery q) {
    return find(query(q), q.offset(), q.limit());
  }

  @Override
  public long count(RecallLogQuery q) {
    return withSearcher(s -> (long) s.count(query(q)));
  }

  @Override
  public RecallStats stats(RecallLogQuery q) {
    long[] sums =
        withSearcher(
            s ->
                s.search(
                    query(q),
                    new CollectorManager<StatsCollector, long[]>() {
                      @Override
                      public StatsCollector newCollector() {
                        return new StatsCollector();
                      }

                      @Override
                      public long[] reduce(Collection<StatsCollector> collectors) {
                        long[] t = new long[5];
                        for (StatsCollector c : collectors)
                          for (int i = 0; i < t.length; i++) t[i] += c.sums[i];
                        return t;
                      }
                    }));
    return new RecallStats(sums[0], sums[1], sums[2], sums[3], sums[4], 0);
  }

  /** Sums, per matching document: recalls, fetched, selected, used, injected tokens. */
  private static final class StatsCollector extends SimpleCollector {
    final long[] sums = new long[5];
    private NumericDocValues sel;
    private NumericDocValues used;
    private NumericDocValues tokens;

    @Override
    protected void doSetNextReader(LeafReaderContext ctx) throws IOException {
      sel = ctx.reader().getNumericDocValues(N_SELECTED);
      used = ctx.reader().getNumericDocValues(N_USED);
      tokens = ctx.reader().getNumericDocValues(TOKENS);
    }

    @Override
    public void collect(int doc) throws IOException {
      long n = value(sel, doc);
      sums[0]++;
      if (n > 0) sums[1]++;
      sums[2] += n;
      sums[3] += value(used, doc);
      sums[4] += value(tokens, doc);
    }

    private static long value(NumericDocValues v, int doc) throws IOException {
      return v != null && v.advanceExact(doc) ? v.longValue() : 0;
    }

    @Override
    public ScoreMode scoreMode() {
      return ScoreMode.COMPLETE_NO_SCORES;
    }
  }

  @Override
  public boolean markUsed(String owner, Collection<String> ids, Instant at) {
    if (ids.isEmpty()) return false;
    synchronized (writeLock) {
      // a term set, not a disjunction of term queries: no clause limit for a long list of ids
      Query any = new TermInSetQuery(SELECTED, ids.stream().map(BytesRef::new).toList());
      Query q =
          new BooleanQuery.Builder()
              .add(new TermQuery(new Term(OWNER, owner)), Occur.FILTER)
              .add(any, Occur.FILTER)
              .add(LongPoint.newRangeQuery(AT, Long.MIN_VALUE, at.toEpochMilli()), Occur.FILTER)
              .build();
      List<LoggedRecall> latest = find(q, 0, 1);
      if (latest.isEmpty()) return false;
      try {
        LoggedRecall e = latest.get(0).withUsed(ids);
        writer.updateDocument(new Term(ID, e.id()), document(e));
        commit();
        return true;
      } catch (IOException | RuntimeException e) {
        throw failed("usage feedback", e);
      }
    }
  }

  @Override
  public int deleteOwner(String owner) {
    return deleteMatching(new TermQuery(new Term(OWNER, owner)), "forget");
  }

  /**
   * Deletes the entries matching {@code q}, then merges the deleted documents away: forgotten (or
   * expired) means gone from the files, not just hidden.
   */
  private int deleteMatching(Query q, String what) {
    synchronized (writeLock) {
      try {
        int n = withSearcher(s -> s.count(q));
        if (n == 0) return 0;
        writer.deleteDocuments(q);
        writer.forceMergeDeletes(true);
        commit();
        return n;
      } catch (IOException | RuntimeException e) {
        throw failed(what, e);
      }
    }
  }

  @Override
  public int forget(String owner, Collection<String> ids) {
    if (ids.isEmpty()) return 0;
    synchronized (writeLock) {
      try {
        // a term set: no clause limit for a long list of ids (a record's whole lineage)
        Query any = new TermInSetQuery(CANDIDATE, ids.stream().map(BytesRef::new).toList());
        Query q =
            new BooleanQuery.Builder()
                .add(new TermQuery(new Term(OWNER, owner)), Occur.FILTER)
                .add(any, Occur.FILTER)
                .build();
        int n = withSearcher(s -> s.count(q));
        if (n == 0) return 0;
        for (JsonNode json : findJson(q, 0, n)) {
          JsonNode redacted = RecallLogJson.without(json, ids);
          LoggedRecall e = RecallLogJson.entry(redacted);
          writer.updateDocument(new Term(ID, e.id()), document(e, redacted));
        }
        writer.forceMergeDeletes(true);
        commit();
        return n;
      } catch (IOException | RuntimeException e) {
        throw failed("forget", e);
      }
    }
  }

  @Override
  public int deleteBefore(Instant cutoff) {
    synchronized (writeLock) {
      int n =
          deleteMatching(
              LongPoint.newRangeQuery(AT, Long.MIN_VALUE, cutoff.toEpochMilli() - 1), "retention");
      // Every entry left is at or after the cutoff: the oldest one's time, exact, goes into the
      // commit data, so the next process learns there that retention has nothing to do until then.
      if (oldest < cutoff.toEpochMilli()) {
        long exact =
            withSearcher(
                s -> {
                  TopDocs top =
                      s.search(
                          new MatchAllDocsQuery(),
                          1,
                          new Sort(new SortField(AT_SORT, SortField.Type.LONG, false)));
                  if (top.scoreDocs.length == 0) return Long.MAX_VALUE;
                  return (Long) ((org.apache.lucene.search.FieldDoc) top.scoreDocs[0]).fields[0];
                });
        if (exact != oldest) {
          oldest = exact;
          try {
            commit();
          } catch (IOException | RuntimeException e) {
            throw failed("retention", e);
          }
        }
      }
      return n;
    }
  }

  @Override
  public long sizeBytes() {
    try {
      long total = 0;
      for (String f : directory.listAll()) {
        try {
          total += directory.fileLength(f);
        } catch (java.nio.file.NoSuchFileException gone) {
          // a merge removed it meanwhile
        }
      }
      return total;
    } catch (IOException e) {
      throw new MnemoException("retrieval log unreadable: " + e.getMessage(), false, e);
    }
  }

  private Query query(RecallLogQuery q) {
    BooleanQuery.Builder b = new BooleanQuery.Builder();
    b.add(new MatchAllDocsQuery(), Occur.FILTER);
    if (q.owner() != null) b.add(new TermQuery(new Term(OWNER, q.owner())), Occur.FILTER);
    if (q.from() != null || q.to() != null) {
      long from = q.from() == null ? Long.MIN_VALUE : q.from().toEpochMilli();
      long to = q.to() == null ? Long.MAX_VALUE : q.to().toEpochMilli() - 1;
      b.add(LongPoint.newRangeQuery(AT, from, to), Occur.FILTER);
    }
    if (q.record() != null) {
      b.add(new TermQuery(new Term(CANDIDATE, q.record())), Occur.FILTER);
      if ("omitted".equals(q.outcome())) {
        b.add(
            new TermQuery(new Term(CANDIDATE_OUTCOME, outcomeKey(q.record(), "selected"))),
            Occur.MUST_NOT);
      } else if (q.outcome() != null) {
        b.add(
            new TermQuery(new Term(CANDIDATE_OUTCOME, outcomeKey(q.record(), q.outcome()))),
            Occur.FILTER);
      }
    } else if (q.outcome() != null) {
      b.add(new TermQuery(new Term(RESULT, q.outcome())), Occur.FILTER);
    }
    if (q.text() != null) {
      List<String> terms = terms(q.text());
      // words the analyzer drops entirely (stop words) match everything rather than nothing
      for (String t : terms) b.add(new TermQuery(new Term(TEXT, t)), Occur.FILTER);
    }
    return b.build();
  }

  private List<String> terms(String text) {
    List<String> out = new ArrayList<>();
    try (TokenStream ts = analyzer.tokenStream(TEXT, text)) {
      CharTermAttribute term = ts.addAttribute(CharTermAttribute.class);
      ts.reset();
      while (ts.incrementToken()) out.add(term.toString());
      ts.end();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out;
  }

  private List<LoggedRecall> find(Query q, int offset, int limit) {
    return findJson(q, offset, limit).stream().map(RecallLogJson::entry).toList();
  }

  /** The stored whole forms of the matching entries, newest first. */
  private List<JsonNode> findJson(Query q, int offset, int limit) {
    return withSearcher(
        s -> {
          Sort sort =
              new Sort(
                  new SortField(AT_SORT, SortField.Type.LONG, true),
                  new SortField(ID, SortField.Type.STRING, true));
          TopDocs top = s.search(q, Math.max(1, offset + limit), sort);
          List<JsonNode> out = new ArrayList<>();
          var fields = s.storedFields();
          for (int i = offset; i < top.scoreDocs.length; i++) {
            ScoreDoc sd = top.scoreDocs[i];
            out.add(JsonCodec.READER.readTree(fields.document(sd.doc).get(JSON)));
          }
          return out;
        });
  }

  private interface Read<T> {
    T apply(IndexSearcher s) throws IOException;
  }

  private <T> T withSearcher(Read<T> f) {
    try {
      IndexSearcher s = searchers.acquire();
      try {
        return f.apply(s);
      } finally {
        searchers.release(s);
      }
    } catch (IOException e) {
      throw new MnemoException("retrieval log unreadable: " + e.getMessage(), false, e);
    }
  }

  private void commit() throws IOException {
    writer.setLiveCommitData(
        java.util.Map.of(
                FormatVersion.COMMIT_KEY,
                Integer.toString(FormatVersion.SIDE_INDEX),
                OLDEST_KEY,
                Long.toString(oldest))
            .entrySet());
    writer.commit();
    searchers.maybeRefreshBlocking();
  }

  private MnemoException failed(String what, Exception e) {
    try {
      writer.rollback(); // nothing uncommitted may ride along with a later commit
    } catch (IOException | RuntimeException r) {
      e.addSuppressed(r);
    }
    return new MnemoException("retrieval log " + what + " failed: " + e.getMessage(), false, e);
  }

  @Override
  public void close() {
    try {
      searchers.close();
      if (writer.isOpen()) writer.close();
      directory.close();
    } catch (IOException e) {
      throw new MnemoException("closing the retrieval log failed: " + e.getMessage(), false, e);
    }
  }
}

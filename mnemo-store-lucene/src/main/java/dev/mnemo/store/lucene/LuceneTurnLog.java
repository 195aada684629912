package dev.mnemo.store.lucene;

import dev.mnemo.MnemoException;
import dev.mnemo.StoredTurn;
import dev.mnemo.StoredTurn.State;
import dev.mnemo.Turn;
import dev.mnemo.spi.TurnLog;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import org.apache.lucene.analysis.core.KeywordAnalyzer;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.LongPoint;
import org.apache.lucene.document.NumericDocValuesField;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.IndexableField;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause.Occur;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.MatchAllDocsQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.SearcherManager;
import org.apache.lucene.search.Sort;
import org.apache.lucene.search.SortField;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.store.Directory;

/**
 * The Lucene store's turn log: a second, small Lucene index in the {@code turns} folder of the
 * store's directory, one document per turn event, keyed by owner and id.
 *
 * <p>Why a second index rather than documents in the first: every search of the memory index would
 * otherwise need one more filter, and turns (tool results, failed attempts) must never be
 * candidates of a recall. Turns are stored, not searched: only owner, id, logical turn id and state
 * are indexed, the sequence number is a point and a doc value for ordering. Every change commits
 * (fsync) before it returns; {@link #deleteOwner} merges the deleted documents away so no copy of
 * the owner's turns stays in the files. Thread-safe: writes serialized, reads concurrent.
 */
final class LuceneTurnLog implements TurnLog {
  private static final String KEY = "key";
  private static final String OWNER = "owner";
  private static final String TURN_KEY = "turn_key";
  private static final String STATE = "state";
  private static final String SEQ = "seq";
  private static final String SEQ_SORT = "seq_sort";
  private static final String ID = "id";
  private static final String EPISODE = "episode";
  private static final String ROLE = "role";
  private static final String SPEAKER = "speaker";
  private static final String TEXT = "text";
  private static final String AT = "at";
  private static final String TURN_ID = "turn_id";
  private static final String ATTEMPT = "attempt";
  private static final String STATUS = "status";
  private static final String META = "meta";
  private static final String NOTE = "note";

  private final Directory directory;
  private final IndexWriter writer;
  private final SearcherManager searchers;
  private final Object writeLock = new Object();
  private long seq;

  private LuceneTurnLog(Directory directory, IndexWriter writer) throws IOException {
    this.directory = directory;
    this.writer = writer;
    this.searchers = new SearcherManager(writer, null);
    IndexSearcher s = searchers.acquire();
    try {
      TopDocs top =
          s.search(
              new MatchAllDocsQuery(),
              1,
              new Sort(new SortField(SEQ_SORT, SortField.Type.LONG, true)));
      seq =
          top.scoreDocs.length == 0
              ? 0
              : s.storedFields()
                  .document(top.scoreDocs[0].doc)
                  .getField(SEQ)
                  .numericValue()
                  .longValue();
    } finally {
      searchers.release(s);
    }
  }

  static LuceneTurnLog open(Path dir) {
    try {
      Files.createDirectories(dir);
      Directory d = SyncNewFilesDirectory.open(dir);
      IndexWriter w = null;
      boolean success = false;
      try {
        IndexWriterConfig cfg = new IndexWriterConfig(new KeywordAnalyzer());
        cfg.setOpenMode(IndexWriterConfig.OpenMode.CREATE_OR_APPEND);
        cfg.setCommitOnClose(true);
        FormatVersion.checkIndex("turn log", dir, d, FormatVersion.SIDE_INDEX);
        w = new IndexWriter(d, cfg);
        FormatVersion.stamp(w, FormatVersion.SIDE_INDEX);
        LuceneTurnLog log = new LuceneTurnLog(d, w);
        success = true;
        return log;
      } finally {
        if (!success) {
          // a failed open releases the write.lock and the directory (Lucene's success-flag idiom)
          if (w != null) org.apache.lucene.util.IOUtils.closeWhileHandlingException(w::rollback);
          org.apache.lucene.util.IOUtils.closeWhileHandlingException(d);
        }
      }
    } catch (IOException e) {
      throw new MnemoException(
          "cannot open the turn log in " + dir + ": " + e.getMessage(), false, e);
    }
  }

  private static String key(String owner, String id) {
    return owner + "\u0000" + id;
  }

  @Override
  public List<StoredTurn> append(List<StoredTurn> entries) {
    for (StoredTurn e : entries) checkTerms(e.turn());
    synchronized (writeLock) {
      List<StoredTurn> out = new ArrayList<>();
      Set<String> seen = new HashSet<>();
      long next = seq;
      try {
        IndexSearcher s = searchers.acquire();
        try {
          for (StoredTurn e : entries) {
            String k = key(e.turn().owner(), e.turn().id());
            if (!seen.add(k) || s.count(new TermQuery(new Term(KEY, k))) > 0) continue;
            StoredTurn stored = new StoredTurn(e.turn(), e.state(), ++next, e.note());
            writer.addDocument(toDocument(stored));
            out.add(stored);
          }
        } finally {
          searchers.release(s);
        }
        if (!out.isEmpty()) commit();
        seq = next;
        return out;
      } catch (IOException | RuntimeException e) {
        throw failed("append", e);
      }
    }
  }

  @Override
  public void update(List<StoredTurn> entries) {
    synchronized (writeLock) {
      try {
        for (StoredTurn e : entries) {
          Optional<StoredTurn> old = get(e.turn().owner(), e.turn().id());
          if (old.isEmpty()) continue;
          writer.updateDocument(
              new Term(KEY, key(e.turn().owner(), e.turn().id())),
              toDocument(old.get().with(e.state(), e.note())));
        }
        commit();
      } catch (IOException | RuntimeException e) {
        throw failed("update", e);
      }
    }
  }

  @Override
  public Optional<StoredTurn> get(String owner, String id) {
    List<StoredTurn> r = find(new TermQuery(new Term(KEY, key(owner, id))));
    return r.isEmpty() ? Optional.empty() : Optional.of(r.get(0));
  }

  @Override
  public List<StoredTurn> getAll(String owner, Collection<String> ids) {
    if (ids.isEmpty()) return List.of();
    BooleanQuery.Builder any = new BooleanQuery.Builder();
    Set<String> distinct = new HashSet<>(ids);
    if (distinct.size() > IndexSearcher.getMaxClauseCount()) {
      List<StoredTurn> out = new ArrayList<>();
      for (String id : distinct) get(owner, id).ifPresent(out::add);
      out.sort(java.util.Comparator.comparingLong(StoredTurn::seq));
      return out;
    }
    for (String id : distinct) any.add(new TermQuery(new Term(KEY, key(owner, id))), Occur.SHOULD);
    return find(any.build());
  }

  @Override
  public List<StoredTurn> attempts(String owner, String turnId) {
    return find(new TermQuery(new Term(TURN_KEY, key(owner, turnId))));
  }

  @Override
  public List<StoredTurn> pending(int limit) {
    return find(new TermQuery(new Term(STATE, State.PENDING.code())), limit);
  }

  @Override
  public void export(String owner, Consumer<StoredTurn> sink) {
    Query q = owner == null ? new MatchAllDocsQuery() : new TermQuery(new Term(OWNER, owner));
    // A page of hits at a time on one searcher (as the store's export): the turns reach the sink as
    // they are read, not after every one of them is loaded.
    try {
      IndexSearcher s = searchers.acquire();
      try {
        Sort sort = new Sort(new SortField(SEQ_SORT, SortField.Type.LONG));
        var fields = s.storedFields();
        ScoreDoc after = null;
        while (true) {
          int n = RecordExport.EXPORT_PAGE;
          TopDocs page = after == null ? s.search(q, n, sort) : s.searchAfter(after, q, n, sort);
          for (ScoreDoc sd : page.scoreDocs) sink.accept(fromDocument(fields.document(sd.doc)));
          if (page.scoreDocs.length < n) break;
          after = page.scoreDocs[page.scoreDocs.length - 1];
        }
      } finally {
        searchers.release(s);
      }
    } catch (IOException e) {
      throw new MnemoException("reading the turn log failed: " + e.getMessage(), true, e);
    }
  }

  @Override
  public int deleteOwner(String owner) {
    synchronized (writeLock) {
      try {
        int n = count(new TermQuery(new Term(OWNER, owner)));
        writer.deleteDocuments(new Term(OWNER, owner));
        // forgotten means gone from the files, not just hidden: merge the deleted documents away
        writer.forceMergeDeletes(true);
        commit();
        return n;
      } catch (IOException | RuntimeException e) {
        throw failed("forget", e);
      }
    }
  }

  @Override
  public int delete(String owner, Collection<String> ids) {
    synchronized (writeLock) {
      try {
        List<StoredTurn> found = getAll(owner, ids);
        for (StoredTurn t : found) writer.deleteDocuments(new Term(KEY, key(owner, t.turn().id())));
        if (!found.isEmpty()) commit();
        return found.size();
      } catch (IOException | RuntimeException e) {
        throw failed("delete", e);
      }
    }
  }

  @Override
  public Map<State, Long> counts() {
    Map<State, Long> out = new EnumMap<>(State.class);
    for (State st : State.values())
      out.put(st, (long) count(new TermQuery(new Term(STATE, st.code()))));
    return out;
  }

  @Override
  public void close() {
    try {
      searchers.close();
      writer.close();
      directory.close();
    } catch (IOException e) {
      throw new MnemoException("closing the turn log failed: " + e.getMessage(), false, e);
    }
  }

  private void commit() throws IOException {
    writer.commit();
    searchers.maybeRefreshBlocking();
  }

  private MnemoException failed(String what, Exception e) {
    try {
      writer.rollback(); // nothing uncommitted may ride along with a later commit
    } catch (IOException | RuntimeException r) {
      e.addSuppressed(r);
    }
    return new MnemoException(
        "turn log " + what + " failed, nothing was acknowledged: " + e.getMessage(), false, e);
  }

  private int count(Query q) {
    try {
      IndexSearcher s = searchers.acquire();
      try {
        return s.count(q);
      } finally {
        searchers.release(s);
      }
    } catch (IOException e) {
      throw new MnemoException("reading the turn log failed: " + e.getMessage(), true, e);
    }
  }

  private List<StoredTurn> find(Query q) {
    return find(q, Integer.MAX_VALUE);
  }

  private List<StoredTurn> find(Query q, int limit) {
    try {
      IndexSearcher s = searchers.acquire();
      try {
        int n = Math.max(1, Math.min(limit, s.count(q)));
        TopDocs top = s.search(q, n, new Sort(new SortField(SEQ_SORT, SortField.Type.LONG)));
        List<StoredTurn> out = new ArrayList<>(top.scoreDocs.length);
        var fields = s.storedFields();
        for (ScoreDoc sd : top.scoreDocs) out.add(fromDocument(fields.document(sd.doc)));
        return out;
      } finally {
        searchers.release(s);
      }
    } catch (IOException e) {
      throw new MnemoException("reading the turn log failed: " + e.getMessage(), true, e);
    }
  }

  /**
   * Refuses, before the writer sees it, a turn whose keys Lucene would refuse inside the writer (a
   * term over {@link IndexWriter#MAX_TERM_LENGTH} bytes), which would roll the log back.
   */
  private static void checkTerms(Turn t) {
    for (String k : new String[] {key(t.owner(), t.id()), key(t.owner(), t.turnId())}) {
      if (new org.apache.lucene.util.BytesRef(k).length > IndexWriter.MAX_TERM_LENGTH) {
        throw new dev.mnemo.InvalidRequestException(
            "id",
            t.id().length(),
            "a turn's owner and id (or turn_id) must "
                + "together be at most "
                + IndexWriter.MAX_TERM_LENGTH
                + " bytes of UTF-8");
      }
    }
  }

  private static Document toDocument(StoredTurn e) {
    Turn t = e.turn();
    Document d = new Document();
    d.add(new StringField(KEY, key(t.owner(), t.id()), Field.Store.NO));
    d.add(new StringField(OWNER, t.owner(), Field.Store.YES));
    d.add(new StringField(TURN_KEY, key(t.owner(), t.turnId()), Field.Store.NO));
    d.add(new StringField(STATE, e.state().code(), Field.Store.YES));
    d.add(new LongPoint(SEQ, e.seq()));
    d.add(new NumericDocValuesField(SEQ_SORT, e.seq()));
    d.add(new StoredField(SEQ, e.seq()));
    d.add(new StoredField(ID, t.id()));
    if (t.episode() != null) d.add(new StoredField(EPISODE, t.episode()));
    d.add(new StoredField(ROLE, t.role().code()));
    if (t.speaker() != null) d.add(new StoredField(SPEAKER, t.speaker()));
    d.add(new StoredField(TEXT, t.text()));
    if (t.at() != null) d.add(new StoredField(AT, t.at().toString()));
    d.add(new StoredField(TURN_ID, t.turnId()));
    d.add(new StoredField(ATTEMPT, t.attempt()));
    d.add(new StoredField(STATUS, t.status().code()));
    for (var m : t.metadata().entrySet())
      d.add(new StoredField(META, m.getKey() + "\u0000" + m.getValue()));
    if (e.note() != null) d.add(new StoredField(NOTE, e.note()));
    return d;
  }

  private static StoredTurn fromDocument(Document d) {
    Map<String, String> meta = new LinkedHashMap<>();
    for (IndexableField f : d.getFields(META)) {
      String v = f.stringValue();
      int i = v.indexOf('\u0000');
      meta.put(v.substring(0, i), v.substring(i + 1));
    }
    String at = d.get(AT);
    Turn t =
        new Turn(
            d.get(ID),
            d.get(OWNER),
            d.get(EPISODE),
            Turn.Role.fromCode(ROLE, d.get(ROLE)),
            d.get(SPEAKER),
            d.get(TEXT),
            at == null ? null : Instant.parse(at),
            d.get(TURN_ID),
            d.getField(ATTEMPT).numericValue().intValue(),
            Turn.Status.fromCode(STATUS, d.get(STATUS)),
            meta);
    return new StoredTurn(
        t,
        State.fromCode(STATE, d.get(STATE)),
        d.getField(SEQ).numericValue().longValue(),
        d.get(NOTE));
  }
}

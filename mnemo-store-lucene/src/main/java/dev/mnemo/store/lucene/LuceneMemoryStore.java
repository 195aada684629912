package dev.mnemo.store.lucene;

import dev.mnemo.MemoryRecord;
import dev.mnemo.MnemoException;
import dev.mnemo.spi.CandidateQuery;
import dev.mnemo.spi.CandidateSet;
import dev.mnemo.spi.Eligibility;
import dev.mnemo.spi.MemoryStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.store.Directory;
import org.apache.lucene.util.IOUtils;

/**
 * The embedded default store: Lucene indexes in one directory, laid out by owner.
 *
 * <p>Text is indexed with an English analyzer (Snowball stemming and stop list), vectors in an HNSW
 * graph (dot product on L2-normalized vectors), owner, scope, category, fact key, entities and
 * metadata as keyword fields, the four times as points. Every search runs with the {@link
 * Eligibility} as a Lucene filter, inside the kNN search (an exact scan of the eligible vectors
 * when few are eligible, else Lucene's filtered HNSW) and inside BM25, so nothing is post-filtered
 * from a top-k. A call computes the eligible documents once ({@link EligibleDocs}: the fixed rules
 * as a query the query cache keeps, the time rules on each segment's {@link TimeColumns}) and hands
 * them to each of its searches; records it loads are kept in a bounded {@link RecordCache}.
 *
 * <p>Layout ({@link Layout}): every owner's records start in the shared index in {@code dir}; an
 * owner whose records grow beyond {@link Layout#ownPartitionAbove} gets an index of their own in
 * {@code dir/owners/NAME} (a {@link Partition}), so their searches walk only their own documents,
 * postings and HNSW graph. Every call of the SPI names one owner and is routed by it; a read for no
 * owner (evaluation) reads every index and merges. BM25 statistics (IDF, the score's upper bound)
 * are those of the index the owner is in: an owner with their own partition is scored against their
 * own records only. The owners with a partition are listed in {@code dir/owners/partitions.tsv},
 * replaced atomically; an owner is moved in the background (the write that crossed the limit does
 * not wait): their records are copied into the new index while writes go on, the writes made
 * meanwhile caught up under the write lock, the table switched, then the owner deleted from the
 * shared index, so a crash leaves either placement readable (on open, a folder not in the table is
 * removed, and copies left in the shared index of an owner in the table are deleted). At most
 * {@link Layout#maxOpenPartitions} owners' partitions are open at once, opened on first use and the
 * least recently used idle one closed beyond that.
 *
 * <p>Durability: {@link #apply} returns once its changes are committed (fsync). Each index's part
 * of a call is one Lucene operation, so a reader and a commit see all of it or none of it.
 * Concurrent writers share refreshes and syncs ({@link #applyVisible}, {@link GroupCommit}): the
 * writes waiting for the write lock are applied as one group and made visible by one refresh per
 * index under it, each logged in order; the sync (or commit) is awaited outside it. A call touching
 * several owners commits each owner's index: it is atomic per owner (the engine writes one owner
 * per call). Thread-safe: writes are serialized up to their visibility, syncs and commits shared,
 * reads concurrent.
 *
 * <p>This class is the door; the work is done by package-private parts: {@link Partitions} (which
 * index holds an owner, routed reads), {@link CandidateSearch} with {@link LexicalSearch} and
 * {@link DenseSearch} (the candidates), {@link RecordLookups} (records by id, key, source and
 * recency), {@link StoredRecords} (records loaded through the cache), {@link StoreWriter} (group
 * writes, the write-ahead log, forgets), {@link OwnerMover} (moves in the background), {@link
 * RecordExport} (export) and {@link WriteState} (what the writer, the mover and a forget share
 * under the write lock). docs/store-layout.md names them too.
 */
public final class LuceneMemoryStore implements MemoryStore {
  private final Path dir;
  private final Partition shared;
  private final Partitions partitions;
  private final RecordExport exports;
  private final RecordLookups lookups;
  private final WriteState state;

  /** Moves owners who outgrew the shared index (its {@code moveStep} hook is for tests). */
  final OwnerMover mover;

  /** Applies the writes and forgets (its hooks and checkpoint bound are for tests). */
  final StoreWriter writer;

  private final LuceneTurnLog turns;
  private final LazyRecallLog recalls;

  /** Candidate searches of one index: the lexical and dense signals, ranked into one set. */
  private final CandidateSearch search;

  /**
   * How the store lays out its owners.
   *
   * @param ownPartitionAbove an owner with more records than this in the shared index gets an index
   *     of their own ({@link Long#MAX_VALUE}: never)
   * @param maxOpenPartitions owners' partitions kept open at once (idle ones beyond are closed)
   * @param partitionVectors how owners' own indexes store the vectors their HNSW graph is built on
   *     (the shared index always keeps float32 only); applies to what is written from the next open
   *     on: a move, new records and merged segments
   * @param writeAheadLog whether a write is durable once logged ({@link WriteAheadLog}: one append
   *     and one sync, the indexes committed at checkpoints), or only once every index it went to is
   *     committed (a Lucene commit per write, shared by concurrent writers)
   */
  public record Layout(
      long ownPartitionAbove,
      int maxOpenPartitions,
      VectorFormat partitionVectors,
      boolean writeAheadLog) {
    /**
     * What {@link #open(Path)} uses: an own partition above 5,000 records, 32 open at most (why:
     * docs/store-layout.md), writes durable once logged.
     */
    public static final Layout DEFAULT = new Layout(5_000, 32);

    /** Every owner in the one shared index (owners moved out earlier still read from their own). */
    public static final Layout SHARED = new Layout(Long.MAX_VALUE, 32);

    public Layout {
      if (ownPartitionAbove < 1)
        throw new IllegalArgumentException(
            "ownPartitionAbove must be at least 1: " + ownPartitionAbove);
      if (maxOpenPartitions < 1)
        throw new IllegalArgumentException(
            "maxOpenPartitions must be at least 1: " + maxOpenPartitions);
      Objects.requireNonNull(partitionVectors, "partitionVectors");
    }

    /** With the write-ahead log. */
    public Layout(long ownPartitionAbove, int maxOpenPartitions, VectorFormat partitionVectors) {
      this(ownPartitionAbove, maxOpenPartitions, partitionVectors, true);
    }

    /**
     * With the default vector format of owners' own indexes ({@link VectorFormat#DEFAULT}) and the
     * write-ahead log.
     */
    public Layout(long ownPartitionAbove, int maxOpenPartitions) {
      this(ownPartitionAbove, maxOpenPartitions, VectorFormat.DEFAULT);
    }

    /** This layout with owners' own indexes storing their vectors as {@code vectors}. */
    public Layout withPartitionVectors(VectorFormat vectors) {
      return new Layout(ownPartitionAbove, maxOpenPartitions, vectors, writeAheadLog);
    }

    /** This layout with or without the write-ahead log. */
    public Layout withWriteAheadLog(boolean on) {
      return new Layout(ownPartitionAbove, maxOpenPartitions, partitionVectors, on);
    }
  }

  private LuceneMemoryStore(
      Path dir,
      Partitions partitions,
      Analyzer analyzer,
      Layout layout,
      int exactScanMax,
      LuceneTurnLog turns,
      LazyRecallLog recalls,
      AtomicLong logged) {
    this.dir = dir;
    this.logged = logged;
    this.partitions = partitions;
    this.shared = partitions.shared;
    this.exports = new RecordExport(partitions);
    this.lookups = new RecordLookups(partitions);
    this.turns = turns;
    this.recalls = recalls;
    this.search =
        new CandidateSearch(partitions, new LexicalSearch(analyzer), new DenseSearch(exactScanMax));
    this.state = new WriteState(committedModel(shared.writer));
    this.mover = new OwnerMover(partitions, state, layout.ownPartitionAbove());
    this.writer = new StoreWriter(dir, partitions, state, mover, logged);
  }

  /** The write-ahead log position ({@link StoreWriter}), which names the state with a log. */
  private final AtomicLong logged;

  /**
   * The folder of {@code dir} that holds the turn log (a second index; Lucene leaves folders it did
   * not write alone).
   */
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
    return lookups.count(eligibility);
  }

  /**
   * With the write-ahead log, its position ({@code lucene:wN}). Without it, the version of the
   * shared index's reader (it changes with every commit of it, and when an owner's partition is
   * added or removed) and, with owners' partitions, the sum of their commit generations.
   */
  @Override
  public String state() {
    // every change of the records is a logged write (a forget logs an empty one), and the log's
    // numbering survives restarts: the same state before and after a reopen
    if (writer.log() != null) return "lucene:w" + logged.get();
    long version;
    IndexSearcher s = Partitions.acquire(shared);
    try {
      version = ((DirectoryReader) s.getIndexReader()).getVersion();
    } finally {
      Partitions.release(shared, s);
    }
    if (partitions.table().isEmpty()) return "lucene:" + version;
    return "lucene:" + version + "." + partitions.generationSum();
  }

  /** Records naming any of the source ids: a term query on the indexed sources. */
  @Override
  public List<MemoryRecord> bySources(String owner, Collection<String> sourceIds) {
    return lookups.bySources(owner, sourceIds);
  }

  /**
   * Opens (creating if needed) the store in {@code dir}; all committed data is there after a
   * restart.
   */
  public static LuceneMemoryStore open(Path dir) {
    return open(dir, Layout.DEFAULT);
  }

  /** Opens the store in {@code dir} with its owners laid out as {@code layout} says. */
  public static LuceneMemoryStore open(Path dir, Layout layout) {
    return open(dir, layout, DenseSearch.EXACT_SCAN_MAX);
  }

  /** Opens the store with another exact-scan limit (tests force the graph search with 0). */
  static LuceneMemoryStore open(Path dir, int exactScanMax) {
    return open(dir, Layout.DEFAULT, exactScanMax);
  }

  static LuceneMemoryStore open(Path dir, Layout layout, int exactScanMax) {
    try {
      Files.createDirectories(dir);
      LuceneMemoryStore store = open(SyncNewFilesDirectory.open(dir), dir, layout, exactScanMax);
      LockHolder.note(dir);
      return store;
    } catch (org.apache.lucene.store.LockObtainFailedException e) {
      throw new MnemoException(LockHolder.refusal(dir), false, e);
    } catch (IOException e) {
      throw new MnemoException(
          "cannot open the Lucene store in " + dir + ": " + e.getMessage(), false, e);
    }
  }

  static LuceneMemoryStore open(Directory d, Path dir, int exactScanMax) throws IOException {
    return open(d, dir, Layout.DEFAULT, exactScanMax);
  }

  /**
   * Opens the store over {@code d} (tests wrap it to inject faults), its turn log in {@code
   * dir/turns}. Exception-safe in Lucene's way: whatever fails, everything opened so far is closed
   * (the directory, the writer and its {@code write.lock}), so a failed open leaves no lock behind.
   * The index's format version is checked first. Then the layout is repaired (what a crash during a
   * move left) and owners above the layout's limit are scheduled to move to their own partitions
   * (in the background: {@link #awaitMoves}).
   */
  static LuceneMemoryStore open(Directory d, Path dir, Layout layout, int exactScanMax)
      throws IOException {
    Partition shared = null;
    LuceneTurnLog turns = null;
    LuceneMemoryStore store = null;
    boolean success = false;
    try {
      Analyzer analyzer = Analyzers.english();
      AtomicLong logged = new AtomicLong();
      shared =
          Partition.open(
              d, dir, null, analyzer, VectorFormat.FLOAT32, generation -> {}, logged::get);
      turns = LuceneTurnLog.open(dir.resolve(TURNS_DIR));
      Partitions partitions = new Partitions(dir, shared, analyzer, layout, logged::get);
      store =
          new LuceneMemoryStore(
              dir,
              partitions,
              analyzer,
              layout,
              exactScanMax,
              turns,
              new LazyRecallLog(dir.resolve(RECALLS_DIR)),
              logged);
      if (partitions.repair()) Partitions.commit(shared, store.state.embeddingModel);
      if (layout.writeAheadLog()) store.writer.recover();
      store.mover.scheduleLargeOwners();
      success = true;
      return store;
    } finally {
      if (!success) {
        if (store != null) {
          WriteAheadLog log = store.writer.log();
          IOUtils.closeWhileHandlingException(
              store.mover::stop, store.partitions::closeOwn, log == null ? null : log::close);
        }
        if (shared != null) {
          // rollback, not close: a failed open must not commit anything either
          Partition sh = shared;
          IOUtils.closeWhileHandlingException(sh.searchers, sh.writer::rollback);
        }
        java.io.Closeable log = turns == null ? null : turns::close;
        IOUtils.closeWhileHandlingException(log, d);
      }
    }
  }

  /**
   * Waits until every move scheduled so far has finished (or failed; the owner then stays in the
   * shared index). For tests, benchmarks and tools that want the layout settled; writes and reads
   * never need it.
   */
  public void awaitMoves() {
    mover.awaitMoves();
  }

  /** Number of owners' partitions open now (tests). */
  int openPartitions() {
    return partitions.openCount();
  }

  /** Owners with a partition of their own (tests, docs). */
  Set<String> ownersWithOwnPartition() {
    return partitions.table().keySet();
  }

  /**
   * The Lucene vector formats of the segments holding the owner's records, one name per segment in
   * segment order (tests, docs: a format change reaches a segment when it is written or merged).
   */
  List<String> vectorFormatsOf(String owner) {
    return partitions.read(
        owner,
        (p, s) -> {
          List<String> out = new ArrayList<>();
          for (LeafReaderContext leaf : s.getIndexReader().leaves()) {
            var field = leaf.reader().getFieldInfos().fieldInfo(Schema.VECTOR);
            if (field != null)
              out.add(
                  field.getAttribute(
                      org.apache.lucene.codecs.perfield.PerFieldKnnVectorsFormat
                          .PER_FIELD_FORMAT_KEY));
          }
          return out;
        });
  }

  @Override
  public Optional<String> embeddingModel() {
    return Optional.ofNullable(state.embeddingModel);
  }

  /** Reads the model id the last commit recorded (null: none yet). */
  private static String committedModel(org.apache.lucene.index.IndexWriter w) {
    for (var e :
        w.getLiveCommitData() == null
            ? List.<Map.Entry<String, String>>of()
            : w.getLiveCommitData()) {
      if (e.getKey().equals("embedding_model")) return e.getValue();
    }
    return null;
  }

  /**
   * Upserts go to the index of their owner; a delete goes to the index holding the id (the call's
   * owners' first, then the shared one, then the other owners'). Durable when it returns: {@link
   * #applyVisible}, then its commit awaited.
   */
  @Override
  public void apply(List<MemoryRecord> upserts, Collection<String> deleteIds) {
    applyVisible(upserts, deleteIds).await();
  }

  /**
   * Writes the call's changes and makes them visible, under the store's write lock; the commits are
   * awaited by {@link Durable#await}, outside it, where concurrent writers share them ({@link
   * GroupCommit}: N writers waiting pay for about two fsyncs, not N). Each index's part of the call
   * is one Lucene operation ({@code updateDocuments} with a delete query on the ids), so no commit
   * and no reader holds part of it: atomic per owner, before and after a crash. A record both
   * upserted and deleted in one call ends deleted. The embedding model, when it changes, is
   * recorded in the shared index's commit. Owners of the shared index who then hold more records
   * than the layout allows are moved to their own partition in the background ({@link
   * #awaitMoves}); the write does not wait for it.
   */
  @Override
  public Durable applyVisible(List<MemoryRecord> upserts, Collection<String> deleteIds) {
    return writer.write(upserts, deleteIds, 0);
  }

  @Override
  public Optional<MemoryRecord> get(String owner, String id) {
    return lookups.get(owner, id);
  }

  @Override
  public List<MemoryRecord> versions(String owner, String factKey) {
    return lookups.versions(owner, factKey, ReadOptions.DEFAULT);
  }

  @Override
  public List<MemoryRecord> lineage(String owner, String id) {
    return lookups.lineage(owner, id);
  }

  @Override
  public List<MemoryRecord> latest(Eligibility eligibility, int limit) {
    return lookups.latest(eligibility, limit);
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
   * @param graphReach how far the HNSW search of an owner's own index looks: it asks the graph for
   *     {@code k × graphReach} neighbours divided by the index's effective number of segments
   *     ({@link #graphK}) and keeps the best k (the graph's beam is as wide as what is asked for:
   *     wider finds more of the exact neighbours, at the cost of a longer search)
   * @param versionsWithCandidates return the eligible versions of the candidates' fact keys with
   *     the candidates ({@link CandidateSet#versions}), read from the same searcher in one search,
   *     so that the read path's conflict stage asks no {@link #versions} per selected fact key
   * @param termStatistics keep the BM25 term statistics of the index's current reader ({@link
   *     TermStatistics}) for the text search, the candidates' exact BM25 and the normalization,
   *     instead of looking every query word up in every segment three times per call
   * @param quantizedScan the scan of an owner's own index with {@link DenseSearch#SCAN_CODES_MIN}
   *     to {@link DenseSearch#EXACT_SCAN_MAX} eligible records estimates every record from a
   *     bit-per-dimension copy of the vectors ({@link ScanVectors}) and scores only the best {@link
   *     DenseSearch#SCAN_OVERSAMPLE} × (k + 8) with their float32 vectors, instead of every float32
   *     vector (approximate, as the graph of larger owners is)
   */
  public record ReadOptions(
      boolean eligibleOnce,
      boolean recordCache,
      int graphReach,
      boolean versionsWithCandidates,
      boolean termStatistics,
      boolean quantizedScan) {
    /** Every lever on: what the store does. */
    public static final ReadOptions DEFAULT =
        new ReadOptions(true, true, GRAPH_REACH, true, true, true);

    /** Every lever off: how the store read before them. */
    public static final ReadOptions BASELINE =
        new ReadOptions(false, false, GRAPH_REACH, false, false, false);

    /** These levers with the quantized scan. */
    public ReadOptions(
        boolean eligibleOnce,
        boolean recordCache,
        int graphReach,
        boolean versionsWithCandidates,
        boolean termStatistics) {
      this(eligibleOnce, recordCache, graphReach, versionsWithCandidates, termStatistics, true);
    }

    public ReadOptions {
      if (graphReach < 1)
        throw new IllegalArgumentException("graphReach must be at least 1: " + graphReach);
    }

    /** These levers with the store's graph reach, versions and term statistics. */
    public ReadOptions(boolean eligibleOnce, boolean recordCache) {
      this(eligibleOnce, recordCache, GRAPH_REACH);
    }

    /** These levers with the store's versions and term statistics. */
    public ReadOptions(boolean eligibleOnce, boolean recordCache, int graphReach) {
      this(eligibleOnce, recordCache, graphReach, true, true);
    }
  }

  /**
   * {@link ReadOptions#graphReach} of the store: the reach of an index of {@link
   * DenseSearch#FULL_REACH_RECORDS} or more. Lucene searches each segment's graph with a beam of
   * its share of what is asked (its share of the documents times the ask, plus a margin), so a
   * fixed ask found 0.87 of the exact top 50 in a 100,000-record owner's index of one segment and
   * 0.98 in one of eight (BENCHMARKS.md, "Dense recall and the owner's segments"). Asking {@code k
   * × 18} divided by the effective number of segments kept dense recall@50 against an exact scan
   * between 0.957 and 0.967 on seven layouts of that owner's vectors, one to eight segments, equal
   * and uneven (reach 12: 0.920-0.951; 15: 0.947-0.963; 22: 0.959-0.972). Chosen on the bench's
   * synthetic corpus (e5-small-v2 vectors), not on evaluation data.
   */
  public static final int GRAPH_REACH = 18;

  /**
   * What the HNSW search of an owner's own index asks the graph for: {@code k × reach × min(1,
   * max(n / 100,000, 0.2)) × Σ pᵢ²}, where n is the index's documents ({@link
   * DenseSearch#FULL_REACH_RECORDS}, {@link DenseSearch#SMALLEST_SHARE}) and pᵢ is segment i's
   * share of them ({@code 1 / Σ pᵢ²} is its effective number of segments: 4 for four equal ones,
   * 1.5 for 80 % + 20 %), and at least k plus the rescoring margin. Lucene gives each segment a
   * beam of about {@code ask × pᵢ} (plus a margin of 16 standard deviations, {@code
   * AbstractKnnVectorQuery}), so one segment needs the whole reach where four equal ones need a
   * quarter each to find as many of the exact neighbours.
   */
  public static int graphK(IndexReader reader, int k, int reach) {
    return DenseSearch.graphK(reader, k, reach, DenseSearch.FULL_REACH_RECORDS);
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

  /**
   * BM25, entities and time are searched first, then the vector is asked for and the dense signal
   * searched: the same candidates, in the same order, as {@link #candidates(CandidateQuery)} with
   * the vector in the query (a read of every index, for no owner, asks for the vector first).
   */
  @Override
  public CandidateSet candidates(CandidateQuery q, java.util.function.Supplier<float[]> vector) {
    return candidates(q, vector, ReadOptions.DEFAULT);
  }

  private CandidateSet candidates(CandidateQuery q, ReadOptions o) {
    return search.candidates(q, null, o);
  }

  private CandidateSet candidates(
      CandidateQuery q, java.util.function.Supplier<float[]> later, ReadOptions o) {
    return search.candidates(q, later, o);
  }

  /**
   * Deletes the owner's records, merged away from the files, and with a write-ahead log the log's
   * files that hold them too ({@link StoreWriter#deleteOwner}).
   */
  @Override
  public int deleteOwner(String owner) {
    return writer.deleteOwner(owner);
  }

  @Override
  public long count() {
    return lookups.count();
  }

  /** Bytes of the index files on disk: the shared index and the owners' partitions. */
  public long sizeOnDisk() {
    return partitions.sizeOnDisk();
  }

  @Override
  public void export(String owner, Consumer<MemoryRecord> sink) {
    exports.export(owner, sink);
  }

  @Override
  public void close() {
    WriteAheadLog wal = writer.log();
    LockHolder.clear(dir);
    // Every resource is closed even when one fails (Lucene's IOUtils.close): a turn log that fails
    // to close must not leave the index's write.lock held.
    try {
      IOUtils.close(mover::stop, turns::close, recalls::close, partitions::closeOwn, shared);
    } catch (IOException e) {
      if (wal != null) IOUtils.closeWhileHandlingException(wal); // kept: it has what was lost
      throw new MnemoException("closing the Lucene store failed: " + e.getMessage(), false, e);
    }
    if (wal == null) return;
    // every index committed everything as it closed: the log's files are not needed any more
    try (WriteAheadLog log = wal) {
      if (!state.failed) log.deleteSealed(log.seal());
    } catch (IOException e) {
      throw new MnemoException(
          "closing the Lucene store's write-ahead log failed: " + e.getMessage(), false, e);
    }
  }

  /** This store read with other {@link ReadOptions}; everything else is the store's own. */
  private final class View extends dev.mnemo.spi.ForwardingMemoryStore {
    private final ReadOptions options;

    View(ReadOptions options) {
      super(LuceneMemoryStore.this);
      this.options = options;
    }

    @Override
    public CandidateSet candidates(CandidateQuery q) {
      return LuceneMemoryStore.this.candidates(q, options);
    }

    @Override
    public CandidateSet candidates(CandidateQuery q, java.util.function.Supplier<float[]> vector) {
      return LuceneMemoryStore.this.candidates(q, vector, options);
    }

    @Override
    public List<MemoryRecord> versions(String owner, String key) {
      return lookups.versions(owner, key, options);
    }

    /** Closing the view closes nothing: the store is the caller's. */
    @Override
    public void close() {}
  }
}

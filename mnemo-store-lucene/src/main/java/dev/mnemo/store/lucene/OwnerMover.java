package dev.mnemo.store.lucene;

import dev.mnemo.MemoryRecord;
import dev.mnemo.MnemoException;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Consumer;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.MultiTerms;
import org.apache.lucene.index.Term;
import org.apache.lucene.index.Terms;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.util.BytesRef;
import org.apache.lucene.util.IOUtils;

/**
 * Moves owners who outgrew the shared index to an index of their own, one at a time on a background
 * thread, while writes go on: the writes made to a moving owner meanwhile are journalled under the
 * write lock and caught up before the table is switched. Thread-safe: its state is guarded by the
 * store's write lock ({@link WriteState}).
 */
final class OwnerMover {
  private static final System.Logger LOG = System.getLogger(LuceneMemoryStore.class.getName());

  /**
   * The indexing buffer of a move, in MB: about 60,000 records of 384 dimensions in one segment.
   */
  private static final double MOVE_BUFFER_MB = 128;

  private final Partitions partitions;
  private final Partition shared;
  private final WriteState state;
  private final long ownPartitionAbove;

  /**
   * A move in progress: the ids of the owner's records written or deleted in the shared index since
   * the view the move copies was taken (guarded by the write lock), to catch up after the copy.
   */
  private static final class Move {
    final Set<String> touched = new LinkedHashSet<>();
    volatile boolean cancelled;
  }

  /** Owners being moved, guarded by the write lock. */
  private final Map<String, Move> moving = new HashMap<>();

  /** Owners whose move failed; not tried again until the store is reopened. Write lock. */
  private final Set<String> moveFailed = new HashSet<>();

  private volatile boolean closing;

  /** One thread runs the moves, one at a time, started on the first. */
  private final ExecutorService mover =
      Executors.newSingleThreadExecutor(
          r -> {
            Thread t = new Thread(r, "mnemo-partition-move");
            t.setDaemon(true);
            return t;
          });

  /**
   * Test hook: told each step of a move ("copied", then "switched") on the mover's thread, under
   * the write lock for "switched".
   */
  volatile Consumer<String> moveStep = step -> {};

  /**
   * A mover of the owners of {@code partitions}' shared index with more than {@code
   * ownPartitionAbove} records ({@link Long#MAX_VALUE}: never).
   */
  OwnerMover(Partitions partitions, WriteState state, long ownPartitionAbove) {
    this.partitions = partitions;
    this.shared = partitions.shared;
    this.state = state;
    this.ownPartitionAbove = ownPartitionAbove;
  }

  /**
   * Schedules a move, in the background, of every owner of the shared index with more records than
   * the layout allows.
   */
  void scheduleLargeOwners() throws IOException {
    if (ownPartitionAbove == Long.MAX_VALUE) return;
    List<String> large = new ArrayList<>();
    IndexSearcher s = Partitions.acquire(shared);
    try {
      Terms owners = MultiTerms.getTerms(s.getIndexReader(), Schema.OWNER);
      if (owners != null) {
        TermsEnum it = owners.iterator();
        for (BytesRef t = it.next(); t != null; t = it.next()) {
          // docFreq counts deleted documents too: only a first sieve
          if (it.docFreq() > ownPartitionAbove) large.add(t.utf8ToString());
        }
      }
      large.removeIf(
          o -> {
            try {
              return s.count(Queries.term(Schema.OWNER, o)) <= ownPartitionAbove;
            } catch (IOException e) {
              throw new java.io.UncheckedIOException(e);
            }
          });
    } catch (java.io.UncheckedIOException e) {
      throw e.getCause();
    } finally {
      Partitions.release(shared, s);
    }
    synchronized (state) {
      // the log applied again on open may have scheduled some already
      for (String owner : large) if (!moving.containsKey(owner)) schedule(owner);
    }
  }

  /**
   * Schedules a move for each of the owners, just written to the shared index, who are now larger
   * than the layout allows (under the write lock). The writes are done: a failure to count is
   * logged, and the next write tries again.
   */
  void scheduleIfLarge(Collection<String> owners) {
    if (ownPartitionAbove == Long.MAX_VALUE) return;
    for (String o : owners) {
      if (partitions.table().containsKey(o)) continue;
      try {
        maybeMove(o);
      } catch (IOException | RuntimeException e) {
        LOG.log(System.Logger.Level.WARNING, "counting the records of an owner to move failed", e);
      }
    }
  }

  /**
   * Records a write to the shared index in the journal of the moves under way: call under the write
   * lock. {@code written}: the ids the write put there, each with its index in {@code upserts};
   * {@code gone}: the ids it deleted there.
   */
  void journal(List<MemoryRecord> upserts, Map<String, Integer> written, Set<String> gone) {
    if (moving.isEmpty()) return;
    for (var w : written.entrySet()) {
      Move m = moving.get(upserts.get(w.getValue()).owner());
      if (m != null) touch(m, w.getKey());
    }
    for (Move m : moving.values()) for (String id : gone) touch(m, id);
  }

  /** Puts the id last in the journal, where the write put the record in the index. */
  private static void touch(Move m, String id) {
    m.touched.remove(id);
    m.touched.add(id);
  }

  /** Gives up the owner's move, if one is under way (a forget: its copy would bring them back). */
  void cancel(String owner) {
    Move move = moving.get(owner);
    if (move != null) move.cancelled = true;
  }

  /** Schedules a move of the owner if they are above the limit (under the write lock). */
  private void maybeMove(String owner) throws IOException {
    if (moving.containsKey(owner) || moveFailed.contains(owner) || closing) return;
    if (Partitions.countIn(shared, owner) > ownPartitionAbove) schedule(owner);
  }

  private void schedule(String owner) {
    if (partitions.table().containsKey(owner)) return; // moved already
    Move m = new Move();
    moving.put(owner, m);
    try {
      mover.execute(() -> runMove(owner, m));
    } catch (RejectedExecutionException e) {
      moving.remove(owner); // closing
    }
  }

  private void runMove(String owner, Move m) {
    try {
      moveToOwnPartition(owner, m);
    } catch (IOException | RuntimeException e) {
      synchronized (state) {
        moveFailed.add(owner);
      }
      LOG.log(
          System.Logger.Level.WARNING,
          "moving owner "
              + owner
              + " to a partition of their own failed; they stay in the shared"
              + " index: "
              + e,
          e);
    } finally {
      synchronized (state) {
        moving.remove(owner);
      }
    }
  }

  /**
   * Waits until every move scheduled so far has finished (or failed; the owner then stays in the
   * shared index).
   */
  void awaitMoves() {
    try {
      mover.submit(() -> {}).get();
    } catch (RejectedExecutionException e) {
      // closed: no move runs
    } catch (java.util.concurrent.ExecutionException e) {
      throw new IllegalStateException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new MnemoException("interrupted waiting for partition moves", false, e);
    }
  }

  /** Stops the mover: a move under way gives up (its folder is removed, or on the next open). */
  void stop() throws IOException {
    closing = true;
    mover.shutdown();
    try {
      if (!mover.awaitTermination(10, java.util.concurrent.TimeUnit.MINUTES))
        throw new IOException("a partition move did not stop within 10 minutes");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new java.io.InterruptedIOException("interrupted stopping partition moves");
    }
  }

  /**
   * Moves the owner's records from the shared index to a new index of their own, while writes go
   * on: (1) copies them, in recorded order, from a point-in-time view of the shared index (taken
   * under the write lock, where the journal starts), and commits the copy, without any lock; (2)
   * under the write lock, commits the shared index (so everything it holds of the owner is
   * durable), copies again the records written or deleted since the view was taken (the journal)
   * and commits that, then switches the table (the point where the move happens, on disk and for
   * readers) and deletes the owner from the shared index; (3) awaits that commit outside the lock.
   * A write that arrives during (1) lands in the shared index and is in the journal; one after (2)
   * goes to the owner's index. A crash before the switch leaves a folder the table does not list;
   * after it, copies in the shared index: both repaired on open.
   */
  private void moveToOwnPartition(String owner, Move m) throws IOException {
    String name;
    synchronized (state) {
      name = partitions.newFolder();
    }
    Path path = partitions.ownersDir().resolve(name);
    Partition p = partitions.openPartition(owner, path);
    boolean switched = false;
    long ticket;
    try {
      // A larger buffer while copying, so that the owner's index starts as one or a few segments
      // (each segment is a graph of its own to search), not one per 16 MB of the default.
      p.writer.getConfig().setRAMBufferSizeMB(MOVE_BUFFER_MB);
      if (!copy(owner, m, p)) return;
      Partitions.commit(p, state.embeddingModel);
      moveStep.accept("copied");
      synchronized (state) {
        if (closing || m.cancelled || state.failed) return;
        catchUp(owner, m, p);
        partitions.switchTo(owner, name, p);
        switched = true;
        ticket = deleteFromShared(owner);
        moveStep.accept("switched");
      }
    } finally {
      if (!switched) discard(owner, p, path);
    }
    try {
      shared.commits.await(ticket);
    } catch (IOException e) {
      state.failed = true;
      throw e;
    }
  }

  /**
   * Step (1) of a move: the owner's records copied into {@code p} from a view of the shared index;
   * false when the move gave up (the store closing, or the owner forgotten).
   */
  private boolean copy(String owner, Move m, Partition p) throws IOException {
    IndexSearcher s;
    // the view copied and the start of the journal at the same point: the journal then holds
    // exactly what changed after the view, in the order it was written
    synchronized (state) {
      s = Partitions.acquire(shared);
      m.touched.clear();
    }
    try {
      Query q = Queries.term(Schema.OWNER, owner);
      // in recorded order (then id): the order the records were written in when they arrive in
      // time, whatever order the shared index's merges left its segments in
      TopDocs all = s.search(q, Math.max(1, s.count(q)), Queries.OLDEST_FIRST);
      for (ScoreDoc sd : all.scoreDocs) {
        if (closing || m.cancelled) return false;
        p.writer.addDocument(Schema.checkedDocument(StoredRecords.load(s, sd.doc)));
      }
      return true;
    } finally {
      Partitions.release(shared, s);
    }
  }

  /**
   * The start of step (2), under the write lock: the shared index committed, the journal's records
   * copied again (or deleted) in {@code p}, and {@code p} committed.
   */
  private void catchUp(String owner, Move m, Partition p) throws IOException {
    // everything the shared index holds of the owner durable before the owner's index takes
    // it: the switch must not make durable a write that was never acknowledged
    shared.commits.commitNow();
    IndexSearcher s = Partitions.acquire(shared);
    try {
      for (String id : m.touched) {
        List<MemoryRecord> now =
            StoredRecords.find(
                s,
                Queries.and(Queries.term(Schema.OWNER, owner), Queries.term(Schema.ID, id)),
                1,
                false);
        if (now.isEmpty()) p.writer.deleteDocuments(new Term(Schema.ID, id));
        else p.writer.updateDocument(new Term(Schema.ID, id), Schema.checkedDocument(now.get(0)));
      }
    } finally {
      Partitions.release(shared, s);
    }
    p.writer.getConfig().setRAMBufferSizeMB(IndexWriterConfig.DEFAULT_RAM_BUFFER_SIZE_MB);
    Partitions.commit(p, state.embeddingModel);
  }

  /**
   * The end of step (2), after the switch: the owner deleted from the shared index, made visible;
   * returns the ticket of the commit that makes it durable.
   */
  private long deleteFromShared(String owner) throws IOException {
    try {
      shared.writer.deleteDocuments(new Term(Schema.OWNER, owner));
      shared.searchers.maybeRefreshBlocking();
      return shared.commits.issue();
    } catch (IOException | RuntimeException e) {
      // the move happened (the table says so); the copies left are deleted on the next open
      shared.rollback(e);
      state.failed = true;
      throw e;
    }
  }

  /** A move that never switched: its index closed, unwritten, and its folder removed. */
  private void discard(String owner, Partition p, Path path) {
    IOUtils.closeWhileHandlingException(p.searchers, p.writer::rollback, p.directory);
    try {
      IOUtils.rm(path);
    } catch (IOException e) {
      // removed on the next open (a folder not in the table)
    }
    partitions.discarded(owner);
  }
}

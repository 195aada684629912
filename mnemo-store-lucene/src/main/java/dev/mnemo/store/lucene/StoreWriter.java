package dev.mnemo.store.lucene;

import dev.mnemo.MemoryRecord;
import dev.mnemo.MnemoException;
import dev.mnemo.spi.MemoryStore.Durable;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import org.apache.lucene.document.Document;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.TermInSetQuery;
import org.apache.lucene.util.BytesRef;

/**
 * The store's writes: concurrent calls applied as one group under the write lock (documents added
 * write after write, one refresh per index, each write logged in order), made durable outside it by
 * a shared sync of the write-ahead log or shared commits; the log's checkpoints and its replay on
 * open; and the forget of an owner. Thread-safe.
 */
final class StoreWriter {
  private static final System.Logger LOG = System.getLogger(LuceneMemoryStore.class.getName());

  /** The folder of the store's directory that holds the write-ahead log. */
  static final String LOG_DIR = "wal";

  /**
   * Log bytes after which a writer, once acknowledged, commits the indexes and deletes the log's
   * older files (a checkpoint): it bounds what an open after a crash applies again (about 8,000
   * records of 384 dimensions, a few seconds).
   */
  static final long CHECKPOINT_BYTES = 32L << 20;

  /** {@link #CHECKPOINT_BYTES}, lowered by tests. */
  volatile long checkpointBytes = CHECKPOINT_BYTES;

  private final Path dir;
  private final Partitions partitions;
  private final Partition shared;
  private final WriteState state;
  private final OwnerMover mover;

  /**
   * The write-ahead log position: every logged write up to it is in the writers of the indexes it
   * went to (set under the write lock once a write's documents are added). Each commit records it.
   */
  private final AtomicLong logged;

  /** The write-ahead log (null without one); set by {@link #recover}. */
  private WriteAheadLog wal;

  /** Syncs of the write-ahead log, shared by concurrent writers (null without a log). */
  private GroupCommit walSyncs;

  /**
   * Held by a checkpoint; a forget holds it too, so that the log files it deletes (which hold the
   * forgotten owner's text) are not sealed by someone else meanwhile. Taken before the write lock.
   */
  private final ReentrantLock checkpointLock = new ReentrantLock();

  /** The writer of the store in {@code dir}; {@code logged} is the log position commits record. */
  StoreWriter(
      Path dir, Partitions partitions, WriteState state, OwnerMover mover, AtomicLong logged) {
    this.dir = dir;
    this.partitions = partitions;
    this.shared = partitions.shared;
    this.state = state;
    this.mover = mover;
    this.logged = logged;
  }

  /** The write-ahead log, or null without one. */
  WriteAheadLog log() {
    return wal;
  }

  /**
   * {@link LuceneMemoryStore#applyVisible}, or with {@code replay} > 0 a logged write applied again
   * on open: only to the indexes whose last commit does not hold it, and not logged again.
   *
   * <p>Concurrent calls are combined: a call queues its write and takes the write lock; the first
   * to get it applies every write queued by then ({@link #applyGroup}), the others find theirs
   * done. A group's documents are added one write after another, then each index is refreshed once
   * for all of them (Lucene's near-real-time reopen, a few milliseconds of CPU that each write used
   * to pay alone), then each write is logged in order. Nothing is logged before its documents are
   * visible, so a write refused for a failed refresh never comes back when the log is applied.
   */
  Durable write(List<MemoryRecord> upserts, Collection<String> deleteIds, long replay) {
    Pending w = new Pending(upserts, deleteIds, replay);
    synchronized (queue) {
      queue.add(w);
    }
    synchronized (state) {
      if (!w.done) {
        beforeGroup.run();
        List<Pending> group;
        synchronized (queue) {
          group = new ArrayList<>(queue);
          queue.clear();
        }
        applyGroup(group);
        groupApplied.accept(group.size());
      }
    }
    if (w.refused != null) {
      for (Partition p : w.pinned) partitions.unpin(p);
      throw w.refused;
    }
    return () -> awaitDurable(w.tickets, w.pinned);
  }

  /** A write waiting for the write lock; then done, with what makes it durable, or refused. */
  private static final class Pending {
    final List<MemoryRecord> upserts;
    final Collection<String> deleteIds;
    final long replay;
    final List<Partition> pinned = new ArrayList<>();
    // what makes the call durable: the log's sync, or the commits of its indexes
    final Map<GroupCommit, Long> tickets = new LinkedHashMap<>();
    Set<Partition> touched = Set.of();
    String model;
    boolean done;
    MnemoException refused;

    Pending(List<MemoryRecord> upserts, Collection<String> deleteIds, long replay) {
      this.upserts = upserts;
      this.deleteIds = deleteIds;
      this.replay = replay;
    }

    void refuse(MnemoException e) {
      if (done) return;
      refused = e;
      done = true;
    }
  }

  /** Writes queued for the write lock (see {@link #write}). */
  private final List<Pending> queue = new ArrayList<>();

  /** Tests: run under the write lock before a group is taken from the queue. */
  volatile Runnable beforeGroup = () -> {};

  /** Tests: told the size of every group applied. */
  volatile java.util.function.IntConsumer groupApplied = n -> {};

  /** Tests: writes queued now. */
  int queued() {
    synchronized (queue) {
      return queue.size();
    }
  }

  /**
   * Applies a group of queued writes under the write lock: each write's documents, one refresh per
   * index, each write's log entry. A write whose records cannot be indexed is refused alone; a
   * failure of the writer or of a refresh rolls back every index the group touched and refuses the
   * whole group (nothing of it was logged; acknowledged writes those indexes lose are in the log,
   * applied again when the store is reopened, which it must be).
   */
  private void applyGroup(List<Pending> group) {
    try {
      state.checkWritable();
      List<Pending> added = addGroup(group);
      logGroup(added);
      scheduleMoves(added);
    } catch (MnemoException e) {
      for (Pending w : group) w.refuse(e);
    } catch (RuntimeException | Error e) {
      // unexpected: no write of the group may be left waiting, none acknowledged
      state.failed = true;
      MnemoException refusal =
          new MnemoException("write failed, nothing was acknowledged: " + e, false, e);
      for (Pending w : group) w.refuse(refusal);
      throw e;
    }
  }

  /**
   * Where one write goes: per index, its upserts by id with their place in the write (the last of
   * an id wins, as one replace after another did) and the ids it deletes; and the index each
   * upserted id goes to.
   */
  private record Routes(
      Map<Partition, Map<String, Integer>> writes,
      Map<Partition, Set<String>> deletes,
      Map<String, Partition> upserted) {}

  /**
   * Adds the documents of the group's writes to their indexes, one write after another, then
   * refreshes each index the group touched once; returns the writes added (those not refused
   * alone). A failure rolls back every index the group touched and is thrown as the refusal.
   */
  private List<Pending> addGroup(List<Pending> group) {
    List<Pending> added = new ArrayList<>(group.size());
    Set<Partition> touchedAll = new LinkedHashSet<>();
    Map<String, Partition> groupIds = new HashMap<>(); // ids the group's writes so far upserted
    String model = state.embeddingModel;
    Partition current = null;
    try {
      for (Pending w : group) {
        List<Document> docs = documents(w);
        if (docs == null) continue;
        Routes routes = route(w, groupIds);
        String before = model;
        for (MemoryRecord r : w.upserts)
          if (r.embeddingModel() != null && !r.embeddingModel().isEmpty())
            model = r.embeddingModel();
        Set<Partition> touched = new LinkedHashSet<>();
        touched.addAll(routes.writes().keySet());
        touched.addAll(routes.deletes().keySet());
        if (!Objects.equals(model, before) || touched.isEmpty()) touched.add(shared);
        if (w.replay > 0) touched.removeIf(p -> p.committedLogSeq >= w.replay);
        w.touched = touched;
        w.model = model;
        added.add(w);
        for (Partition p : touched) {
          current = p;
          touchedAll.add(p);
          addTo(p, w, routes, docs, model);
        }
        current = null;
        for (var e : routes.upserted().entrySet()) groupIds.put(e.getKey(), e.getValue());
        for (String id : w.deleteIds) groupIds.remove(id);
      }
      for (Partition p : touchedAll) {
        current = p;
        p.searchers.maybeRefreshBlocking();
      }
      current = null;
    } catch (IOException | RuntimeException e) {
      if (current != null) touchedAll.add(current);
      throw rollBack(touchedAll, e);
    }
    return added;
  }

  /**
   * The write's documents, or null when one of its records cannot be indexed: the write is then
   * refused, before the writer saw anything (the store stays writable).
   */
  private static List<Document> documents(Pending w) {
    List<Document> docs = new ArrayList<>(w.upserts.size());
    try {
      for (MemoryRecord r : w.upserts) docs.add(Schema.checkedDocument(r));
      return docs;
    } catch (IllegalArgumentException e) {
      w.refuse(
          new MnemoException("write refused, nothing was written: " + e.getMessage(), false, e));
      return null;
    }
  }

  /**
   * Routes the write: upserts to the index of their owner; a delete to the index holding the id
   * (the write's owners' first, then the shared one, then the other owners'), to the index the
   * write upserts it to, and to the index an earlier write of the group upserted it to ({@code
   * groupIds}). Indexes are pinned into the write's list.
   */
  private Routes route(Pending w, Map<String, Partition> groupIds) throws IOException {
    Map<String, Partition> byOwner = new LinkedHashMap<>();
    Map<Partition, Map<String, Integer>> writes = new LinkedHashMap<>();
    Map<Partition, Set<String>> deletes = new LinkedHashMap<>();
    List<MemoryRecord> upserts = w.upserts;
    for (int i = 0; i < upserts.size(); i++) {
      Partition p =
          byOwner.computeIfAbsent(upserts.get(i).owner(), o -> partitions.pinFor(o, w.pinned));
      writes.computeIfAbsent(p, x -> new LinkedHashMap<>()).put(upserts.get(i).id(), i);
    }
    Map<String, Partition> upserted = new HashMap<>();
    for (int i = 0; i < upserts.size(); i++)
      upserted.put(upserts.get(i).id(), byOwner.get(upserts.get(i).owner()));
    for (String id : w.deleteIds) {
      Partition holder = partitions.holder(id, byOwner.values(), w.pinned);
      Partition again = upserted.get(id);
      // written by an earlier write of the group: in its writer, not yet in its searcher
      Partition earlier = groupIds.get(id);
      if (holder != null) deletes.computeIfAbsent(holder, x -> new LinkedHashSet<>()).add(id);
      if (again != null && again != holder)
        deletes.computeIfAbsent(again, x -> new LinkedHashSet<>()).add(id);
      // (an earlier write of the group pinned it, until that write's acknowledgement)
      if (earlier != null && earlier != holder && earlier != again)
        deletes.computeIfAbsent(earlier, x -> new LinkedHashSet<>()).add(id);
    }
    return new Routes(writes, deletes, upserted);
  }

  /**
   * The write's part in index {@code p} as one Lucene operation ({@code updateDocuments} with a
   * delete query on the ids), so no commit and no reader holds part of it; journalled for the moves
   * under way when {@code p} is the shared index.
   */
  private void addTo(Partition p, Pending w, Routes routes, List<Document> docs, String model)
      throws IOException {
    // the commit data first: a commit that holds the documents then holds their model
    p.setCommitData(model);
    Set<String> gone = routes.deletes().getOrDefault(p, Set.of());
    Map<String, Integer> written = routes.writes().getOrDefault(p, Map.of());
    List<Document> block = new ArrayList<>();
    List<BytesRef> ids = new ArrayList<>();
    for (var e : written.entrySet()) {
      ids.add(new BytesRef(e.getKey()));
      if (!gone.contains(e.getKey())) block.add(docs.get(e.getValue()));
    }
    for (String id : gone) if (!written.containsKey(id)) ids.add(new BytesRef(id));
    if (!ids.isEmpty()) {
      Query these = new TermInSetQuery(Schema.ID, ids);
      if (block.isEmpty()) p.writer.deleteDocuments(these);
      else p.writer.updateDocuments(these, block);
    }
    if (p == shared) mover.journal(w.upserts, written, gone);
  }

  /**
   * Logs the added writes, in order, and issues what makes each durable; each write is then done.
   * Logged last, once nothing can fail the call before it (a call refused must not come back when
   * the log is applied again), and once the writers have it: a commit from here on may record the
   * position.
   */
  private void logGroup(List<Pending> added) {
    for (int j = 0; j < added.size(); j++) {
      Pending w = added.get(j);
      try {
        if (wal == null) for (Partition p : w.touched) w.tickets.put(p.commits, p.commits.issue());
        if (w.replay > 0) logged.set(Math.max(logged.get(), w.replay));
        else if (wal != null) {
          logged.set(wal.append(w.upserts, w.deleteIds));
          w.tickets.put(walSyncs, walSyncs.issue());
        }
        state.embeddingModel = w.model;
        w.done = true;
      } catch (IOException | RuntimeException e) {
        Set<Partition> unlogged = new LinkedHashSet<>();
        for (Pending later : added.subList(j, added.size())) unlogged.addAll(later.touched);
        throw rollBack(unlogged, e);
      }
    }
  }

  /**
   * Schedules a move for each owner of the shared index the writes made larger than the layout
   * allows ({@link OwnerMover#scheduleIfLarge}).
   */
  private void scheduleMoves(List<Pending> writes) {
    Set<String> owners = new LinkedHashSet<>();
    for (Pending w : writes)
      if (w.touched.contains(shared)) for (MemoryRecord r : w.upserts) owners.add(r.owner());
    mover.scheduleIfLarge(owners);
  }

  /**
   * After a failed write: rolls back {@code touched} (uncommitted documents of refused writes must
   * not be committed by a later close) and marks the store failed; returns the refusal.
   */
  private MnemoException rollBack(Set<Partition> touched, Exception e) {
    for (Partition p : touched) if (!p.failed) p.rollback(e);
    state.failed = true;
    return new MnemoException(
        "write failed, nothing was acknowledged: " + e.getMessage(), false, e);
  }

  /**
   * Waits for what makes a call durable (the log's sync holding it, or the commits of its indexes)
   * and unpins its indexes; then, with the log, runs a checkpoint if the log has grown past {@link
   * #CHECKPOINT_BYTES} and none is running.
   */
  private void awaitDurable(Map<GroupCommit, Long> tickets, List<Partition> pinned) {
    try {
      for (var t : tickets.entrySet()) t.getKey().await(t.getValue());
    } catch (IOException | RuntimeException e) {
      state.failed = true;
      throw new MnemoException(
          "write failed, nothing was acknowledged: " + e.getMessage(), false, e);
    } finally {
      for (Partition p : pinned) partitions.unpin(p);
    }
    if (wal != null && wal.bytesSinceSeal() >= checkpointBytes && checkpointLock.tryLock()) {
      try {
        checkpoint();
      } catch (IOException | RuntimeException e) {
        // the call's write is durable in the log; the store is not (a failed commit rolled its
        // index back): later writes are refused until it is reopened, which applies the log again
        state.failed = true;
        LOG.log(System.Logger.Level.ERROR, "checkpoint of the store in " + dir + " failed", e);
      } finally {
        checkpointLock.unlock();
      }
    }
  }

  /**
   * Commits every index with changes (each commit records the log position) and deletes the log
   * files sealed before: what the log held is then in the indexes' commits. Call holding {@link
   * #checkpointLock}, not the write lock.
   */
  private void checkpoint() throws IOException {
    List<Path> sealed;
    List<Partition> pinned;
    synchronized (state) {
      state.checkWritable();
      sealed = wal.seal();
      // every write logged in the sealed files is in these writers now; partitions closed since
      // committed everything when they closed
      pinned = partitions.pinOpen();
    }
    try {
      if (shared.writer.hasUncommittedChanges()) shared.commits.commitNow();
      for (Partition p : pinned) if (p.writer.hasUncommittedChanges()) p.commits.commitNow();
    } finally {
      for (Partition p : pinned) partitions.unpin(p);
    }
    wal.deleteSealed(sealed);
  }

  /**
   * Opens the write-ahead log and applies again what it holds that the indexes' last commits do not
   * (a crash since the last checkpoint), then checkpoints.
   */
  void recover() throws IOException {
    List<WriteAheadLog.Entry> entries = new ArrayList<>();
    try {
      wal = WriteAheadLog.open(dir.resolve(LOG_DIR), partitions::committedLogFloor, entries);
    } catch (java.io.UncheckedIOException e) {
      throw e.getCause(); // reading a partition's commit for the floor
    }
    walSyncs = new GroupCommit(wal::sync);
    for (WriteAheadLog.Entry e : entries) write(e.upserts(), e.deletes(), e.seq()).await();
    logged.set(wal.lastSeq());
    if (!entries.isEmpty()) {
      checkpointLock.lock();
      try {
        checkpoint();
      } finally {
        checkpointLock.unlock();
      }
    }
  }

  /**
   * Deletes the owner's records. From the shared index: deleted and merged away. An owner with a
   * partition of their own: the table switched without them (the point of the forget, on disk and
   * for readers), the partition closed once no call uses it, its folder deleted, and the shared
   * index committed (the store's state changes). Then, with a write-ahead log, a checkpoint: the
   * log's files, which hold the owner's texts and vectors too, are deleted.
   */
  int deleteOwner(String owner) {
    checkpointLock.lock();
    try {
      int n = deleteFromIndexes(owner);
      if (wal != null) {
        try {
          synchronized (state) {
            // an empty entry: the forget moves the log's position, which names the store's state
            state.checkWritable();
            logged.set(wal.append(List.of(), List.of()));
          }
          checkpoint();
        } catch (IOException | RuntimeException e) {
          state.failed = true;
          throw new MnemoException(
              "forget of owner "
                  + owner
                  + ": the records are deleted from the index, but the write-ahead log that"
                  + " still holds them could not be cleared: "
                  + e.getMessage()
                  + "; reopen the store and forget the owner again",
              false,
              e);
        }
      }
      return n;
    } finally {
      checkpointLock.unlock();
    }
  }

  private int deleteFromIndexes(String owner) {
    synchronized (state) {
      state.checkWritable();
      mover.cancel(owner); // its copy would bring them back
      try {
        int n = 0;
        if (partitions.table().containsKey(owner)) {
          n =
              (int)
                  partitions.read(owner, (p, s) -> (long) s.getIndexReader().numDocs()).longValue();
          partitions.remove(owner);
        }
        int inShared = (int) Partitions.countIn(shared, owner);
        shared.writer.deleteDocuments(Queries.term(Schema.OWNER, owner));
        // A right to be forgotten: merge the deleted documents away so text and vectors are gone
        // from the files, not just hidden.
        shared.writer.forceMergeDeletes(true);
        Partitions.commit(shared, state.embeddingModel);
        return n + inShared;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new MnemoException("forget interrupted for owner " + owner, false, e);
      } catch (IOException | RuntimeException e) {
        shared.rollback(e);
        state.failed = true;
        throw new MnemoException(
            "forget failed for owner " + owner + ": " + e.getMessage(), false, e);
      }
    }
  }
}

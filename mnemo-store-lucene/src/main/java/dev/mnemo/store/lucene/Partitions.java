package dev.mnemo.store.lucene;

import dev.mnemo.MnemoException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.LongSupplier;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.index.SegmentInfos;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.util.IOUtils;

/**
 * Which index holds an owner's records: the shared index, and the owners' own partitions listed in
 * the table of {@code dir/owners}, opened on first use, pinned while a call uses them and the least
 * recently used idle ones closed beyond the layout's bound. Reads are routed here, and run again
 * when the owner moved meanwhile. Thread-safe: the table is replaced whole, the open partitions are
 * guarded by their map's lock.
 */
final class Partitions {
  /** The folder of the store's directory that holds the owners' own partitions and their table. */
  static final String OWNERS_DIR = "owners";

  /** The shared index, holding every owner without a partition of their own; always open. */
  final Partition shared;

  private final Path ownersDir;
  private final Analyzer analyzer;
  private final VectorFormat partitionVectors;
  private final int maxOpenPartitions;
  private final LongSupplier logged;

  /**
   * Owner -> folder under {@code dir/owners} of the owners with their own partition; replaced whole
   * under {@link #open}'s lock.
   */
  private volatile Map<String, String> table;

  /** The owners' partitions that are open, least recently used first; guarded by itself. */
  private final LinkedHashMap<String, Partition> open = new LinkedHashMap<>(16, 0.75f, true);

  /**
   * The last commit generation of each owner's partition (for the store's state), guarded by {@link
   * #open}.
   */
  private final Map<String, Long> generations = new HashMap<>();

  /**
   * The partitions of the store in {@code dir}: the open {@code shared} index and the owners'
   * listed in the table there; {@code logged} gives the write-ahead log position each commit
   * records.
   */
  Partitions(
      Path dir,
      Partition shared,
      Analyzer analyzer,
      LuceneMemoryStore.Layout layout,
      LongSupplier logged)
      throws IOException {
    this.ownersDir = dir.resolve(OWNERS_DIR);
    this.shared = shared;
    this.analyzer = analyzer;
    this.partitionVectors = layout.partitionVectors();
    this.maxOpenPartitions = layout.maxOpenPartitions();
    this.logged = logged;
    this.table = Map.copyOf(Partition.Table.read(ownersDir));
  }

  /** The table now: owner -> folder of the owners with their own partition. */
  Map<String, String> table() {
    return table;
  }

  /** The folder of the owners' own partitions and their table. */
  Path ownersDir() {
    return ownersDir;
  }

  /**
   * Repairs what a crash during a move or a forget left: folders of {@code dir/owners} not in the
   * table are removed (a move that never switched, or a forgotten owner's files), and records still
   * in the shared index of owners in the table are deleted (a move that switched but had not yet
   * deleted them); true when the shared index then has deletes to commit. Reads the commit
   * generation of every owner's partition. For the store's open, before anything else uses it.
   */
  boolean repair() throws IOException {
    Path folder = ownersDir;
    if (!Files.isDirectory(folder)) return false;
    Set<String> known = new HashSet<>(table.values());
    try (var entries = Files.list(folder)) {
      for (Path p : entries.toList()) {
        if (Files.isDirectory(p) && !known.contains(p.getFileName().toString())) IOUtils.rm(p);
      }
    }
    boolean stale = false;
    for (var e : table.entrySet()) {
      Path p = folder.resolve(e.getValue());
      if (!Files.isDirectory(p)) {
        throw new IOException(
            "the partition "
                + p
                + " of owner "
                + e.getKey()
                + " listed in "
                + Partition.Table.FILE
                + " is missing");
      }
      String[] files;
      try (var list = Files.list(p)) {
        files = list.map(f -> f.getFileName().toString()).toArray(String[]::new);
      }
      generations.put(e.getKey(), SegmentInfos.getLastCommitGeneration(files));
      if (countIn(shared, e.getKey()) > 0) {
        shared.writer.deleteDocuments(new Term(Schema.OWNER, e.getKey()));
        stale = true;
      }
    }
    return stale;
  }

  /**
   * Commits {@code p} with the store's commit data (sharing a commit running for writers) and
   * refreshes its searchers.
   */
  static void commit(Partition p, String model) throws IOException {
    p.setCommitData(model);
    p.commits.commitNow();
    p.searchers.maybeRefreshBlocking();
  }

  /** Opens the owner's index in {@code path} (created if needed). */
  Partition openPartition(String owner, Path path) throws IOException {
    Directory d = SyncNewFilesDirectory.open(path);
    boolean success = false;
    try {
      Partition p =
          Partition.open(
              d,
              path,
              owner,
              analyzer,
              partitionVectors,
              generation -> {
                synchronized (open) {
                  generations.put(owner, generation);
                }
              },
              logged);
      success = true;
      return p;
    } finally {
      if (!success) IOUtils.closeWhileHandlingException(d);
    }
  }

  /**
   * A new folder for an owner's partition, created, named after none in the table or on disk (call
   * under the store's write lock, which serializes moves against forgets).
   */
  String newFolder() throws IOException {
    int n = 1;
    Set<String> taken = new HashSet<>(table.values());
    while (taken.contains("o" + n) || Files.exists(ownersDir.resolve("o" + n))) n++;
    String name = "o" + n;
    Files.createDirectories(ownersDir.resolve(name));
    return name;
  }

  /**
   * Switches the owner to their own partition {@code p} in folder {@code name}: the table written
   * (the point of a move, on disk), then replaced for readers with {@code p} open.
   */
  void switchTo(String owner, String name, Partition p) throws IOException {
    Map<String, String> next = new TreeMap<>(table);
    next.put(owner, name);
    Partition.Table.write(ownersDir, next);
    synchronized (open) {
      table = Map.copyOf(next);
      open.put(owner, p);
      evictIdle();
    }
  }

  /** Forgets the commit generation of a partition that was never switched to. */
  void discarded(String owner) {
    synchronized (open) {
      generations.remove(owner);
    }
  }

  /**
   * Removes the owner's own partition: the table switched without them (the point of a forget, on
   * disk and for readers), the partition closed once no call uses it, its folder deleted. Call
   * under the store's write lock, with the owner in the table.
   */
  void remove(String owner) throws IOException, InterruptedException {
    String name = table.get(owner);
    Map<String, String> next = new TreeMap<>(table);
    next.remove(owner);
    Partition.Table.write(ownersDir, next);
    Partition p;
    synchronized (open) {
      table = Map.copyOf(next);
      generations.remove(owner);
      p = open.remove(owner);
      while (p != null && p.pins > 0) open.wait();
    }
    if (p != null) p.close();
    IOUtils.rm(ownersDir.resolve(name));
  }

  /**
   * The partition holding the owner's records, pinned (never closed while pinned): the owner's own,
   * opened if needed, or the shared index.
   */
  Partition pin(String owner) {
    if (owner == null || !table.containsKey(owner)) return shared;
    synchronized (open) {
      if (!table.containsKey(owner)) return shared;
      Partition p = open.get(owner);
      if (p == null) {
        try {
          p = openPartition(owner, ownersDir.resolve(table.get(owner)));
        } catch (IOException e) {
          throw readFailed(e);
        }
        open.put(owner, p);
      }
      p.pins++;
      evictIdle();
      return p;
    }
  }

  void unpin(Partition p) {
    if (p == shared) return;
    synchronized (open) {
      p.pins--;
      if (p.pins == 0) open.notifyAll();
    }
  }

  /** {@link #pin}, adding an owner's own partition to {@code pinned} (to unpin later). */
  Partition pinFor(String owner, List<Partition> pinned) {
    Partition p = pin(owner);
    if (p != shared) pinned.add(p);
    return p;
  }

  /** Every owner's partition open now, pinned (to unpin later). */
  List<Partition> pinOpen() {
    List<Partition> pinned = new ArrayList<>();
    synchronized (open) {
      for (Partition p : open.values()) {
        p.pins++;
        pinned.add(p);
      }
    }
    return pinned;
  }

  /**
   * Closes the least recently used unpinned partitions beyond the layout's bound (under {@link
   * #open}'s lock).
   */
  private void evictIdle() {
    Iterator<Partition> it = open.values().iterator();
    while (open.size() > maxOpenPartitions && it.hasNext()) {
      Partition p = it.next();
      if (p.pins > 0) continue;
      it.remove();
      IOUtils.closeWhileHandlingException(p);
    }
  }

  /** Number of owners' partitions open now (tests). */
  int openCount() {
    synchronized (open) {
      return open.size();
    }
  }

  /** The sum of the owners' partitions' last commit generations (for the store's state). */
  long generationSum() {
    synchronized (open) {
      return generations.values().stream().mapToLong(Long::longValue).sum();
    }
  }

  /** A read of one index: the partition and a searcher acquired from it. */
  interface Read<T> {
    T apply(Partition p, IndexSearcher s) throws IOException;
  }

  /**
   * {@code fn} on the index holding the owner's records. If the owner moved while it ran (their
   * records copied to their own partition, or forgotten), it runs again where they are now.
   */
  <T> T read(String owner, Read<T> fn) {
    while (true) {
      String before = owner == null ? null : table.get(owner);
      Partition p = pin(owner);
      try {
        IndexSearcher s = acquire(p);
        try {
          T out = fn.apply(p, s);
          if (owner == null || Objects.equals(before, table.get(owner))) return out;
        } finally {
          release(p, s);
        }
      } catch (IOException e) {
        throw readFailed(e);
      } finally {
        unpin(p);
      }
    }
  }

  /** {@code fn} on every index, the shared one first, then the owners' in the table's order. */
  <T> List<T> acrossAll(Read<T> fn) {
    List<T> out = new ArrayList<>();
    out.add(read(null, fn));
    for (String owner : table.keySet()) out.add(read(owner, fn));
    return out;
  }

  /**
   * The index that holds a record with this id, or null: the call's owners' first, then the shared
   * one, then the owners' that are open, then the rest (opened one by one, added to {@code
   * pinned}).
   */
  Partition holder(String id, Collection<Partition> first, List<Partition> pinned)
      throws IOException {
    Set<Partition> tried = new HashSet<>();
    List<Partition> order = new ArrayList<>(first);
    order.add(shared);
    for (Partition p : order) {
      if (tried.add(p) && holds(p, id)) return p;
    }
    List<String> owners = new ArrayList<>(table.keySet());
    synchronized (open) {
      owners.sort(Comparator.comparing(o -> !open.containsKey(o)));
    }
    for (String owner : owners) {
      Partition p = pinFor(owner, pinned);
      if (tried.add(p) && holds(p, id)) return p;
    }
    return null;
  }

  private static boolean holds(Partition p, String id) throws IOException {
    IndexSearcher s = acquire(p);
    try {
      return s.count(Queries.term(Schema.ID, id)) > 0;
    } finally {
      release(p, s);
    }
  }

  /** The owner's records in {@code p} now. */
  static long countIn(Partition p, String owner) throws IOException {
    IndexSearcher s = acquire(p);
    try {
      return s.count(Queries.term(Schema.OWNER, owner));
    } finally {
      release(p, s);
    }
  }

  /** The highest log position any index's last commit recorded (for a log started anew). */
  long committedLogFloor() {
    long floor = shared.committedLogSeq;
    for (String owner : table.keySet()) {
      Path p = ownersDir.resolve(table.get(owner));
      try (Directory d = FSDirectory.open(p)) {
        floor =
            Math.max(
                floor, Partition.logSeq(SegmentInfos.readLatestCommit(d).getUserData().entrySet()));
      } catch (IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    }
    return floor;
  }

  /** Bytes of the index files on disk: the shared index and the owners' partitions. */
  long sizeOnDisk() {
    try {
      long total = 0;
      for (String f : shared.directory.listAll()) total += shared.directory.fileLength(f);
      if (Files.isDirectory(ownersDir)) {
        try (var files = Files.walk(ownersDir)) {
          for (Path f : files.filter(Files::isRegularFile).toList()) total += Files.size(f);
        }
      }
      return total;
    } catch (IOException e) {
      throw readFailed(e);
    }
  }

  /** Closes the owners' open partitions (each even when another fails). */
  void closeOwn() throws IOException {
    List<Partition> all;
    synchronized (open) {
      all = new ArrayList<>(open.values());
      open.clear();
    }
    IOUtils.close(all);
  }

  static IndexSearcher acquire(Partition p) {
    try {
      return p.searchers.acquire();
    } catch (IOException e) {
      throw readFailed(e);
    }
  }

  static void release(Partition p, IndexSearcher s) {
    try {
      p.searchers.release(s);
    } catch (IOException e) {
      throw readFailed(e);
    }
  }

  static MnemoException readFailed(IOException e) {
    return new MnemoException("reading the Lucene store failed: " + e.getMessage(), false, e);
  }
}

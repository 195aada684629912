package dev.mnemo.store.lucene;

import dev.mnemo.MnemoException;
import java.io.Closeable;
import java.io.IOException;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.LongConsumer;
import java.util.function.LongSupplier;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.codecs.Codec;
import org.apache.lucene.codecs.KnnVectorsFormat;
import org.apache.lucene.codecs.lucene103.Lucene103Codec;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.SegmentInfos;
import org.apache.lucene.search.SearcherManager;
import org.apache.lucene.store.Directory;
import org.apache.lucene.util.IOUtils;

/**
 * One Lucene index of a {@link LuceneMemoryStore}: the shared index in the store's folder (every
 * owner without a partition of their own), or one owner's own index in {@code owners/NAME}. Each
 * has its writer, searchers and time columns. A partition is pinned while a call uses it, and only
 * an unpinned one is closed (the store keeps a bounded number of owners' partitions open).
 */
final class Partition implements Closeable {
  /** The owner whose records this index holds alone, or null for the shared index. */
  final String owner;

  final Directory directory;
  final IndexWriter writer;
  final SearcherManager searchers;
  final TimeColumns.Cache columns;

  /** Per segment, the open-ended records the fixed rules admit ({@link EligibleDocs.Cache}). */
  final EligibleDocs.Cache current = new EligibleDocs.Cache();

  /** The BM25 statistics of the query words, for the current reader. */
  final TermStatistics terms = new TermStatistics();

  /**
   * Commits of this index: a write waits here until a commit covers it (see {@link GroupCommit}).
   */
  final GroupCommit commits;

  /** Calls using this partition now; changed only under the store's lock of open partitions. */
  int pins;

  /** Rolled back after a failed write: its writer is closed, searches still work. */
  volatile boolean failed;

  /**
   * The store's write-ahead log position: the sequence number up to which every logged write is in
   * the writers of the indexes it went to (see {@link WriteAheadLog}).
   */
  private final LongSupplier logged;

  /**
   * The write-ahead log position the last commit of this index recorded: logged writes after it may
   * be missing from the index and are applied again on open.
   */
  volatile long committedLogSeq;

  /** Guards the writer's live commit data (set by writes and by commits). */
  private final Object commitData = new Object();

  private Partition(
      String owner,
      Directory directory,
      IndexWriter writer,
      TimeColumns.Cache columns,
      LongConsumer committed,
      LongSupplier logged)
      throws IOException {
    this.owner = owner;
    this.directory = directory;
    this.writer = writer;
    this.columns = columns;
    this.logged = logged;
    this.committedLogSeq = logSeq(writer.getLiveCommitData());
    this.searchers = new SearcherManager(writer, null);
    this.commits =
        new GroupCommit(
            () -> {
              long seq;
              try {
                seq = stampLogPosition();
                writer.commit();
              } catch (IOException | RuntimeException e) {
                rollback(e);
                throw e;
              }
              committedLogSeq = seq;
              committed.accept(SegmentInfos.getLastCommitGeneration(directory));
              // readers see the committed version (the store's state() names it), as after a
              // reopen; the commit is durable whatever happens here, so a failure is not the
              // writers' (the next write's refresh catches up)
              try {
                searchers.maybeRefreshBlocking();
              } catch (IOException | RuntimeException e) {
                // see above
              }
            });
  }

  /** The commit data key of the write-ahead log position a commit holds. */
  static final String LOG_SEQ = "wal_seq";

  /** The write-ahead log position in a commit's data (0: none recorded). */
  static long logSeq(Iterable<Map.Entry<String, String>> data) {
    if (data != null)
      for (var e : data) if (e.getKey().equals(LOG_SEQ)) return Long.parseLong(e.getValue());
    return 0;
  }

  /**
   * Sets the commit data the next commit takes: the index format, the embedding model of its
   * vectors, the owner, and the write-ahead log position. Set before a write's documents are added,
   * so a commit that holds them holds their model; the position is read when set, and only grows,
   * so a commit never claims a logged write its index does not hold.
   */
  void setCommitData(String model) {
    synchronized (commitData) {
      Map<String, String> data = new TreeMap<>();
      data.put("format", Schema.FORMAT_VERSION);
      if (model != null) data.put("embedding_model", model);
      if (owner != null) data.put("owner", owner);
      data.put(LOG_SEQ, Long.toString(logged.getAsLong()));
      writer.setLiveCommitData(data.entrySet());
    }
  }

  /**
   * Records the write-ahead log position in the commit data, keeping the rest; returns it. Every
   * write up to it is in the writer (the position moves once a write's documents are added), so the
   * commit about to run holds them all.
   */
  private long stampLogPosition() {
    synchronized (commitData) {
      long seq = logged.getAsLong();
      Map<String, String> data = new TreeMap<>();
      var live = writer.getLiveCommitData();
      if (live != null) for (var e : live) data.put(e.getKey(), e.getValue());
      data.put(LOG_SEQ, Long.toString(seq));
      writer.setLiveCommitData(data.entrySet());
      return seq;
    }
  }

  /**
   * Opens (creating if needed) the index in {@code d}; on failure the writer is rolled back (no
   * {@code write.lock} left), the directory is the caller's to close. Segments it writes store
   * their vectors as {@code vectors} says (segments already there keep the format they were written
   * in). {@code committed} is told the generation of every commit; {@code logged} gives the store's
   * write-ahead log position.
   */
  static Partition open(
      Directory d,
      Path path,
      String owner,
      Analyzer analyzer,
      VectorFormat vectors,
      LongConsumer committed,
      LongSupplier logged)
      throws IOException {
    IndexWriter w = null;
    boolean success = false;
    try {
      checkFormat(d, path);
      IndexWriterConfig cfg = new IndexWriterConfig(analyzer);
      cfg.setOpenMode(IndexWriterConfig.OpenMode.CREATE_OR_APPEND);
      cfg.setCommitOnClose(true);
      if (vectors != VectorFormat.FLOAT32) cfg.setCodec(codec(vectors));
      // A merged segment's time columns are read in the merge thread, before searches see it, so
      // the first recall after a merge does not pay for them. Only a head start: a failure here
      // must not fail the merge (the first search reads them instead).
      TimeColumns.Cache columns = new TimeColumns.Cache();
      cfg.setMergedSegmentWarmer(
          r -> {
            try {
              columns.of(r);
            } catch (IOException | RuntimeException e) {
              // read on first use
            }
          });
      w = new IndexWriter(d, cfg);
      Partition p = new Partition(owner, d, w, columns, committed, logged);
      success = true;
      return p;
    } finally {
      // rollback, not close: a failed open must not commit anything either
      if (!success && w != null) IOUtils.closeWhileHandlingException(w::rollback);
    }
  }

  /**
   * Refuses an index written in another format than {@link Schema#FORMAT_VERSION}, saying what to
   * do.
   */
  private static void checkFormat(Directory d, Path dir) throws IOException {
    if (!DirectoryReader.indexExists(d)) return;
    var commits = DirectoryReader.listCommits(d);
    String format = commits.get(commits.size() - 1).getUserData().get("format");
    if (format != null && !format.equals(Schema.FORMAT_VERSION)) {
      throw new MnemoException(
          "the store in "
              + dir
              + " has index format "
              + format
              + "; this version of Mnemo reads "
              + "format "
              + Schema.FORMAT_VERSION
              + ". Open it with the Mnemo that wrote it and move the data with "
              + "./mnemo export, then ./mnemo import into a new directory",
          false);
    }
  }

  /**
   * Lucene's default codec with {@code vectors} for every vector field. The codec's name stays
   * Lucene's, and each segment records its vector format by name, so any Lucene reads it back.
   */
  private static Codec codec(VectorFormat vectors) {
    KnnVectorsFormat format = vectors.luceneFormat();
    return new Lucene103Codec() {
      @Override
      public KnnVectorsFormat getKnnVectorsFormatForField(String field) {
        return format;
      }
    };
  }

  /** Rolls the writer back to the last commit (which closes it); later writes are refused. */
  void rollback(Exception cause) {
    failed = true;
    try {
      writer.rollback();
    } catch (IOException | RuntimeException e) {
      cause.addSuppressed(e);
    }
  }

  /**
   * Closes the index; its writer commits everything first (with the log position). An index that
   * holds no change and whose last commit has the log position commits nothing: setting the commit
   * data would be a change, and its commit (an fsync of every file of the index) was most of what
   * closing a store that was only read cost (BENCHMARKS.md, "CLI start-up").
   */
  @Override
  public void close() throws IOException {
    if (!failed && (writer.hasUncommittedChanges() || logged.getAsLong() != committedLogSeq))
      stampLogPosition();
    IOUtils.close(searchers, failed ? null : writer, directory);
  }

  /**
   * The table of owners with a partition of their own: a first line {@code #format N} (the version,
   * {@link FormatVersion}; a table without it is version 1), then one line per owner, the folder's
   * name, a tab, the owner URL-encoded. Written whole to a temporary file, synced and moved over
   * the old one atomically, so a crash leaves the old table or the new one.
   */
  static final class Table {
    private Table() {}

    static final String FILE = "partitions.tsv";

    /** The table's format version. */
    static final int FORMAT = 1;

    // no tab in it: a Mnemo from before the header refuses the line rather than read an owner from
    // it
    private static final String HEADER = "#format ";

    static Map<String, String> read(Path folder) throws IOException {
      Map<String, String> out = new TreeMap<>();
      Path f = folder.resolve(FILE);
      if (!Files.exists(f)) return out;
      List<String> lines = Files.readAllLines(f, StandardCharsets.UTF_8);
      if (!lines.isEmpty() && lines.get(0).startsWith("#"))
        FormatVersion.check(
            "partition table",
            f,
            lines.get(0).startsWith(HEADER)
                ? lines.get(0).substring(HEADER.length())
                : lines.get(0),
            FORMAT);
      for (String line : lines) {
        if (line.isBlank() || line.startsWith("#")) continue;
        int tab = line.indexOf('\t');
        if (tab <= 0) throw new IOException("unreadable line in " + f + ": " + line);
        out.put(
            URLDecoder.decode(line.substring(tab + 1), StandardCharsets.UTF_8),
            line.substring(0, tab));
      }
      return out;
    }

    static void write(Path folder, Map<String, String> table) throws IOException {
      Files.createDirectories(folder);
      List<String> lines = new ArrayList<>();
      lines.add(HEADER + FORMAT);
      for (var e : table.entrySet())
        lines.add(e.getValue() + "\t" + URLEncoder.encode(e.getKey(), StandardCharsets.UTF_8));
      Path tmp = folder.resolve(FILE + ".tmp");
      Files.write(tmp, lines, StandardCharsets.UTF_8);
      try (FileChannel c = FileChannel.open(tmp, StandardOpenOption.WRITE)) {
        c.force(true);
      }
      Files.move(
          tmp,
          folder.resolve(FILE),
          StandardCopyOption.ATOMIC_MOVE,
          StandardCopyOption.REPLACE_EXISTING);
      IOUtils.fsync(folder, true);
    }
  }
}

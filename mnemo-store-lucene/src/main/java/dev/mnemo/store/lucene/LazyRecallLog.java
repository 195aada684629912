package dev.mnemo.store.lucene;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.mnemo.LoggedRecall;
import dev.mnemo.MnemoException;
import dev.mnemo.RecallLogQuery;
import dev.mnemo.RecallStats;
import dev.mnemo.json.JsonCodec;
import dev.mnemo.json.RecallLogJson;
import dev.mnemo.spi.RecallLog;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.apache.lucene.util.IOUtils;

/**
 * The Lucene store's retrieval log, opened on first use: a store that is never recalled from (an
 * import, a one-off {@code remember}, most tests) pays nothing for a third index. Before the log's
 * folder exists, reads find nothing and deletions delete nothing without creating it. Thread-safe.
 *
 * <p>Until the index is needed, entries are appended to a journal beside it ({@value #JOURNAL}: one
 * entry's JSON a line, fsynced before {@link #append} returns), not to the index: a process that
 * recalls once and exits (the command line) would otherwise open a Lucene writer, write a segment
 * and commit it for one entry, about a fifth of its run (BENCHMARKS.md, "CLI start-up"). The first
 * call that needs the index (any read, usage feedback, forgetting, retention with something to
 * delete) opens it and moves the journal's entries into it with one commit, then deletes the
 * journal; a journal over {@link #JOURNAL_MAX_BYTES} is moved the same way, so a long-running
 * process ends up writing the index directly. Moving is idempotent (an entry replaces the one of
 * its id), so a crash between the commit and the delete only moves the same entries again. A line
 * cut short by a crash was never acknowledged (its sync had not returned): it is cut off before the
 * next append and skipped when moving.
 */
final class LazyRecallLog implements RecallLog {
  private static final System.Logger LOG = System.getLogger(LuceneMemoryStore.class.getName());

  /** The journal's file name, in the log's folder. */
  static final String JOURNAL = "journal.jsonl";

  /** A journal this long is moved into the index at the next append. */
  static final long JOURNAL_MAX_BYTES = 1 << 20;

  private final Path dir;
  private final Path journal;
  private volatile LuceneRecallLog log;
  private FileChannel out;
  private boolean closed;

  LazyRecallLog(Path dir) {
    this.dir = dir;
    this.journal = dir.resolve(JOURNAL);
  }

  /** The index, opened (and the journal moved into it) when it is not yet. */
  private synchronized LuceneRecallLog open() {
    if (closed) throw new IllegalStateException("the retrieval log in " + dir + " is closed");
    if (log == null) {
      LuceneRecallLog l = LuceneRecallLog.open(dir);
      try {
        moveJournal(l);
      } catch (IOException | RuntimeException e) {
        l.close();
        throw new MnemoException(
            "cannot move the retrieval log's journal " + journal + ": " + e.getMessage(), false, e);
      }
      log = l;
    }
    return log;
  }

  /** The log when it is open or exists on disk; null when there is none yet. */
  private LuceneRecallLog existing() {
    LuceneRecallLog l = log;
    if (l != null) return l;
    return Files.isDirectory(dir) ? open() : null;
  }

  @Override
  public void append(List<LoggedRecall> entries) {
    if (entries.isEmpty()) return;
    synchronized (this) {
      if (closed) throw new IllegalStateException("the retrieval log in " + dir + " is closed");
      if (log == null) {
        try {
          if (journalAppend(entries) < JOURNAL_MAX_BYTES) return;
        } catch (IOException e) {
          throw new MnemoException(
              "retrieval log append failed: cannot write " + journal + ": " + e.getMessage(),
              false,
              e);
        }
        open(); // the journal is long: into the index with it
        return;
      }
    }
    log.append(entries);
  }

  /** Appends the entries' lines and syncs them; returns the journal's length. */
  private long journalAppend(List<LoggedRecall> entries) throws IOException {
    if (out == null) {
      boolean newFolder = !Files.isDirectory(dir);
      Files.createDirectories(dir);
      boolean newFile = !Files.exists(journal);
      FileChannel c =
          FileChannel.open(
              journal,
              StandardOpenOption.CREATE,
              StandardOpenOption.READ,
              StandardOpenOption.WRITE);
      try {
        c.truncate(completeLength(c)); // a torn last line was never acknowledged
        c.position(c.size());
        // the new names must survive a crash as the lines do
        if (newFolder) IOUtils.fsync(dir.getParent(), true);
        if (newFile) IOUtils.fsync(dir, true);
      } catch (IOException | RuntimeException e) {
        c.close();
        throw e;
      }
      out = c;
    }
    StringBuilder lines = new StringBuilder();
    for (LoggedRecall e : entries) {
      try {
        lines.append(JsonCodec.WRITER.writeValueAsString(RecallLogJson.entry(e))).append('\n');
      } catch (JsonProcessingException x) {
        throw new UncheckedIOException(x);
      }
    }
    ByteBuffer b = ByteBuffer.wrap(lines.toString().getBytes(StandardCharsets.UTF_8));
    while (b.hasRemaining()) out.write(b);
    out.force(false);
    return out.size();
  }

  /** The length of the journal's complete lines (up to and with its last newline). */
  private static long completeLength(FileChannel c) throws IOException {
    long end = c.size();
    ByteBuffer one = ByteBuffer.allocate(1);
    while (end > 0) {
      one.clear();
      c.read(one, end - 1);
      if (one.get(0) == '\n') return end;
      end--;
    }
    return 0;
  }

  /** Moves the journal's entries into {@code l} (one commit), then deletes the journal. */
  private void moveJournal(LuceneRecallLog l) throws IOException {
    if (out != null) {
      out.close();
      out = null;
    }
    if (!Files.exists(journal)) return;
    List<com.fasterxml.jackson.databind.JsonNode> entries = new ArrayList<>();
    byte[] bytes = Files.readAllBytes(journal);
    int start = 0;
    int bad = 0;
    for (int i = 0; i < bytes.length; i++) {
      if (bytes[i] != '\n') continue;
      String line = new String(bytes, start, i - start, StandardCharsets.UTF_8);
      start = i + 1;
      if (line.isBlank()) continue;
      try {
        var json = JsonCodec.READER.readTree(line);
        RecallLogJson.entry(json); // readable as an entry, or skipped
        entries.add(json);
      } catch (IOException | RuntimeException e) {
        bad++; // one damaged line must not lose the others
      }
    }
    if (bad > 0)
      LOG.log(
          System.Logger.Level.WARNING,
          "retrieval log: " + bad + " unreadable line(s) of " + journal + " skipped");
    for (int i = 0; i < entries.size(); i += MOVE_BATCH)
      l.appendStored(entries.subList(i, Math.min(entries.size(), i + MOVE_BATCH)));
    Files.delete(journal);
    IOUtils.fsync(dir, true);
  }

  /** Entries moved per commit at most (as many as the engine's writer stores per commit). */
  private static final int MOVE_BATCH = 256;

  /** The logged time of the journal's first entry (its oldest), or none. */
  private OptionalLong journalOldest() throws IOException {
    if (!Files.exists(journal)) return OptionalLong.empty();
    try (var lines = Files.lines(journal, StandardCharsets.UTF_8)) {
      Optional<String> first = lines.filter(s -> !s.isBlank()).findFirst();
      if (first.isEmpty()) return OptionalLong.empty();
      try {
        return OptionalLong.of(
            RecallLogJson.entry(JsonCodec.READER.readTree(first.get())).loggedAt().toEpochMilli());
      } catch (IOException | RuntimeException e) {
        return OptionalLong.of(Long.MIN_VALUE); // unreadable: let the index's move sort it out
      }
    }
  }

  @Override
  public Optional<LoggedRecall> get(String id) {
    LuceneRecallLog l = existing();
    return l == null ? Optional.empty() : l.get(id);
  }

  @Override
  public List<LoggedRecall> search(RecallLogQuery query) {
    LuceneRecallLog l = existing();
    return l == null ? List.of() : l.search(query);
  }

  @Override
  public long count(RecallLogQuery query) {
    LuceneRecallLog l = existing();
    return l == null ? 0 : l.count(query);
  }

  @Override
  public RecallStats stats(RecallLogQuery query) {
    LuceneRecallLog l = existing();
    return l == null ? new RecallStats(0, 0, 0, 0, 0, 0) : l.stats(query);
  }

  @Override
  public boolean markUsed(String owner, Collection<String> ids, Instant at) {
    LuceneRecallLog l = existing();
    return l != null && l.markUsed(owner, ids, at);
  }

  @Override
  public int deleteOwner(String owner) {
    LuceneRecallLog l = existing();
    return l == null ? 0 : l.deleteOwner(owner);
  }

  @Override
  public int forget(String owner, Collection<String> ids) {
    LuceneRecallLog l = existing();
    return l == null ? 0 : l.forget(owner, ids);
  }

  /**
   * Retention. While the index is not open, its last commit's {@link LuceneRecallLog#OLDEST_KEY}
   * and the journal's first line say whether anything is old enough to delete: only then is the
   * index opened (every process's first retention run would otherwise open it).
   */
  @Override
  public int deleteBefore(Instant cutoff) {
    synchronized (this) {
      if (log == null && !closed) {
        try {
          long limit = cutoff.toEpochMilli();
          OptionalLong indexed = LuceneRecallLog.oldestCommitted(dir);
          OptionalLong journaled = journalOldest();
          boolean old =
              (indexed.isPresent() && indexed.getAsLong() < limit)
                  || (journaled.isPresent() && journaled.getAsLong() < limit);
          if (!old) return 0;
        } catch (IOException e) {
          // unreadable: open the index, which says what is wrong
        }
      }
    }
    LuceneRecallLog l = existing();
    return l == null ? 0 : l.deleteBefore(cutoff);
  }

  @Override
  public long sizeBytes() {
    LuceneRecallLog l = existing();
    return l == null ? 0 : l.sizeBytes();
  }

  @Override
  public synchronized void close() {
    closed = true;
    try {
      if (out != null) out.close();
    } catch (IOException e) {
      // every line appended was synced when its append returned: nothing is lost
    }
    out = null;
    if (log != null) log.close();
  }
}

package dev.mnemo.store.lucene;

import dev.mnemo.LoggedRecall;
import dev.mnemo.RecallLogQuery;
import dev.mnemo.RecallStats;
import dev.mnemo.spi.RecallLog;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * The Lucene store's retrieval log, opened on first use: a store that is never recalled from (an
 * import, a one-off {@code remember}, most tests) pays nothing for a third index. Before the log's
 * folder exists, reads find nothing and deletions delete nothing without creating it. Thread-safe.
 */
final class LazyRecallLog implements RecallLog {
  private final Path dir;
  private volatile LuceneRecallLog log;
  private boolean closed;

  LazyRecallLog(Path dir) {
    this.dir = dir;
  }

  private synchronized LuceneRecallLog open() {
    if (closed) throw new IllegalStateException("the retrieval log in " + dir + " is closed");
    if (log == null) log = LuceneRecallLog.open(dir);
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
    if (!entries.isEmpty()) open().append(entries);
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

  @Override
  public int deleteBefore(Instant cutoff) {
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
    if (log != null) log.close();
  }
}

package dev.mnemo.store.lucene;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FilterDirectory;
import org.apache.lucene.store.IOContext;
import org.apache.lucene.store.IndexOutput;

/**
 * A directory whose {@link #sync} fsyncs only the files written through it and not synced yet.
 *
 * <p>Lucene's commit asks the directory to sync every file of the index it commits, and {@code
 * FSDirectory} fsyncs each of them, also the ones an earlier commit (maybe of an earlier process)
 * already made durable: a process that adds one recall to a retrieval log of 20 segments, or one
 * record to a store, fsynced 60 or more files for it (BENCHMARKS.md, "CLI start-up"). A file this
 * directory did not write is in the index only because an earlier commit holds it, and that commit
 * was written after the file was synced: Lucene never writes into an existing file, and the files a
 * writer left behind without a commit (a crash) are deleted when the next writer opens, before it
 * writes. So skipping them loses no durability. Lucene 10's {@code FSDirectory.sync} fsyncs every
 * name it is given and has no option for this, hence this small wrapper.
 *
 * <p>{@link #syncMetaData} (the directory's own entries) is passed on as it is.
 */
final class SyncNewFilesDirectory extends FilterDirectory {
  private final Set<String> unsynced = ConcurrentHashMap.newKeySet();

  SyncNewFilesDirectory(Directory in) {
    super(in);
  }

  /** Lucene's default file system directory for {@code path}, wrapped. */
  static Directory open(java.nio.file.Path path) throws IOException {
    return new SyncNewFilesDirectory(org.apache.lucene.store.FSDirectory.open(path));
  }

  @Override
  public IndexOutput createOutput(String name, IOContext context) throws IOException {
    IndexOutput out = in.createOutput(name, context);
    unsynced.add(name);
    return out;
  }

  @Override
  public IndexOutput createTempOutput(String prefix, String suffix, IOContext context)
      throws IOException {
    IndexOutput out = in.createTempOutput(prefix, suffix, context);
    unsynced.add(out.getName());
    return out;
  }

  @Override
  public void sync(Collection<String> names) throws IOException {
    List<String> todo = new ArrayList<>();
    for (String n : names) if (unsynced.contains(n)) todo.add(n);
    if (todo.isEmpty()) return;
    in.sync(todo);
    todo.forEach(unsynced::remove);
  }

  /** A renamed file keeps its state: synced (it is the same file) or not. */
  @Override
  public void rename(String source, String dest) throws IOException {
    in.rename(source, dest);
    if (unsynced.remove(source)) unsynced.add(dest);
  }

  @Override
  public void deleteFile(String name) throws IOException {
    in.deleteFile(name);
    unsynced.remove(name);
  }

  /** The files written through this directory and not synced yet (for tests). */
  Set<String> unsynced() {
    return Set.copyOf(unsynced);
  }
}

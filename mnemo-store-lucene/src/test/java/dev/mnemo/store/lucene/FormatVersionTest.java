package dev.mnemo.store.lucene;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mnemo.MnemoException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.apache.lucene.analysis.core.KeywordAnalyzer;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The version each of the Lucene store's other on-disk formats declares (the write-ahead log's is
 * in {@link WriteAheadLogTest}): the partition table and the turn and retrieval logs open when
 * written before the versions (version 1) and refuse a newer version with a message.
 */
class FormatVersionTest {
  @TempDir Path dir;

  @Test
  void thePartitionTableDeclaresItsVersionAndReadsATableWithout() throws IOException {
    Map<String, String> table = Map.of("maya", "p-0001", "omar\tx", "p-0002");
    Partition.Table.write(dir, table);
    Path f = dir.resolve(Partition.Table.FILE);
    assertThat(Files.readAllLines(f).get(0)).isEqualTo("#format 1");
    assertThat(Partition.Table.read(dir)).isEqualTo(table);
    // as written before the header
    Files.write(f, Files.readAllLines(f).subList(1, 3), StandardCharsets.UTF_8);
    assertThat(Partition.Table.read(dir)).isEqualTo(table);
  }

  @Test
  void aNewerPartitionTableIsRefused() throws IOException {
    Files.writeString(dir.resolve(Partition.Table.FILE), "#format 2\np-0001\tmaya\n");
    assertThatThrownBy(() -> Partition.Table.read(dir))
        .isInstanceOf(MnemoException.class)
        .hasMessageContaining("partition table")
        .hasMessageContaining("format version 2");
    Files.writeString(dir.resolve(Partition.Table.FILE), "#something else\np-0001\tmaya\n");
    assertThatThrownBy(() -> Partition.Table.read(dir))
        .isInstanceOf(MnemoException.class)
        .hasMessageContaining("unknown format version");
  }

  @Test
  void theTurnLogStampsItsVersionOpensAnIndexWithoutAndRefusesANewerOne() throws IOException {
    sideIndexVersionIsChecked(dir.resolve("turns"), "turn log", LuceneTurnLog::open);
  }

  @Test
  void theRetrievalLogStampsItsVersionOpensAnIndexWithoutAndRefusesANewerOne() throws IOException {
    sideIndexVersionIsChecked(dir.resolve("recalls"), "retrieval log", LuceneRecallLog::open);
  }

  /** Opens a side index's logs in {@code path}: {@code open} is its factory. */
  private static void sideIndexVersionIsChecked(
      Path path, String what, java.util.function.Function<Path, ? extends AutoCloseable> open)
      throws IOException {
    commitWith(path, Map.of()); // an index as the log left it before the version
    close(open.apply(path));
    assertThat(commitData(path)).containsEntry(FormatVersion.COMMIT_KEY, "1");
    commitWith(path, Map.of(FormatVersion.COMMIT_KEY, "2"));
    assertThatThrownBy(() -> open.apply(path))
        .isInstanceOf(MnemoException.class)
        .hasMessageContaining(what + " " + path)
        .hasMessageContaining("format version 2");
    // refused without keeping the index's lock: once the version is one it knows, it opens
    commitWith(path, Map.of(FormatVersion.COMMIT_KEY, "1"));
    close(open.apply(path));
  }

  private static void close(AutoCloseable c) throws IOException {
    try {
      c.close();
    } catch (IOException e) {
      throw e;
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  /** Commits an index in {@code path} whose commit data is {@code data} and nothing else. */
  private static void commitWith(Path path, Map<String, String> data) throws IOException {
    Files.createDirectories(path);
    try (Directory d = FSDirectory.open(path);
        IndexWriter w = new IndexWriter(d, new IndexWriterConfig(new KeywordAnalyzer()))) {
      w.setLiveCommitData(data.entrySet());
      w.commit();
    }
  }

  private static Map<String, String> commitData(Path path) throws IOException {
    try (Directory d = FSDirectory.open(path)) {
      var commits = DirectoryReader.listCommits(d);
      return commits.get(commits.size() - 1).getUserData();
    }
  }
}

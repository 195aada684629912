package dev.mnemo.store.lucene;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.apache.lucene.analysis.standard.StandardAnalyzer;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.StringField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.SegmentInfos;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.store.FilterDirectory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A commit fsyncs the files written since the last one, not every file of the index. */
class SyncNewFilesDirectoryTest {

  /** Records the names the wrapper passes on to be synced. */
  private static final class Recording extends FilterDirectory {
    final List<String> synced = new ArrayList<>();

    Recording(Directory in) {
      super(in);
    }

    @Override
    public void sync(Collection<String> names) throws IOException {
      synced.addAll(names);
      super.sync(names);
    }
  }

  private static void add(Directory d, String id) throws IOException {
    IndexWriterConfig cfg = new IndexWriterConfig(new StandardAnalyzer());
    cfg.setCommitOnClose(true);
    try (IndexWriter w = new IndexWriter(d, cfg)) {
      Document doc = new Document();
      doc.add(new StringField("id", id, Field.Store.YES));
      w.addDocument(doc);
    }
  }

  @Test
  void aLaterProcessSyncsOnlyWhatItWrote(@TempDir Path dir) throws IOException {
    Collection<String> first;
    try (Recording rec = new Recording(FSDirectory.open(dir));
        SyncNewFilesDirectory d = new SyncNewFilesDirectory(rec)) {
      add(d, "a");
      first = SegmentInfos.readLatestCommit(d).files(false);
      // the first commit syncs every file of its segment (and the commit file, renamed after)
      assertThat(rec.synced).containsAll(filesOfSegments(first));
      assertThat(d.unsynced()).isEmpty();
    }
    // a new directory, as a new process: the segment of the first commit is durable already
    try (Recording rec = new Recording(FSDirectory.open(dir));
        SyncNewFilesDirectory d = new SyncNewFilesDirectory(rec)) {
      add(d, "b");
      Collection<String> second = SegmentInfos.readLatestCommit(d).files(false);
      assertThat(second).containsAll(filesOfSegments(first));
      assertThat(rec.synced).doesNotContainAnyElementsOf(filesOfSegments(first));
      List<String> added = new ArrayList<>(filesOfSegments(second));
      added.removeAll(filesOfSegments(first));
      assertThat(added).isNotEmpty();
      assertThat(rec.synced).containsAll(added);
      assertThat(d.unsynced()).isEmpty();
      try (DirectoryReader r = DirectoryReader.open(d)) {
        assertThat(r.numDocs()).isEqualTo(2);
      }
    }
  }

  @Test
  void aWriterThatChangedNothingSyncsNothing(@TempDir Path dir) throws IOException {
    try (Directory d = SyncNewFilesDirectory.open(dir)) {
      add(d, "a");
    }
    try (Recording rec = new Recording(FSDirectory.open(dir));
        SyncNewFilesDirectory d = new SyncNewFilesDirectory(rec)) {
      IndexWriter w = new IndexWriter(d, new IndexWriterConfig(new StandardAnalyzer()));
      FormatVersion.stamp(w, FormatVersion.SIDE_INDEX); // first stamp: a change, committed
      w.close();
      rec.synced.clear();
      w = new IndexWriter(d, new IndexWriterConfig(new StandardAnalyzer()));
      FormatVersion.stamp(w, FormatVersion.SIDE_INDEX); // declared already: no change
      assertThat(w.hasUncommittedChanges()).isFalse();
      w.close();
      assertThat(rec.synced).isEmpty();
    }
  }

  /** The segment files of a commit (without the commit's own segments_N). */
  private static List<String> filesOfSegments(Collection<String> commitFiles) {
    return commitFiles.stream().filter(f -> !f.startsWith("segments")).toList();
  }
}

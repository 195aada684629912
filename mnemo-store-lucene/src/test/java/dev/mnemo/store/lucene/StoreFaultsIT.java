package dev.mnemo.store.lucene;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mnemo.Authority;
import dev.mnemo.Category;
import dev.mnemo.ConflictPolicy;
import dev.mnemo.MemoryRecord;
import dev.mnemo.Mnemo;
import dev.mnemo.MnemoException;
import dev.mnemo.NewMemory;
import dev.mnemo.spi.Embedder;
import dev.mnemo.testkit.HashingEmbedder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.lucene.analysis.standard.StandardAnalyzer;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.store.FilterDirectory;
import org.apache.lucene.store.FilterIndexOutput;
import org.apache.lucene.store.IOContext;
import org.apache.lucene.store.IndexOutput;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Faults on disk and stores that are not what the engine expects: no acknowledged write lost, no
 * unacknowledged write visible, a store usable after reopen, a failed open that leaves no lock, and
 * a clear refusal of another format or embedding model.
 *
 * <p>An integration test (Failsafe, run by {@code bin/test} and CI, not by {@code bin/test
 * --fast}): hundreds of writes against a directory failing at random, each run reopened from disk
 * (16 s under load).
 */
class StoreFaultsIT {
  @TempDir Path dir;
  static final int WRITES = 150;

  /**
   * Throws an IOException, with probability {@code p} once armed, on file writes, fsyncs and
   * renames.
   */
  static final class FaultyDirectory extends FilterDirectory {
    final Random random;
    volatile double p;
    int injected;

    FaultyDirectory(Directory in, Random random) {
      super(in);
      this.random = random;
    }

    private synchronized void maybeFail(String what) throws IOException {
      maybeFail(what, p);
    }

    private synchronized void maybeFail(String what, double p) throws IOException {
      if (p > 0 && random.nextDouble() < p) {
        injected++;
        throw new IOException("injected fault: " + what);
      }
    }

    @Override
    public IndexOutput createOutput(String name, IOContext context) throws IOException {
      maybeFail("create " + name);
      return new FilterIndexOutput("faulty(" + name + ")", name, in.createOutput(name, context)) {
        @Override
        public void writeBytes(byte[] b, int offset, int length) throws IOException {
          maybeFail(
              "write " + name, p / 50); // a commit writes many blocks, fsyncs and renames few files
          super.writeBytes(b, offset, length);
        }
      };
    }

    @Override
    public void sync(Collection<String> names) throws IOException {
      maybeFail("fsync " + names);
      super.sync(names);
    }

    @Override
    public void rename(String source, String dest) throws IOException {
      maybeFail("rename " + source + " -> " + dest);
      super.rename(source, dest);
    }
  }

  private static MemoryRecord record(int i) {
    Instant t = Instant.parse("2026-01-01T00:00:00Z").plusSeconds(i);
    return new MemoryRecord(
        "r" + i,
        "o",
        null,
        Category.SEMANTIC,
        "fact number " + i + " about gardens",
        null,
        List.of(),
        null,
        -1,
        t,
        null,
        t,
        null,
        null,
        0,
        null,
        0.5,
        Authority.EXPLICIT,
        ConflictPolicy.SUPERSEDE,
        List.of(),
        0,
        null,
        null,
        null,
        Map.of(),
        java.util.List.of());
  }

  @Test
  void randomFaultsInWriteFsyncAndRename_loseNoAcknowledgedWrite_andShowNoUnacknowledgedOne()
      throws IOException {
    long seed = Long.getLong("mnemo.faults.seed", System.nanoTime());
    Random random = new Random(seed);
    Path index = dir.resolve("index");
    Files.createDirectories(index);
    List<String> acked = new ArrayList<>();
    List<String> refused = new ArrayList<>();
    int reopens = 0;
    int faults = 0;
    FaultyDirectory fd = new FaultyDirectory(FSDirectory.open(index), random);
    LuceneMemoryStore store = LuceneMemoryStore.open(fd, index, DenseSearch.EXACT_SCAN_MAX);
    fd.p = 0.02;
    for (int i = 0; i < WRITES; i++) {
      try {
        store.apply(List.of(record(i)), List.of());
        acked.add("r" + i);
      } catch (MnemoException e) {
        refused.add("r" + i);
        // the store refuses writes after a failed commit: reopen it, as the server's reopen does
        fd.p = 0;
        faults += fd.injected;
        try {
          store.close();
        } catch (MnemoException closeFailed) {
          // a close after a fault may fail too; the reopen below is what must work
        }
        fd = new FaultyDirectory(FSDirectory.open(index), random);
        store = LuceneMemoryStore.open(fd, index, DenseSearch.EXACT_SCAN_MAX);
        reopens++;
        fd.p = 0.02;
      }
    }
    fd.p = 0;
    faults += fd.injected;
    store.close();

    try (LuceneMemoryStore after = LuceneMemoryStore.open(index)) {
      for (String id : acked)
        assertThat(after.get("o", id)).as("acknowledged %s (seed %d)", id, seed).isPresent();
      for (String id : refused)
        assertThat(after.get("o", id)).as("refused %s (seed %d)", id, seed).isEmpty();
      assertThat(after.count()).as("seed %d", seed).isEqualTo(acked.size());
      after.apply(List.of(record(10_000)), List.of());
      assertThat(after.get("o", "r10000")).isPresent();
    }
    assertThat(faults).as("faults were injected (seed %d)", seed).isGreaterThan(0);
    assertThat(reopens).isEqualTo(refused.size());
    System.out.printf(
        "fault injection: seed %d, %d writes, %d faults injected, %d refused, %d acknowledged, 0 lost%n",
        seed, WRITES, faults, refused.size(), acked.size());
  }

  @Test
  void aFailedOpen_leavesNoWriteLock() throws IOException {
    Path index = dir.resolve("index");
    Files.createDirectories(index);
    Files.writeString(
        index.resolve(LuceneMemoryStore.TURNS_DIR), "a file where the turn log's folder belongs");
    assertThatThrownBy(() -> LuceneMemoryStore.open(index)).isInstanceOf(MnemoException.class);
    Files.delete(index.resolve(LuceneMemoryStore.TURNS_DIR));
    try (LuceneMemoryStore store = LuceneMemoryStore.open(index)) {
      store.apply(List.of(record(1)), List.of());
      assertThat(store.get("o", "r1")).isPresent();
    }
  }

  @Test
  void anIndexOfAnotherFormat_isRefusedSayingWhatToDo() throws IOException {
    Path index = dir.resolve("index");
    try (Directory d = FSDirectory.open(index);
        IndexWriter w = new IndexWriter(d, new IndexWriterConfig(new StandardAnalyzer()))) {
      w.setLiveCommitData(Map.of("format", "99").entrySet());
      w.commit();
    }
    assertThatThrownBy(() -> LuceneMemoryStore.open(index))
        .isInstanceOf(MnemoException.class)
        .hasMessageContaining("format 99")
        .hasMessageContaining("export");
    // and the refusal released the directory: a plain writer opens it
    try (Directory d = FSDirectory.open(index);
        IndexWriter w = new IndexWriter(d, new IndexWriterConfig(new StandardAnalyzer()))) {
      assertThat(w.getDocStats().numDocs).isZero();
    }
  }

  @Test
  void anotherEmbeddingModel_ofTheSameDimension_isRefusedOnOpen() {
    Path index = dir.resolve("index");
    try (Mnemo m =
        Mnemo.builder()
            .store(LuceneMemoryStore.open(index))
            .embedder(new HashingEmbedder())
            .build()) {
      m.remember(NewMemory.builder("o", "Maya writes in Vim.").build());
    }
    HashingEmbedder same = new HashingEmbedder();
    Embedder other =
        new Embedder() {
          @Override
          public String modelId() {
            return "another-model";
          }

          @Override
          public int dimension() {
            return same.dimension();
          }

          @Override
          public float[] embedQuery(String text) {
            return same.embedQuery(text);
          }

          @Override
          public List<float[]> embedPassages(List<String> texts) {
            return same.embedPassages(texts);
          }
        };
    LuceneMemoryStore store = LuceneMemoryStore.open(index);
    try {
      assertThat(store.embeddingModel()).hasValue(same.modelId());
      assertThatThrownBy(() -> Mnemo.builder().store(store).embedder(other).build())
          .isInstanceOf(MnemoException.class)
          .hasMessageContaining(same.modelId())
          .hasMessageContaining("another-model")
          .hasMessageContaining("reindex");
    } finally {
      store.close();
    }
    try (Mnemo m =
        Mnemo.builder()
            .store(LuceneMemoryStore.open(index))
            .embedder(new HashingEmbedder())
            .build()) {
      assertThat(
              m.recall(
                      dev.mnemo.RecallRequest.builder("o", "Maya writes in Vim")
                          .threshold(0)
                          .build())
                  .ids())
          .hasSize(1);
    }
  }
}

package dev.mnemo.store.lucene;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.Authority;
import dev.mnemo.Category;
import dev.mnemo.ConflictPolicy;
import dev.mnemo.MemoryRecord;
import dev.mnemo.spi.Eligibility;
import dev.mnemo.store.lucene.LuceneMemoryStore.Layout;
import dev.mnemo.testkit.HashingEmbedder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Moving an owner to their own partition in the background, and concurrent writers sharing commits:
 * the write that crosses the limit returns before the move, writes during the copy reach the
 * owner's new index, reads stay right throughout, and a crash in the middle of a move is repaired
 * on open. Each move is held at a step with a latch (no timing).
 */
class BackgroundMoveTest {
  private static final Instant T0 = Instant.parse("2025-01-01T00:00:00Z");
  private static final Layout OWN_ABOVE_50 = new Layout(50, 4);
  private final HashingEmbedder embedder = new HashingEmbedder();

  private MemoryRecord record(String owner, int n, String text) {
    Instant t = T0.plusSeconds(n);
    return new MemoryRecord(
        "id-" + n,
        owner,
        null,
        Category.SEMANTIC,
        text,
        null,
        List.of("turn-" + n),
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
        ConflictPolicy.KEEP_BOTH,
        List.of(),
        0,
        null,
        embedder.embedPassages(List.of(text)).get(0),
        embedder.modelId(),
        Map.of(),
        List.of());
  }

  private List<MemoryRecord> records(String owner, int from, int to) {
    List<MemoryRecord> out = new ArrayList<>();
    for (int i = from; i < to; i++) out.add(record(owner, i, "note " + i + " about gardens"));
    return out;
  }

  /** Id -> text of every record of the owner, as export sees them. */
  private static Map<String, String> contents(LuceneMemoryStore s, String owner) {
    Map<String, String> out = new TreeMap<>();
    s.export(owner, r -> out.put(r.id(), r.text()));
    return out;
  }

  /** A hook that stops the mover at {@code step} until released. */
  private static final class Hold implements java.util.function.Consumer<String> {
    final String step;
    final CountDownLatch reached = new CountDownLatch(1);
    final CountDownLatch release = new CountDownLatch(1);

    Hold(String step) {
      this.step = step;
    }

    @Override
    public void accept(String s) {
      if (!s.equals(step)) return;
      reached.countDown();
      try {
        release.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }

    void awaitReached() throws InterruptedException {
      assertThat(reached.await(2, TimeUnit.MINUTES)).as("the move reached " + step).isTrue();
    }
  }

  @Test
  void writesDuringTheCopy_reachTheOwnersIndex_andReadsStayRight(@TempDir Path dir)
      throws Exception {
    try (LuceneMemoryStore store = LuceneMemoryStore.open(dir.resolve("s"), OWN_ABOVE_50);
        LuceneMemoryStore one = LuceneMemoryStore.open(dir.resolve("one"), Layout.SHARED)) {
      Hold hold = new Hold("copied");
      store.mover.moveStep = hold;
      store.apply(records("b", 1000, 1010), List.of());
      // the write that crosses the limit returns while the move is held after its copy
      store.apply(records("a", 0, 60), List.of());
      hold.awaitReached();
      assertThat(store.ownersWithOwnPartition()).isEmpty();
      // during the copy: new records, a rewrite of a copied one, deletes of copied and new ones
      List<MemoryRecord> later = new ArrayList<>(records("a", 60, 70));
      later.add(record("a", 3, "note 3 rewritten during the move"));
      List<String> deleted = List.of("id-5", "id-61");
      for (LuceneMemoryStore s : List.of(store, one)) {
        if (s == one) s.apply(records("b", 1000, 1010), List.of());
        if (s == one) s.apply(records("a", 0, 60), List.of());
        s.apply(later, List.of());
        s.apply(List.of(), deleted);
      }
      assertThat(contents(store, "a")).isEqualTo(contents(one, "a"));
      assertThat(store.count(Eligibility.allOf("a"))).isEqualTo(68);
      hold.release.countDown();
      store.awaitMoves();
      assertThat(store.ownersWithOwnPartition()).containsExactly("a");
      assertThat(contents(store, "a")).isEqualTo(contents(one, "a"));
      assertThat(contents(store, "a").get("id-3")).isEqualTo("note 3 rewritten during the move");
      assertThat(contents(store, "b")).isEqualTo(contents(one, "b"));
      assertThat(store.count()).isEqualTo(one.count());
      // after the switch, writes go to the owner's index
      store.apply(records("a", 70, 72), List.of("id-6"));
      one.apply(records("a", 70, 72), List.of("id-6"));
      assertThat(contents(store, "a")).isEqualTo(contents(one, "a"));
    }
    try (LuceneMemoryStore reopened = LuceneMemoryStore.open(dir.resolve("s"), OWN_ABOVE_50);
        LuceneMemoryStore one = LuceneMemoryStore.open(dir.resolve("one"), Layout.SHARED)) {
      assertThat(reopened.ownersWithOwnPartition()).containsExactly("a");
      assertThat(contents(reopened, "a")).isEqualTo(contents(one, "a"));
      assertThat(reopened.count()).isEqualTo(one.count());
    }
  }

  @Test
  void forgettingAnOwnerDuringTheirMove_cancelsIt(@TempDir Path dir) throws Exception {
    try (LuceneMemoryStore store = LuceneMemoryStore.open(dir, OWN_ABOVE_50)) {
      Hold hold = new Hold("copied");
      store.mover.moveStep = hold;
      store.apply(records("a", 0, 60), List.of());
      hold.awaitReached();
      assertThat(store.deleteOwner("a")).isEqualTo(60);
      hold.release.countDown();
      store.awaitMoves();
      assertThat(store.ownersWithOwnPartition()).isEmpty();
      assertThat(contents(store, "a")).isEmpty();
      try (var folders = Files.list(dir.resolve("owners"))) {
        assertThat(folders.filter(Files::isDirectory).toList()).isEmpty();
      }
    }
  }

  /**
   * A crash while the copy is done but the table not yet switched: the copy of the store's files
   * taken then opens with the owner in the shared index and moves them again.
   */
  @Test
  void aCrashAfterTheCopy_beforeTheSwitch_isRepairedOnOpen(@TempDir Path dir) throws Exception {
    Path crashed = dir.resolve("crashed");
    try (LuceneMemoryStore store = LuceneMemoryStore.open(dir.resolve("s"), OWN_ABOVE_50)) {
      Hold hold = new Hold("copied");
      store.mover.moveStep = hold;
      store.apply(records("a", 0, 60), List.of());
      hold.awaitReached();
      store.apply(records("a", 60, 63), List.of()); // durable in the shared index only
      copyCommitted(dir.resolve("s"), crashed);
      hold.release.countDown();
    }
    assertThat(Files.exists(crashed.resolve("owners/o1"))).isTrue();
    try (LuceneMemoryStore repaired = LuceneMemoryStore.open(crashed, OWN_ABOVE_50)) {
      assertThat(contents(repaired, "a")).hasSize(63);
      repaired.awaitMoves();
      assertThat(repaired.ownersWithOwnPartition()).containsExactly("a");
      assertThat(contents(repaired, "a")).hasSize(63);
      assertThat(repaired.count()).isEqualTo(63);
    }
  }

  /**
   * A crash after the switch, before the shared index's delete is committed: the owner's records
   * are in both indexes on disk; the open deletes the shared copies and reads them from the
   * owner's.
   */
  @Test
  void aCrashAfterTheSwitch_beforeTheSharedDelete_isRepairedOnOpen(@TempDir Path dir)
      throws Exception {
    Path crashed = dir.resolve("crashed");
    try (LuceneMemoryStore store = LuceneMemoryStore.open(dir.resolve("s"), OWN_ABOVE_50)) {
      Hold hold = new Hold("switched");
      store.mover.moveStep = hold;
      store.apply(records("a", 0, 60), List.of());
      store.apply(records("b", 100, 105), List.of());
      hold.awaitReached();
      copyCommitted(dir.resolve("s"), crashed);
      hold.release.countDown();
    }
    try (LuceneMemoryStore repaired = LuceneMemoryStore.open(crashed, OWN_ABOVE_50)) {
      assertThat(repaired.ownersWithOwnPartition()).containsExactly("a");
      assertThat(contents(repaired, "a")).hasSize(60);
      assertThat(contents(repaired, "b")).hasSize(5);
      assertThat(repaired.count()).isEqualTo(65);
    }
  }

  @Test
  void concurrentWriters_areAllDurableAndVisible_whenTheyReturn(@TempDir Path dir)
      throws Exception {
    int writers = 8;
    int each = 20;
    ExecutorService pool = Executors.newFixedThreadPool(writers);
    try (LuceneMemoryStore store = LuceneMemoryStore.open(dir, Layout.SHARED)) {
      List<Future<?>> done = new ArrayList<>();
      for (int w = 0; w < writers; w++) {
        int base = w * 1000;
        done.add(
            pool.submit(
                () -> {
                  for (int i = 0; i < each; i++) {
                    MemoryRecord r = record("o" + (base % 3), base + i, "note " + (base + i));
                    store.apply(List.of(r), List.of());
                    // visible to a read the moment it is acknowledged
                    assertThat(store.get(r.owner(), r.id())).isPresent();
                  }
                  return null;
                }));
      }
      for (Future<?> f : done) f.get(2, TimeUnit.MINUTES);
      assertThat(store.count()).isEqualTo(writers * each);
    } finally {
      pool.shutdownNow();
    }
    try (LuceneMemoryStore reopened = LuceneMemoryStore.open(dir, Layout.SHARED)) {
      assertThat(reopened.count()).isEqualTo(writers * each);
    }
  }

  /**
   * Copies a live store's files, as a crash would leave them: what the last commits reference
   * (files a merge removes meanwhile are skipped; the open drops what no commit references).
   */
  private static void copyCommitted(Path from, Path to) throws IOException {
    try (var files = Files.walk(from)) {
      for (Path f : files.toList()) {
        Path target = to.resolve(from.relativize(f).toString());
        if (Files.isDirectory(f)) {
          Files.createDirectories(target);
        } else if (!f.getFileName().toString().equals("write.lock")) {
          try {
            Files.copy(f, target);
          } catch (NoSuchFileException gone) {
            // deleted while copying: referenced by no commit
          }
        }
      }
    }
  }
}

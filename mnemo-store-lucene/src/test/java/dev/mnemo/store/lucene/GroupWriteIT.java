package dev.mnemo.store.lucene;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mnemo.MemoryRecord;
import dev.mnemo.MnemoException;
import dev.mnemo.store.lucene.LuceneMemoryStore.Layout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.lucene.store.FSDirectory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Concurrent writes are combined: the writes waiting for the store's write lock are applied as one
 * group, made visible by one refresh per index, and logged in order. Each write is still its own
 * call: visible when it returns, refused alone when its records cannot be indexed, and a failure of
 * the group's refresh refuses every write of the group, none of which comes back on reopen. Groups
 * are formed with a hook that holds the write lock until the writers are queued (no timing).
 *
 * <p>An integration test (Failsafe, run by {@code bin/test} and CI, not by {@code bin/test
 * --fast}): concurrent writers, failed refreshes and background moves on a store on disk (11 s
 * under load).
 */
class GroupWriteIT {
  @TempDir Path tmp;

  private static MemoryRecord rec(String id, String owner, String text) {
    return WriteAheadLogTest.full(id, owner, text);
  }

  private static Set<String> ids(LuceneMemoryStore s, String owner) {
    List<MemoryRecord> all = new ArrayList<>();
    s.export(owner, all::add);
    return all.stream().map(MemoryRecord::id).collect(Collectors.toSet());
  }

  /** The sizes of the groups the store applies from now on. */
  private static List<Integer> groupSizes(LuceneMemoryStore store) {
    List<Integer> groups = Collections.synchronizedList(new ArrayList<>());
    store.writer.groupApplied = groups::add;
    return groups;
  }

  /** Holds the next group until {@code writers} more writes are queued behind its leader. */
  private static CountDownLatch holdNextGroup(LuceneMemoryStore store, int writers) {
    CountDownLatch leaderIn = new CountDownLatch(1);
    store.writer.beforeGroup =
        () -> {
          store.writer.beforeGroup = () -> {};
          leaderIn.countDown();
          long until = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
          while (store.writer.queued() < writers + 1 && System.nanoTime() < until)
            Thread.onSpinWait();
        };
    return leaderIn;
  }

  @Test
  void writesQueuedTogether_formOneGroup_aBadOneRefusedAlone() throws Exception {
    try (LuceneMemoryStore store = LuceneMemoryStore.open(tmp.resolve("s"))) {
      List<Integer> groups = groupSizes(store);
      CountDownLatch leaderIn = holdNextGroup(store, 4);
      ExecutorService pool = Executors.newFixedThreadPool(5);
      try {
        Future<?> leader =
            pool.submit(() -> store.apply(List.of(rec("a", "o1", "alpha")), List.of()));
        assertThat(leaderIn.await(1, TimeUnit.MINUTES)).isTrue();
        List<Future<?>> rest = new ArrayList<>();
        for (String o : List.of("o2", "o3", "o4")) {
          rest.add(
              pool.submit(() -> store.apply(List.of(rec("r-" + o, o, "text of " + o)), List.of())));
        }
        // an owner whose indexed term Lucene refuses (over 32,766 bytes)
        Future<?> bad =
            pool.submit(() -> store.apply(List.of(rec("bad", "x".repeat(40_000), "t")), List.of()));
        leader.get(1, TimeUnit.MINUTES);
        for (Future<?> f : rest) f.get(1, TimeUnit.MINUTES);
        assertThatThrownBy(() -> bad.get(1, TimeUnit.MINUTES))
            .hasCauseInstanceOf(MnemoException.class)
            .hasMessageContaining("write refused, nothing was written");
      } finally {
        pool.shutdownNow();
      }
      assertThat(groups).containsExactly(5);
      assertThat(store.get("o1", "a")).isPresent();
      for (String o : List.of("o2", "o3", "o4")) assertThat(store.get(o, "r-" + o)).isPresent();
      // the store stays writable
      store.apply(List.of(rec("after", "o1", "later")), List.of());
      assertThat(store.get("o1", "after")).isPresent();
    }
    try (LuceneMemoryStore again = LuceneMemoryStore.open(tmp.resolve("s"))) {
      assertThat(ids(again, "o1")).containsExactlyInAnyOrder("a", "after");
      assertThat(again.count()).isEqualTo(5);
    }
  }

  @Test
  void aDeleteOfAnIdWrittenEarlierInTheSameGroup_deletesIt() throws Exception {
    try (LuceneMemoryStore store = LuceneMemoryStore.open(tmp.resolve("s"))) {
      List<Integer> groups = groupSizes(store);
      CountDownLatch leaderIn = holdNextGroup(store, 2);
      ExecutorService pool = Executors.newFixedThreadPool(3);
      try {
        Future<?> leader =
            pool.submit(() -> store.apply(List.of(rec("lead", "o", "first")), List.of()));
        assertThat(leaderIn.await(1, TimeUnit.MINUTES)).isTrue();
        Future<?> write =
            pool.submit(() -> store.apply(List.of(rec("x", "o", "written")), List.of()));
        long until = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
        while (store.writer.queued() < 2 && System.nanoTime() < until) Thread.onSpinWait();
        Future<?> delete = pool.submit(() -> store.apply(List.of(), List.of("x")));
        leader.get(1, TimeUnit.MINUTES);
        write.get(1, TimeUnit.MINUTES);
        delete.get(1, TimeUnit.MINUTES);
      } finally {
        pool.shutdownNow();
      }
      assertThat(groups).containsExactly(3);
      assertThat(store.get("o", "x")).isEmpty();
      assertThat(ids(store, "o")).containsExactly("lead");
    }
    try (LuceneMemoryStore again = LuceneMemoryStore.open(tmp.resolve("s"))) {
      assertThat(ids(again, "o")).containsExactly("lead");
    }
  }

  @Test
  void aFailedRefresh_refusesTheWholeGroup_andNoneOfItComesBack() throws Exception {
    Path dir = tmp.resolve("faulty");
    Files.createDirectories(dir);
    StoreFaultsIT.FaultyDirectory fd =
        new StoreFaultsIT.FaultyDirectory(FSDirectory.open(dir), new Random(1));
    LuceneMemoryStore store = LuceneMemoryStore.open(fd, dir, DenseSearch.EXACT_SCAN_MAX);
    store.apply(List.of(rec("kept", "o1", "acknowledged before")), List.of());
    CountDownLatch leaderIn = holdNextGroup(store, 3);
    List<Future<?>> writes = new ArrayList<>();
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      writes.add(
          pool.submit(
              () -> {
                store.apply(List.of(rec("g0", "o0", "group")), List.of());
                return null;
              }));
      assertThat(leaderIn.await(1, TimeUnit.MINUTES)).isTrue();
      // every file the refresh creates fails from here on
      fd.p = 1.0;
      for (int i = 1; i <= 3; i++) {
        String id = "g" + i;
        String owner = "o" + i;
        writes.add(
            pool.submit(
                () -> {
                  store.apply(List.of(rec(id, owner, "group")), List.of());
                  return null;
                }));
      }
      for (Future<?> f : writes) {
        assertThatThrownBy(() -> f.get(1, TimeUnit.MINUTES))
            .hasCauseInstanceOf(MnemoException.class)
            .hasMessageContaining("nothing was acknowledged");
      }
    } finally {
      pool.shutdownNow();
      fd.p = 0;
    }
    try {
      store.close();
    } catch (MnemoException closeFailed) {
      // a close after a fault may fail too; the reopen below is what must work
    }
    try (LuceneMemoryStore after = LuceneMemoryStore.open(dir)) {
      assertThat(after.get("o1", "kept")).isPresent();
      for (int i = 0; i <= 3; i++) assertThat(after.get("o" + i, "g" + i)).isEmpty();
      assertThat(after.count()).isEqualTo(1);
    }
  }

  @Test
  void manyConcurrentWriters_seeEachWriteOnReturn_andTheSameAfterAReopen() throws Exception {
    // own partitions above 20 records (moved in the background while writes go on), 3 open at most
    Layout layout = new Layout(20, 3);
    Map<String, Set<String>> expected = new ConcurrentHashMap<>();
    try (LuceneMemoryStore store = LuceneMemoryStore.open(tmp.resolve("s"), layout)) {
      List<Integer> groups = groupSizes(store);
      ExecutorService pool = Executors.newFixedThreadPool(8);
      try {
        List<Future<?>> writers = new ArrayList<>();
        for (int t = 0; t < 8; t++) {
          String owner = "owner-" + t;
          long seed = t;
          writers.add(
              pool.submit(
                  () -> {
                    Random random = new Random(seed);
                    Set<String> mine = new HashSet<>();
                    for (int i = 0; i < 40; i++) {
                      String id = owner + "-" + i;
                      List<String> deletes = new ArrayList<>();
                      if (!mine.isEmpty() && random.nextInt(4) == 0)
                        deletes.add(mine.iterator().next());
                      store.apply(List.of(rec(id, owner, "note " + i + " of " + owner)), deletes);
                      mine.add(id);
                      mine.removeAll(deletes);
                      // visible on return, deletes included
                      assertThat(store.get(owner, id)).isPresent();
                      for (String d : deletes) assertThat(store.get(owner, d)).isEmpty();
                    }
                    expected.put(owner, mine);
                    return null;
                  }));
        }
        for (Future<?> f : writers) f.get(5, TimeUnit.MINUTES);
      } finally {
        pool.shutdownNow();
      }
      for (var e : expected.entrySet()) assertThat(ids(store, e.getKey())).isEqualTo(e.getValue());
      assertThat(groups.stream().mapToInt(Integer::intValue).sum()).isEqualTo(8 * 40);
      store.awaitMoves();
    }
    try (LuceneMemoryStore again = LuceneMemoryStore.open(tmp.resolve("s"), layout)) {
      for (var e : expected.entrySet()) assertThat(ids(again, e.getKey())).isEqualTo(e.getValue());
    }
  }
}

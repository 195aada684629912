package dev.mnemo.store.lucene;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.MemoryRecord;
import dev.mnemo.store.lucene.LuceneMemoryStore.Layout;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.store.FSDirectory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The store with its write-ahead log: acknowledged writes survive a crash that left them out of
 * every Lucene commit, checkpoints empty the log, a forget leaves nothing of the owner in it, and a
 * write applied again never brings back what a later write or a forget removed.
 *
 * <p>A crash is a copy of the store's files taken while it is open (no close, so no commit on
 * close): what a machine that lost power would find on disk, minus the page cache.
 */
class WriteAheadLogStoreTest {
  @TempDir Path tmp;

  /** Own partitions above 3 records, so writes go to both kinds of index. */
  private static final Layout LAYOUT = new Layout(3, 2);

  private static MemoryRecord rec(String id, String owner, String text) {
    return WriteAheadLogTest.full(id, owner, text);
  }

  private static List<MemoryRecord> records(String owner, int n, String word) {
    List<MemoryRecord> out = new ArrayList<>();
    for (int i = 0; i < n; i++) out.add(rec(owner + "-" + i, owner, word + " number " + i));
    return out;
  }

  private static Set<String> ids(LuceneMemoryStore s, String owner) {
    List<MemoryRecord> all = new ArrayList<>();
    s.export(owner, all::add);
    return all.stream().map(MemoryRecord::id).collect(Collectors.toSet());
  }

  /** The files of an open store, as a crash would leave them (its write locks left out). */
  private static Path crashImage(Path from, Path to) throws IOException {
    try (var walk = Files.walk(from)) {
      for (Path p : walk.toList()) {
        Path target = to.resolve(from.relativize(p).toString());
        if (Files.isDirectory(p)) Files.createDirectories(target);
        else if (!p.getFileName().toString().equals("write.lock")) {
          try {
            Files.copy(p, target);
          } catch (NoSuchFileException e) {
            // deleted while copying (a merge's leftovers): no commit refers to it
          }
        }
      }
    }
    return to;
  }

  private static int committedDocs(Path index) throws IOException {
    try (var d = FSDirectory.open(index);
        var r = DirectoryReader.open(d)) {
      return r.numDocs();
    }
  }

  @Test
  void acknowledgedWritesSurviveACrashBeforeAnyCommit() throws IOException {
    Path dir = tmp.resolve("store");
    try (LuceneMemoryStore s = LuceneMemoryStore.open(dir, LAYOUT)) {
      s.apply(records("big", 6, "kitchen"), List.of());
      s.awaitMoves(); // "big" now has an index of their own (the move commits both indexes)
      s.apply(records("big", 8, "kitchen again"), List.of("big-0"));
      s.apply(records("small", 2, "garden"), List.of());
      s.apply(List.of(rec("small-9", "small", "late")), List.of("small-1"));
      Path copy = crashImage(dir, tmp.resolve("crash"));
      // the shared index's last commit holds none of the small owner's records: only the log does
      assertThat(committedDocs(copy)).isZero();
      try (LuceneMemoryStore again = LuceneMemoryStore.open(copy, LAYOUT)) {
        assertThat(ids(again, "small")).containsExactlyInAnyOrder("small-0", "small-9");
        Set<String> big = ids(again, "big");
        assertThat(big).hasSize(7).doesNotContain("big-0");
        assertThat(again.get("big", "big-7").orElseThrow().text())
            .isEqualTo("kitchen again number 7");
        assertThat(again.get("small", "small-9").orElseThrow().embedding())
            .containsExactly(rec("small-9", "small", "late").embedding());
      }
    }
  }

  @Test
  void aCheckpointCommitsTheIndexesAndEmptiesTheLog() throws IOException {
    Path dir = tmp.resolve("store");
    try (LuceneMemoryStore s = LuceneMemoryStore.open(dir, LAYOUT)) {
      s.writer.checkpointBytes = 1; // every acknowledged write checkpoints
      s.apply(records("small", 2, "garden"), List.of());
      assertThat(logBytes(dir)).isZero();
      assertThat(committedDocs(dir)).isEqualTo(2);
      s.apply(List.of(rec("small-5", "small", "x")), List.of("small-0"));
      Path copy = crashImage(dir, tmp.resolve("crash"));
      try (LuceneMemoryStore again = LuceneMemoryStore.open(copy, LAYOUT)) {
        assertThat(ids(again, "small")).containsExactlyInAnyOrder("small-1", "small-5");
      }
    }
  }

  @Test
  void aWriteAppliedAgainDoesNotBringBackWhatALaterOneDeleted() throws IOException {
    Path dir = tmp.resolve("store");
    try (LuceneMemoryStore s = LuceneMemoryStore.open(dir, LAYOUT)) {
      s.apply(List.of(rec("a", "small", "first")), List.of());
      s.apply(List.of(), List.of("a"));
      s.apply(List.of(rec("b", "small", "second")), List.of());
      s.apply(List.of(rec("b", "small", "second, corrected")), List.of());
      Path copy = crashImage(dir, tmp.resolve("crash"));
      try (LuceneMemoryStore again = LuceneMemoryStore.open(copy, LAYOUT)) {
        assertThat(ids(again, "small")).containsExactly("b");
        assertThat(again.get("small", "b").orElseThrow().text()).isEqualTo("second, corrected");
        // opening applied the log and checkpointed: a second crash finds it all in the commits
        Path twice = crashImage(copy, tmp.resolve("crash2"));
        assertThat(logBytes(twice)).isZero();
        assertThat(committedDocs(twice)).isEqualTo(1);
      }
    }
  }

  @Test
  void aForgetLeavesNothingOfTheOwnerInTheLogAndStaysForgottenAfterACrash() throws IOException {
    Path dir = tmp.resolve("store");
    try (LuceneMemoryStore s = LuceneMemoryStore.open(dir, LAYOUT)) {
      s.apply(records("small", 2, "zebracorn"), List.of());
      s.apply(records("big", 6, "zebracorn"), List.of());
      s.awaitMoves();
      s.apply(records("big", 7, "zebracorn"), List.of());
      s.apply(records("other", 1, "unrelated"), List.of());
      assertThat(logText(dir)).contains("zebracorn");
      s.deleteOwner("big");
      s.deleteOwner("small");
      assertThat(logText(dir)).doesNotContain("zebracorn");
      s.apply(List.of(rec("other-1", "other", "after the forget")), List.of());
      Path copy = crashImage(dir, tmp.resolve("crash"));
      try (LuceneMemoryStore again = LuceneMemoryStore.open(copy, LAYOUT)) {
        assertThat(ids(again, "big")).isEmpty();
        assertThat(ids(again, "small")).isEmpty();
        assertThat(ids(again, "other")).containsExactlyInAnyOrder("other-0", "other-1");
      }
    }
  }

  @Test
  void aCleanCloseLeavesAnEmptyLogAndTheNumberingGoesOn() throws IOException {
    Path dir = tmp.resolve("store");
    String before;
    try (LuceneMemoryStore s = LuceneMemoryStore.open(dir, LAYOUT)) {
      s.apply(records("small", 2, "garden"), List.of());
      before = s.state();
    }
    assertThat(logBytes(dir)).isZero();
    try (LuceneMemoryStore s = LuceneMemoryStore.open(dir, LAYOUT)) {
      assertThat(ids(s, "small")).hasSize(2);
      s.apply(List.of(rec("small-7", "small", "more")), List.of());
      assertThat(s.state()).isNotEqualTo(before);
      Path copy = crashImage(dir, tmp.resolve("crash"));
      try (LuceneMemoryStore again = LuceneMemoryStore.open(copy, LAYOUT)) {
        assertThat(ids(again, "small")).hasSize(3);
      }
    }
  }

  @Test
  void withoutTheLogEveryWriteIsCommitted() throws IOException {
    Path dir = tmp.resolve("store");
    try (LuceneMemoryStore s = LuceneMemoryStore.open(dir, LAYOUT.withWriteAheadLog(false))) {
      s.apply(records("small", 2, "garden"), List.of());
      assertThat(committedDocs(dir)).isEqualTo(2);
      assertThat(dir.resolve(StoreWriter.LOG_DIR)).doesNotExist();
    }
  }

  @Test
  void theProviderTurnsTheLogOffOnlyWhenAskedAndRefusesAnythingButTrueOrFalse() throws IOException {
    var provider = new LuceneStoreProvider();
    Path off = tmp.resolve("off");
    try (var s =
        provider.open(java.util.Map.of("dir", off.toString(), "write_ahead_log", "false"))) {
      s.apply(records("small", 1, "garden"), List.of());
    }
    assertThat(off.resolve(StoreWriter.LOG_DIR)).doesNotExist();
    Path on = tmp.resolve("on");
    provider.open(java.util.Map.of("dir", on.toString())).close();
    assertThat(on.resolve(StoreWriter.LOG_DIR)).isDirectory();
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () ->
                provider.open(
                    java.util.Map.of("dir", tmp.resolve("x").toString(), "write_ahead_log", "yes")))
        .isInstanceOf(dev.mnemo.InvalidRequestException.class)
        .hasMessageContaining("write_ahead_log");
  }

  /** The bytes of the log's entries (each file's header aside). */
  private static long logBytes(Path dir) throws IOException {
    try (var list = Files.list(dir.resolve(StoreWriter.LOG_DIR))) {
      long sum = 0;
      for (Path p : list.toList()) sum += Files.size(p) - WriteAheadLog.HEADER;
      return sum;
    }
  }

  private static String logText(Path dir) throws IOException {
    StringBuilder b = new StringBuilder();
    try (var list = Files.list(dir.resolve(StoreWriter.LOG_DIR))) {
      for (Path p : list.toList())
        b.append(new String(Files.readAllBytes(p), StandardCharsets.UTF_8));
    }
    return b.toString();
  }
}

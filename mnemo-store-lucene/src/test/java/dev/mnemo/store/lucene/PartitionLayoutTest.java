package dev.mnemo.store.lucene;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.Authority;
import dev.mnemo.Category;
import dev.mnemo.ConflictPolicy;
import dev.mnemo.MemoryRecord;
import dev.mnemo.spi.Candidate;
import dev.mnemo.spi.CandidateQuery;
import dev.mnemo.spi.CandidateSet;
import dev.mnemo.spi.Eligibility;
import dev.mnemo.store.lucene.LuceneMemoryStore.Layout;
import dev.mnemo.testkit.HashingEmbedder;
import dev.mnemo.time.TimeRange;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Owners' own partitions: an owner above the layout's limit is moved to an index of their own and
 * reads exactly as a store holding only their records would (per-owner statistics); the layout
 * survives a restart, repairs what a crash during a move leaves, forgets an owner by deleting their
 * folder, and keeps a bounded number of partitions open.
 */
class PartitionLayoutTest {
  private static final String[] WORDS = {
    "alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet",
    "kilo", "lima", "maya", "omar", "lisbon", "berlin"
  };
  private static final Instant T0 = Instant.parse("2025-01-01T00:00:00Z");
  private static final Layout OWN_ABOVE_200 = new Layout(200, 4);

  private final HashingEmbedder embedder = new HashingEmbedder();

  /** 720 records in batches: about 500 of owner-a, the rest split between owner-b and owner-c. */
  private List<List<MemoryRecord>> batches() {
    Random random = new Random(11);
    List<List<MemoryRecord>> out = new ArrayList<>();
    for (int batch = 0; batch < 6; batch++) {
      List<MemoryRecord> records = new ArrayList<>();
      for (int i = 0; i < 120; i++) records.add(record(random, batch * 120 + i));
      out.add(records);
    }
    return out;
  }

  private static void write(
      LuceneMemoryStore store, List<List<MemoryRecord>> batches, String onlyOwner) {
    for (List<MemoryRecord> b : batches) {
      List<MemoryRecord> some =
          b.stream().filter(r -> onlyOwner == null || r.owner().equals(onlyOwner)).toList();
      store.apply(some, List.of());
    }
    store.awaitMoves();
  }

  @Test
  void anOwnerAboveTheLimit_readsAsAStoreOfTheirOwnRecordsWould(@TempDir Path dir) {
    List<List<MemoryRecord>> batches = batches();
    try (LuceneMemoryStore parted = LuceneMemoryStore.open(dir.resolve("parted"), OWN_ABOVE_200);
        LuceneMemoryStore alone = LuceneMemoryStore.open(dir.resolve("alone"), Layout.SHARED);
        LuceneMemoryStore one = LuceneMemoryStore.open(dir.resolve("one"), Layout.SHARED)) {
      write(parted, batches, null);
      write(alone, batches, "owner-a");
      write(one, batches, null);
      assertThat(parted.ownersWithOwnPartition()).containsExactly("owner-a");
      assertThat(Files.isDirectory(dir.resolve("parted/owners/o1"))).isTrue();
      assertThat(one.ownersWithOwnPartition()).isEmpty();

      Random random = new Random(5);
      int compared = 0;
      for (int q = 0; q < 40; q++) {
        CandidateQuery query = query(random, q, "owner-a");
        CandidateSet want = alone.candidates(query);
        CandidateSet got = parted.candidates(query);
        assertThat(got.describe()).as("query %d", q).isEqualTo(want.describe());
        assertThat(got.candidates().stream().map(Candidate::record).toList())
            .isEqualTo(want.candidates().stream().map(Candidate::record).toList());
        if (!want.candidates().isEmpty()) compared++;
        // The others stay in the shared index: the same dense candidates as one shared index finds
        // (BM25's statistics are those of the shared index, which no longer holds owner-a's
        // records).
        CandidateQuery other = query(random, q, q % 2 == 0 ? "owner-b" : "owner-c");
        // (Equal cosines may come in another order: the shared index's segments were merged at
        // other moments, the move running in the background.)
        assertThat(denseUpToTies(parted.candidates(other)))
            .isEqualTo(denseUpToTies(one.candidates(other)));
      }
      assertThat(compared).isGreaterThan(20);
      assertSameRecords(parted, one);
    }
  }

  /** Everything but ranking reads the same from a laid-out store as from one shared index. */
  private static void assertSameRecords(LuceneMemoryStore parted, LuceneMemoryStore one) {
    assertThat(parted.count()).isEqualTo(one.count());
    assertThat(exported(parted, null)).isEqualTo(exported(one, null));
    for (String owner : List.of("owner-a", "owner-b", "owner-c", "nobody")) {
      assertThat(exported(parted, owner)).isEqualTo(exported(one, owner));
      Eligibility e = Eligibility.current(owner, T0.plus(Duration.ofDays(200)));
      assertThat(parted.latest(e, 17)).isEqualTo(one.latest(e, 17));
      assertThat(parted.count(e)).isEqualTo(one.count(e));
      assertThat(parted.versions(owner, "fk-1")).isEqualTo(one.versions(owner, "fk-1"));
      assertThat(parted.bySources(owner, List.of("turn-3", "turn-100", "turn-501")))
          .isEqualTo(one.bySources(owner, List.of("turn-3", "turn-100", "turn-501")));
      assertThat(parted.lineage(owner, "id-10")).isEqualTo(one.lineage(owner, "id-10"));
      assertThat(parted.get(owner, "id-33")).isEqualTo(one.get(owner, "id-33"));
    }
    Eligibility all = Eligibility.unrestrictedForEvaluation();
    assertThat(parted.latest(all, 50)).isEqualTo(one.latest(all, 50));
    assertThat(parted.count(all)).isEqualTo(one.count(all));
    CandidateQuery q = new CandidateQuery(all, null, null, Set.of("maya"), null, 1_000);
    assertThat(Set.copyOf(ids(parted.candidates(q)))).isEqualTo(Set.copyOf(ids(one.candidates(q))));
  }

  @Test
  void writesAndDeletesByIdReachTheOwnersPartition_andTheLayoutSurvivesARestart(@TempDir Path dir) {
    List<List<MemoryRecord>> batches = batches();
    Path p = dir.resolve("parted");
    String before;
    try (LuceneMemoryStore parted = LuceneMemoryStore.open(p, OWN_ABOVE_200);
        LuceneMemoryStore one = LuceneMemoryStore.open(dir.resolve("one"), Layout.SHARED)) {
      write(parted, batches, null);
      write(one, batches, null);
      assertThat(exported(parted, "owner-b")).isEqualTo(exported(one, "owner-b"));
      MemoryRecord a = parted.get("owner-a", firstId(one, "owner-a")).orElseThrow();
      MemoryRecord b = parted.get("owner-b", firstId(one, "owner-b")).orElseThrow();
      before = parted.state();
      // a rewrite and a delete in one call, without the owner on the delete (as forget calls it)
      for (LuceneMemoryStore s : List.of(parted, one)) {
        s.apply(List.of(a.withExpiredAt(T0.plus(Duration.ofDays(9)))), List.of(b.id()));
        s.apply(List.of(), List.of(exported(s, "owner-a").get(3).id()));
      }
      assertThat(parted.state()).isNotEqualTo(before);
      assertThat(parted.get("owner-b", b.id())).isEmpty();
      assertSameRecords(parted, one);
      before = parted.state();
    }
    try (LuceneMemoryStore reopened = LuceneMemoryStore.open(p);
        LuceneMemoryStore one = LuceneMemoryStore.open(dir.resolve("one"), Layout.SHARED)) {
      assertThat(reopened.ownersWithOwnPartition()).containsExactly("owner-a");
      assertThat(reopened.state()).isEqualTo(before);
      assertSameRecords(reopened, one);
    }
    // the one-index layout still reads owners moved out before
    try (LuceneMemoryStore reopened = LuceneMemoryStore.open(p, Layout.SHARED);
        LuceneMemoryStore one = LuceneMemoryStore.open(dir.resolve("one"), Layout.SHARED)) {
      assertSameRecords(reopened, one);
    }
  }

  private static String firstId(LuceneMemoryStore s, String owner) {
    return exported(s, owner).get(0).id();
  }

  @Test
  void anExistingOneIndexStore_isLaidOutOnOpen_andACrashBeforeTheDeleteIsRepaired(@TempDir Path dir)
      throws IOException {
    Path old = dir.resolve("old");
    try (LuceneMemoryStore s = LuceneMemoryStore.open(old, Layout.SHARED)) {
      write(s, batches(), null);
    }
    Path moved = dir.resolve("moved");
    copyTree(old, moved);
    try (LuceneMemoryStore s = LuceneMemoryStore.open(moved, OWN_ABOVE_200)) {
      s.awaitMoves();
      assertThat(s.ownersWithOwnPartition()).containsExactly("owner-a");
    }
    // The state a crash between the switch and the delete leaves: the table and the owner's
    // partition, and the shared index still holding the owner's records.
    try (var files = Files.list(moved)) {
      for (Path f : files.filter(Files::isRegularFile).toList()) Files.delete(f);
    }
    try (var files = Files.list(old)) {
      for (Path f : files.filter(Files::isRegularFile).toList())
        Files.copy(f, moved.resolve(f.getFileName()));
    }
    // and a folder of a move that never switched
    Files.createDirectories(moved.resolve("owners/o7"));
    Files.writeString(moved.resolve("owners/o7/segments_1"), "half a move");
    try (LuceneMemoryStore repaired = LuceneMemoryStore.open(moved, OWN_ABOVE_200);
        LuceneMemoryStore one = LuceneMemoryStore.open(old, Layout.SHARED)) {
      assertThat(Files.exists(moved.resolve("owners/o7"))).isFalse();
      assertThat(repaired.ownersWithOwnPartition()).containsExactly("owner-a");
      assertSameRecords(repaired, one);
    }
  }

  private static void copyTree(Path from, Path to) throws IOException {
    try (var files = Files.walk(from)) {
      for (Path f : files.toList()) {
        Path target = to.resolve(from.relativize(f).toString());
        if (Files.isDirectory(f)) Files.createDirectories(target);
        else if (!f.getFileName().toString().equals("write.lock"))
          Files.copy(f, target, StandardCopyOption.COPY_ATTRIBUTES);
      }
    }
  }

  @Test
  void forgettingAnOwnerWithAPartition_deletesTheirFolder(@TempDir Path dir) {
    Path p = dir.resolve("parted");
    int a;
    try (LuceneMemoryStore parted = LuceneMemoryStore.open(p, OWN_ABOVE_200)) {
      write(parted, batches(), null);
      long total = parted.count();
      a = exported(parted, "owner-a").size();
      String before = parted.state();
      assertThat(parted.deleteOwner("owner-a")).isEqualTo(a);
      assertThat(parted.state()).isNotEqualTo(before);
      assertThat(parted.ownersWithOwnPartition()).isEmpty();
      assertThat(Files.exists(p.resolve("owners/o1"))).isFalse();
      assertThat(parted.count()).isEqualTo(total - a);
      assertThat(exported(parted, "owner-a")).isEmpty();
      assertThat(parted.get("owner-a", "id-0")).isEmpty();
    }
    try (LuceneMemoryStore reopened = LuceneMemoryStore.open(p, OWN_ABOVE_200)) {
      assertThat(exported(reopened, "owner-a")).isEmpty();
      assertThat(reopened.ownersWithOwnPartition()).isEmpty();
    }
    assertThat(a).isGreaterThan(200);
  }

  @Test
  void openPartitions_stayWithinTheBound(@TempDir Path dir) {
    Random random = new Random(2);
    try (LuceneMemoryStore store = LuceneMemoryStore.open(dir, new Layout(5, 2))) {
      for (int o = 0; o < 6; o++) {
        List<MemoryRecord> records = new ArrayList<>();
        for (int i = 0; i < 8; i++) records.add(record(random, o * 100 + i, "o-" + o));
        store.apply(records, List.of());
      }
      store.awaitMoves();
      assertThat(store.ownersWithOwnPartition()).hasSize(6);
      assertThat(store.openPartitions()).isLessThanOrEqualTo(2);
      for (int round = 0; round < 2; round++) {
        for (int o = 0; o < 6; o++) {
          assertThat(exported(store, "o-" + o)).hasSize(8);
          assertThat(store.openPartitions()).isLessThanOrEqualTo(2);
        }
      }
      assertThat(store.count()).isEqualTo(48);
    }
  }

  @Test
  void exportForNoOwner_mergesTheIndexesPages_inRecordedOrder(@TempDir Path dir) {
    int n = RecordExport.EXPORT_PAGE * 2 + 501;
    List<MemoryRecord> records = new ArrayList<>();
    for (int i = n - 1; i >= 0; i--) { // newest first; owners a and b above the limit, c below
      Instant t = T0.plusSeconds(i);
      String owner = i % 50 == 0 ? "c" : i % 2 == 0 ? "a" : "b";
      records.add(
          new MemoryRecord(
              "r" + i,
              owner,
              null,
              Category.SEMANTIC,
              "fact number " + i,
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
              List.of()));
    }
    try (LuceneMemoryStore store = LuceneMemoryStore.open(dir, new Layout(1_000, 2))) {
      for (int from = 0; from < n; from += 700)
        store.apply(records.subList(from, Math.min(n, from + 700)), List.of());
      store.awaitMoves();
      assertThat(store.ownersWithOwnPartition()).containsExactlyInAnyOrder("a", "b");
      List<MemoryRecord> all = exported(store, null);
      assertThat(all).hasSize(n);
      assertThat(all.stream().map(MemoryRecord::id).distinct().count()).isEqualTo(n);
      assertThat(all).isSortedAccordingTo(java.util.Comparator.comparing(MemoryRecord::recordedAt));
      assertThat(exported(store, "a"))
          .hasSizeGreaterThan(1_000)
          .isSortedAccordingTo(java.util.Comparator.comparing(MemoryRecord::recordedAt))
          .allSatisfy(r -> assertThat(r.owner()).isEqualTo("a"));
    }
  }

  @Test
  void theProvider_takesTheLayoutFromItsConfig(@TempDir Path dir) {
    Random random = new Random(4);
    List<MemoryRecord> records = new ArrayList<>();
    for (int i = 0; i < 5; i++) records.add(record(random, i, "o-1"));
    try (var store =
        (LuceneMemoryStore)
            new LuceneStoreProvider()
                .open(
                    Map.of(
                        "dir",
                        dir.resolve("a").toString(),
                        "own_partition_above",
                        "4",
                        "max_open_partitions",
                        "1"))) {
      store.apply(records, List.of());
      store.awaitMoves();
      assertThat(store.ownersWithOwnPartition()).containsExactly("o-1");
    }
    try (var store =
        (LuceneMemoryStore)
            new LuceneStoreProvider()
                .open(Map.of("dir", dir.resolve("b").toString(), "own_partition_above", "never"))) {
      store.apply(records, List.of());
      assertThat(store.ownersWithOwnPartition()).isEmpty();
    }
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () ->
                new LuceneStoreProvider()
                    .open(Map.of("dir", dir.resolve("c").toString(), "max_open_partitions", "0")))
        .isInstanceOf(dev.mnemo.InvalidRequestException.class);
  }

  private static List<MemoryRecord> exported(LuceneMemoryStore s, String owner) {
    List<MemoryRecord> out = new ArrayList<>();
    s.export(owner, out::add);
    return out;
  }

  /**
   * The dense candidates' cosines by rank, and the ids of those above the lowest cosine (the ones
   * at it may differ between two indexes holding equal records in another order), to float
   * precision.
   */
  private static List<String> denseUpToTies(CandidateSet s) {
    List<Candidate> byRank =
        s.candidates().stream()
            .filter(c -> c.denseRank() > 0)
            .sorted(java.util.Comparator.comparingInt(Candidate::denseRank))
            .toList();
    List<String> out = new ArrayList<>();
    // to float precision: the search ranks by a float score, in which these cosines may be equal
    for (Candidate c : byRank)
      out.add(c.denseRank() + " " + String.format(java.util.Locale.ROOT, "%.5f", c.cosine()));
    double lowest = byRank.isEmpty() ? 0 : byRank.get(byRank.size() - 1).cosine();
    byRank.stream()
        .filter(c -> c.cosine() > lowest + 1e-6)
        .map(c -> c.record().id() + " " + String.format(java.util.Locale.ROOT, "%.5f", c.cosine()))
        .sorted()
        .forEach(out::add);
    return out;
  }

  private static List<String> ids(CandidateSet s) {
    return s.candidates().stream().map(c -> c.record().id()).toList();
  }

  private MemoryRecord record(Random r, int n) {
    return record(r, n, r.nextInt(10) < 7 ? "owner-a" : r.nextBoolean() ? "owner-b" : "owner-c");
  }

  private MemoryRecord record(Random r, int n, String owner) {
    StringBuilder text = new StringBuilder();
    for (int i = 0; i < 3 + r.nextInt(4); i++)
      text.append(WORDS[r.nextInt(WORDS.length)]).append(' ');
    text.append("note ").append(n);
    Instant recorded = T0.plus(Duration.ofHours(n)); // distinct: no ties in the time signal
    Instant validTo = r.nextInt(8) == 0 ? recorded.plus(Duration.ofDays(1 + r.nextInt(90))) : null;
    String factKey = r.nextInt(4) == 0 ? "fk-" + r.nextInt(5) : null;
    List<String> entities =
        r.nextBoolean() ? List.of(r.nextBoolean() ? "maya" : "omar") : List.of();
    Category category = Category.values()[r.nextInt(Category.values().length)];
    String origin = n > 10 && r.nextInt(20) == 0 ? "id-10" : null;
    return new MemoryRecord(
        "id-" + n,
        owner,
        null,
        category,
        text.toString(),
        null,
        List.of("turn-" + n),
        null,
        -1,
        recorded,
        null,
        recorded,
        validTo,
        factKey,
        factKey == null ? 0 : 1,
        origin,
        r.nextDouble(),
        Authority.EXPLICIT,
        ConflictPolicy.KEEP_BOTH,
        entities,
        0,
        null,
        embedder.embedPassages(List.of(text.toString())).get(0),
        embedder.modelId(),
        Map.of(),
        List.of());
  }

  private CandidateQuery query(Random r, int q, String owner) {
    Instant at = T0.plus(Duration.ofDays(r.nextInt(40)));
    Eligibility e = q % 2 == 0 ? Eligibility.current(owner, at) : Eligibility.allOf(owner);
    String text = WORDS[r.nextInt(WORDS.length)] + " " + WORDS[r.nextInt(WORDS.length)];
    Set<String> entities = q % 3 == 0 ? Set.of("maya") : Set.of();
    TimeRange range = q % 4 == 0 ? new TimeRange(at.minus(Duration.ofDays(20)), at, "test") : null;
    return new CandidateQuery(
        e, embedder.embedQuery(text), text, entities, range, 5 + r.nextInt(30));
  }
}

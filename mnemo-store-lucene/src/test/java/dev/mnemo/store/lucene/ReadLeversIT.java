package dev.mnemo.store.lucene;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.Authority;
import dev.mnemo.Category;
import dev.mnemo.ConflictPolicy;
import dev.mnemo.MemoryRecord;
import dev.mnemo.Mnemo;
import dev.mnemo.RecallRequest;
import dev.mnemo.RecallResult;
import dev.mnemo.spi.Candidate;
import dev.mnemo.spi.CandidateQuery;
import dev.mnemo.spi.CandidateSet;
import dev.mnemo.spi.Eligibility;
import dev.mnemo.spi.MemoryStore;
import dev.mnemo.store.lucene.LuceneMemoryStore.ReadOptions;
import dev.mnemo.testkit.HashingEmbedder;
import dev.mnemo.text.JTokkitTokenizer;
import dev.mnemo.time.TimeRange;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import org.apache.lucene.search.ScoreDoc;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The store's read levers change only the time a read takes: every combination of {@link
 * ReadOptions} returns exactly what the baseline returns (the same candidates, ranks, raw signals,
 * counts and frequencies), for every kind of eligibility, on a store of several segments with
 * deleted, rewritten, expired, future and closed-interval records, through both dense paths.
 *
 * <p>An integration test (Failsafe, run by {@code bin/test} and CI, not by {@code bin/test
 * --fast}): every read option over stores of several segments on disk, on both dense paths (the
 * slowest test of the module: 28 s of the fast tier under load).
 */
class ReadLeversIT {
  private static final String[] WORDS = {
    "alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet",
    "kilo", "lima", "maya", "omar", "lisbon", "berlin"
  };
  private static final Instant T0 = Instant.parse("2025-01-01T00:00:00Z");
  private static final List<ReadOptions> COMBINATIONS =
      List.of(
          ReadOptions.BASELINE,
          new ReadOptions(true, false),
          new ReadOptions(false, true),
          new ReadOptions(false, false, LuceneMemoryStore.GRAPH_REACH, true, false),
          new ReadOptions(false, false, LuceneMemoryStore.GRAPH_REACH, false, true),
          ReadOptions.DEFAULT);

  private final HashingEmbedder embedder = new HashingEmbedder();

  @Test
  void everyCombination_answersAsTheBaseline_exactScan(@TempDir Path dir) {
    check(dir, DenseSearch.EXACT_SCAN_MAX);
  }

  @Test
  void everyCombination_answersAsTheBaseline_graphSearch(@TempDir Path dir) {
    check(dir, 0);
  }

  private void check(Path dir, int exactScanMax) {
    Random random = new Random(7);
    try (LuceneMemoryStore store = LuceneMemoryStore.open(dir, exactScanMax)) {
      List<MemoryRecord> written = new ArrayList<>();
      for (int batch = 0; batch < 6; batch++) { // one commit, so at least one segment, per batch
        List<MemoryRecord> records = new ArrayList<>();
        for (int i = 0; i < 120; i++) records.add(record(random, batch * 1000 + i));
        store.apply(records, List.of());
        written.addAll(records);
        // delete some and rewrite some of the earlier records (a rewrite is a new document)
        List<String> deletes = new ArrayList<>();
        List<MemoryRecord> rewrites = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
          MemoryRecord r = written.get(random.nextInt(written.size()));
          if (random.nextBoolean()) deletes.add(r.id());
          else rewrites.add(r.withExpiredAt(T0.plus(Duration.ofDays(random.nextInt(400)))));
        }
        deletes.removeIf(id -> rewrites.stream().anyMatch(r -> r.id().equals(id)));
        store.apply(rewrites, deletes);
      }
      List<MemoryStore> views = COMBINATIONS.stream().map(store::withReadOptions).toList();
      int compared = 0;
      int withVersions = 0; // answers carrying some key's versions
      for (int q = 0; q < 60; q++) {
        CandidateQuery query = query(random, q);
        CandidateSet baseline = views.get(0).candidates(query);
        String want = baseline.describe();
        assertDenseRankFollowsCosine(baseline);
        for (int v = 1; v < views.size(); v++) {
          CandidateSet got = views.get(v).candidates(query);
          assertThat(got.describe()).as("%s, query %d", COMBINATIONS.get(v), q).isEqualTo(want);
          assertThat(records(got)).isEqualTo(records(baseline));
          if (COMBINATIONS.get(v).versionsWithCandidates() && !got.candidates().isEmpty()) {
            Map<String, List<String>> wanted = eligibleVersions(views.get(0), query, baseline);
            assertThat(versions(got)).as("%s, query %d", COMBINATIONS.get(v), q).isEqualTo(wanted);
            if (!wanted.isEmpty()) withVersions++;
          } else {
            assertThat(got.versions()).isNull();
          }
        }
        // asked twice: the second answer comes from the caches
        assertThat(store.candidates(query).describe()).isEqualTo(want);
        assertThat(records(store.candidates(query))).isEqualTo(records(baseline));
        if (!baseline.candidates().isEmpty()) compared++;
        for (MemoryStore view : views) {
          assertThat(view.versions("owner-a", "fk-" + (q % 5)))
              .isEqualTo(views.get(0).versions("owner-a", "fk-" + (q % 5)));
        }
      }
      assertThat(compared).isGreaterThan(30);
      assertThat(withVersions).isPositive();
      recallsAgree(views.get(0), views.get(views.size() - 1), random);
    }
  }

  /**
   * The read path over the store without levers (versions asked per selected fact key) and with
   * every lever (versions with the candidates) selects the same records with the same scores,
   * tokens and conflicts, and renders the same block; some of the answers surface a conflict.
   */
  private void recallsAgree(MemoryStore baseline, MemoryStore levers, Random random) {
    int conflicts = 0;
    try (Mnemo before = engine(baseline);
        Mnemo after = engine(levers)) {
      for (int q = 0; q < 30; q++) {
        String text =
            WORDS[random.nextInt(WORDS.length)] + " " + WORDS[random.nextInt(WORDS.length)];
        RecallRequest req =
            RecallRequest.builder(q % 7 == 6 ? "owner-b" : "owner-a", text)
                .askedAt(T0.plus(Duration.ofDays(random.nextInt(600))))
                .k(10)
                .build();
        RecallResult a = before.recall(req);
        RecallResult b = after.recall(req);
        assertThat(b.rendered()).as("query %d", q).isEqualTo(a.rendered());
        assertThat(b.selected()).as("query %d", q).isEqualTo(a.selected());
        for (var r : a.selected()) if (!r.conflictsWith().isEmpty()) conflicts++;
      }
    }
    assertThat(conflicts).isPositive();
  }

  private Mnemo engine(MemoryStore store) {
    return Mnemo.builder()
        .store(store)
        .embedder(embedder)
        .tokenizer(JTokkitTokenizer.cl100k())
        .clock(InstantSource.fixed(T0))
        .build();
  }

  /**
   * The dense list is ordered by the candidates' cosines, the same value on every call (Lucene's
   * SIMD scores may differ in their last bit once the JIT compiles them, which swapped equal hits).
   */
  private static void assertDenseRankFollowsCosine(CandidateSet set) {
    List<Candidate> dense =
        set.candidates().stream()
            .filter(c -> c.denseRank() > 0)
            .sorted(Comparator.comparingInt(Candidate::denseRank))
            .toList();
    for (int i = 1; i < dense.size(); i++)
      assertThat(dense.get(i).cosine()).isLessThanOrEqualTo(dense.get(i - 1).cosine());
  }

  /** The versions a set carries, each key's records by id. */
  private static Map<String, List<String>> versions(CandidateSet s) {
    Map<String, List<String>> out = new TreeMap<>();
    s.versions().forEach((k, v) -> out.put(k, v.stream().map(MemoryRecord::id).sorted().toList()));
    return out;
  }

  /**
   * What {@link CandidateSet#versions} must hold: for each candidate's fact key, the records of the
   * key that the query's eligibility admits (read through {@link MemoryStore#versions}), when more
   * than one.
   */
  private static Map<String, List<String>> eligibleVersions(
      MemoryStore store, CandidateQuery query, CandidateSet set) {
    Map<String, List<String>> out = new TreeMap<>();
    for (Candidate c : set.candidates()) {
      String key = c.record().factKey();
      if (key == null || out.containsKey(key)) continue;
      List<String> ids =
          store.versions(c.record().owner(), key).stream()
              .filter(query.eligibility()::admits)
              .map(MemoryRecord::id)
              .sorted()
              .toList();
      if (ids.size() > 1) out.put(key, ids);
    }
    return out;
  }

  /** A record of one of three owners, with varied times, scope, category, metadata and entities. */
  private MemoryRecord record(Random r, int n) {
    String owner = r.nextInt(10) < 7 ? "owner-a" : r.nextBoolean() ? "owner-b" : "owner-c";
    StringBuilder text = new StringBuilder();
    for (int i = 0; i < 3 + r.nextInt(4); i++)
      text.append(WORDS[r.nextInt(WORDS.length)]).append(' ');
    text.append("note ").append(n);
    Instant recorded = T0.plus(Duration.ofDays(r.nextInt(500)));
    Instant expired = r.nextInt(10) == 0 ? recorded.plus(Duration.ofDays(1 + r.nextInt(60))) : null;
    Instant validFrom =
        r.nextInt(8) == 0 ? recorded.plus(Duration.ofDays(r.nextInt(90))) : recorded;
    Instant validTo = r.nextInt(8) == 0 ? validFrom.plus(Duration.ofDays(1 + r.nextInt(90))) : null;
    String factKey = r.nextInt(4) == 0 ? "fk-" + r.nextInt(5) : null;
    List<String> entities = new ArrayList<>();
    if (r.nextBoolean()) entities.add(r.nextBoolean() ? "maya" : "omar");
    Category category = Category.values()[r.nextInt(Category.values().length)];
    Map<String, String> meta =
        r.nextInt(3) == 0 ? Map.of("channel", r.nextBoolean() ? "chat" : "email") : Map.of();
    return new MemoryRecord(
        "id-" + n,
        owner,
        r.nextInt(4) == 0 ? "project-" + r.nextInt(2) : null,
        category,
        text.toString(),
        null,
        List.of("turn-" + n),
        null,
        -1,
        recorded,
        expired,
        validFrom,
        validTo,
        factKey,
        factKey == null ? 0 : 1,
        null,
        r.nextDouble(),
        Authority.EXPLICIT,
        r.nextBoolean() ? ConflictPolicy.SUPERSEDE : ConflictPolicy.KEEP_BOTH,
        entities,
        0,
        null,
        embedder.embedPassages(List.of(text.toString())).get(0),
        embedder.modelId(),
        meta,
        List.of());
  }

  /** Queries with every kind of eligibility rule and signal. */
  private CandidateQuery query(Random r, int q) {
    Instant at = T0.plus(Duration.ofDays(r.nextInt(600)));
    String owner = q % 7 == 6 ? "owner-b" : "owner-a";
    Eligibility e =
        switch (q % 6) {
          case 0 -> Eligibility.current(owner, at);
          case 1 -> Eligibility.allOf(owner);
          case 2 -> new Eligibility(owner, "project-1", Set.of(), Map.of(), at, at, null);
          case 3 ->
              new Eligibility(
                  owner,
                  null,
                  Set.of(Category.EPISODIC, Category.SEMANTIC),
                  Map.of("channel", "chat"),
                  at,
                  at.plus(Duration.ofDays(30)),
                  null);
          case 4 ->
              new Eligibility(
                  owner,
                  null,
                  Set.of(),
                  Map.of(),
                  null,
                  at,
                  new TimeRange(at.minus(Duration.ofDays(40)), at, "test"));
          default ->
              new Eligibility(
                  owner, null, Set.of(), Map.of(), at.minus(Duration.ofDays(100)), null, null);
        };
    String text = WORDS[r.nextInt(WORDS.length)] + " " + WORDS[r.nextInt(WORDS.length)];
    Set<String> entities = q % 3 == 0 ? Set.of("maya") : Set.of();
    TimeRange range = q % 4 == 0 ? new TimeRange(at.minus(Duration.ofDays(90)), at, "test") : null;
    return new CandidateQuery(
        e,
        q % 5 == 4 ? null : embedder.embedQuery(text),
        q % 5 == 3 ? null : text,
        entities,
        range,
        5 + r.nextInt(30));
  }

  /**
   * The candidates' records (compared whole: {@link MemoryRecord#equals} compares vectors by
   * content).
   */
  private static List<MemoryRecord> records(CandidateSet s) {
    return s.candidates().stream().map(Candidate::record).toList();
  }

  @Test
  void topK_keepsWhatABoxedQueueKeeps() {
    Random r = new Random(3);
    for (int round = 0; round < 200; round++) {
      int k = 1 + r.nextInt(20);
      DenseSearch.TopK top = new DenseSearch.TopK(k);
      PriorityQueue<ScoreDoc> boxed =
          new PriorityQueue<>(
              Comparator.<ScoreDoc>comparingDouble(d -> d.score).thenComparing(d -> -d.doc));
      int n = r.nextInt(100);
      for (int doc = 0; doc < n; doc++) {
        float score = r.nextInt(4) == 0 ? 0.5f : r.nextFloat(); // ties on purpose
        top.offer(doc, score);
        boxed.add(new ScoreDoc(doc, score));
        if (boxed.size() > k) boxed.poll();
      }
      List<String> want = new ArrayList<>();
      while (!boxed.isEmpty()) want.add(0, boxed.peek().doc + ":" + boxed.poll().score);
      List<String> got =
          java.util.Arrays.stream(top.drain()).map(d -> d.doc + ":" + d.score).toList();
      assertThat(got).isEqualTo(want);
    }
  }
}

package dev.mnemo.store.lucene;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.Mnemo;
import dev.mnemo.NewMemory;
import dev.mnemo.RecallRequest;
import dev.mnemo.RecallResult;
import dev.mnemo.spi.CandidateQuery;
import dev.mnemo.spi.CandidateSet;
import dev.mnemo.spi.Eligibility;
import dev.mnemo.testkit.HashingEmbedder;
import dev.mnemo.time.TimeRange;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Parallel signals: the store searching BM25, entities and time before it asks for the vector, and
 * the engine embedding the query meanwhile, give the same answers as the vector given first.
 *
 * <p>An integration test (Failsafe, run by {@code bin/test} and CI, not by {@code bin/test
 * --fast}): random stores on disk recalled with and without parallel signals (10 s under load).
 */
class ParallelSignalsIT {
  private static final String[] WORDS = {
    "alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet",
    "Maya", "Omar", "Lisbon", "Berlin"
  };
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

  @Test
  void vectorAskedForLater_givesTheSameCandidates_inTheSameOrder(@TempDir Path dir) {
    HashingEmbedder embedder = new HashingEmbedder();
    // an own partition (above 150 records) and the shared index, both dense paths (limit 0: graph)
    for (int limit : new int[] {0, Integer.MAX_VALUE}) {
      Path d = dir.resolve("limit-" + limit);
      fill(d, embedder, limit);
      try (LuceneMemoryStore store =
          settled(LuceneMemoryStore.open(d, new LuceneMemoryStore.Layout(150, 4), limit))) {
        assertThat(store.ownersWithOwnPartition()).containsExactly("owner");
        Random r = new Random(3);
        for (int q = 0; q < 40; q++) {
          String text = WORDS[r.nextInt(WORDS.length)] + " " + WORDS[r.nextInt(WORDS.length)];
          Instant at = T0.plus(Duration.ofHours(r.nextInt(400)));
          CandidateQuery query =
              new CandidateQuery(
                  Eligibility.current(q % 3 == 0 ? "other" : "owner", at),
                  embedder.embedQuery(text),
                  text,
                  q % 2 == 0 ? Set.of("maya") : Set.of(),
                  q % 4 == 0 ? new TimeRange(at.minus(Duration.ofHours(100)), at, "test") : null,
                  5 + r.nextInt(30));
          AtomicInteger asked = new AtomicInteger();
          CandidateSet later =
              store.candidates(
                  query.withVector(null),
                  () -> {
                    asked.incrementAndGet();
                    return query.vector();
                  });
          assertThat(asked.get()).isPositive();
          assertThat(later.describe())
              .as("query %d", q)
              .isEqualTo(store.candidates(query).describe());
        }
      }
    }
  }

  @Test
  void parallelSignals_recallTheSame(@TempDir Path dir) {
    HashingEmbedder embedder = new HashingEmbedder();
    fill(dir, embedder, Integer.MAX_VALUE);
    try (LuceneMemoryStore store =
            settled(LuceneMemoryStore.open(dir, new LuceneMemoryStore.Layout(150, 4)));
        Mnemo sequential =
            Mnemo.builder()
                .store(store.withReadOptions(LuceneMemoryStore.ReadOptions.DEFAULT))
                .embedder(embedder)
                .clock(InstantSource.fixed(T0.plus(Duration.ofDays(30))))
                .build();
        Mnemo parallel =
            Mnemo.builder()
                .store(store.withReadOptions(LuceneMemoryStore.ReadOptions.DEFAULT))
                .embedder(embedder)
                .clock(InstantSource.fixed(T0.plus(Duration.ofDays(30))))
                .parallelSignals(true)
                .build()) {
      Random r = new Random(5);
      for (int q = 0; q < 30; q++) {
        String text =
            "what did "
                + WORDS[10 + r.nextInt(4)]
                + " say about "
                + WORDS[r.nextInt(10)]
                + (q % 3 == 0 ? " last week" : "");
        for (String owner : List.of("owner", "other")) {
          RecallResult a = sequential.recall(ask(owner, text));
          RecallResult b = parallel.recall(ask(owner, text));
          assertThat(scored(b)).as(text).isEqualTo(scored(a));
          assertThat(b.rendered()).isEqualTo(a.rendered());
        }
      }
    }
  }

  private static void fill(Path d, HashingEmbedder embedder, int limit) {
    LuceneMemoryStore store =
        LuceneMemoryStore.open(d, new LuceneMemoryStore.Layout(150, 4), limit);
    try (Mnemo m = Mnemo.builder().store(store).embedder(embedder).build()) {
      Random r = new Random(11);
      List<NewMemory> batch = new ArrayList<>();
      for (int i = 0; i < 300; i++) {
        StringBuilder text = new StringBuilder();
        for (int w = 0; w < 4; w++) text.append(WORDS[r.nextInt(WORDS.length)]).append(' ');
        batch.add(
            NewMemory.builder(i % 4 == 0 ? "other" : "owner", text + "note " + i)
                .source("s" + i)
                .recordedAt(T0.plus(Duration.ofHours(i)))
                .build());
      }
      m.rememberAll(batch);
      store.awaitMoves(); // the owner moves in the background
    }
  }

  /** The store once the moves its open scheduled are done. */
  private static LuceneMemoryStore settled(LuceneMemoryStore s) {
    s.awaitMoves();
    return s;
  }

  private static RecallRequest ask(String owner, String text) {
    return RecallRequest.builder(owner, text)
        .k(20)
        .threshold(0)
        .relativeThreshold(0)
        .minRelevance(0.0)
        .build();
  }

  private static List<String> scored(RecallResult r) {
    return r.selected().stream()
        .map(x -> x.record().id() + " " + x.score() + " " + x.relevance())
        .toList();
  }
}

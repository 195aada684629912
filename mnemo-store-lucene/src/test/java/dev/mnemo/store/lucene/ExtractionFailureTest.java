package dev.mnemo.store.lucene;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.MemoryRecord;
import dev.mnemo.Mnemo;
import dev.mnemo.NewMemory;
import dev.mnemo.StoredTurn;
import dev.mnemo.Turn;
import dev.mnemo.spi.Extractor;
import dev.mnemo.testkit.HashingEmbedder;
import dev.mnemo.write.OfflineExtractor;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the write path does when the extractor fails or returns bad candidates: turns are kept,
 * nothing is half-written.
 */
class ExtractionFailureTest {
  @TempDir Path dir;

  private Mnemo open(boolean synchronous, Extractor extractor) {
    return Mnemo.builder()
        .store(LuceneMemoryStore.open(dir.resolve("index")))
        .embedder(new HashingEmbedder())
        .synchronousIngest(synchronous)
        .extractor(extractor)
        .build();
  }

  private static Turn user(String id, String text) {
    return Turn.of("maya", id, Turn.Role.USER, "Maya", text, Instant.parse("2026-04-01T10:00:00Z"));
  }

  private static List<MemoryRecord> all(Mnemo m) {
    List<MemoryRecord> out = new ArrayList<>();
    m.export("maya", out::add);
    return out;
  }

  @Test
  void aBadExtraction_keepsTheTurnsAsErrorArtifacts_andAcceptRetriesThem() {
    AtomicInteger calls = new AtomicInteger();
    OfflineExtractor offline = new OfflineExtractor();
    Extractor flaky =
        new Extractor() {
          @Override
          public String id() {
            return "flaky";
          }

          @Override
          public List<NewMemory> extract(Batch batch) {
            if (calls.incrementAndGet() == 1) {
              throw new ExtractionException("malformed JSON after a retry", false, null);
            }
            return offline.extract(batch);
          }
        };
    try (Mnemo m = open(true, flaky)) {
      m.ingest(List.of(user("b1", "I booked the ferry to Mallorca for June")));
      assertThat(all(m)).isEmpty();
      StoredTurn t = m.maintenance().orElseThrow().turn("maya", "b1").orElseThrow();
      assertThat(t.state()).isEqualTo(StoredTurn.State.ERROR);
      assertThat(t.note()).contains("malformed JSON after a retry");
      assertThat(m.ingestProgress().errors()).isEqualTo(1);

      assertThat(m.accept("maya", "b1").records())
          .extracting(MemoryRecord::sources)
          .containsExactly(List.of("b1"));
      assertThat(m.maintenance().orElseThrow().turn("maya", "b1").orElseThrow().state())
          .isEqualTo(StoredTurn.State.EXTRACTED);
    }
  }

  @Test
  void aRetriableFailure_isRetriedInTheBackground_untilItSucceeds() {
    AtomicInteger calls = new AtomicInteger();
    OfflineExtractor offline = new OfflineExtractor();
    Extractor limited =
        new Extractor() {
          @Override
          public String id() {
            return "rate-limited";
          }

          @Override
          public List<NewMemory> extract(Batch batch) {
            if (calls.incrementAndGet() <= 2)
              throw new ExtractionException("429 too many requests", true, null);
            return offline.extract(batch);
          }
        };
    try (Mnemo m = open(false, limited)) {
      m.ingest(List.of(user("r1", "I renewed my passport at the consulate")));
      assertThat(m.awaitIngested(Duration.ofSeconds(20))).isTrue();
      assertThat(calls.get()).isEqualTo(3);
      assertThat(all(m)).extracting(MemoryRecord::sources).containsExactly(List.of("r1"));
      assertThat(m.ingestProgress().lastError()).contains("429");
    }
  }

  @Test
  void oneBadCandidate_neverDropsTheGoodOnes_andIsNotedOnItsTurn() {
    Extractor sloppy =
        new Extractor() {
          @Override
          public String id() {
            return "sloppy";
          }

          @Override
          public List<NewMemory> extract(Batch batch) {
            return List.of(
                NewMemory.builder("maya", "Maya adopted a cat named Miso").source("c1").build(),
                NewMemory.builder("maya", "Maya's cat weighs four kilos")
                    .source("c1")
                    .importance(7)
                    .build(),
                NewMemory.builder("maya", "A fact from nowhere").source("not-in-batch").build());
          }
        };
    try (Mnemo m = open(true, sloppy)) {
      m.ingest(List.of(user("c1", "We adopted a cat named Miso, she weighs four kilos")));
      assertThat(all(m))
          .extracting(MemoryRecord::text)
          .containsExactly("Maya adopted a cat named Miso");
      assertThat(m.maintenance().orElseThrow().turn("maya", "c1").orElseThrow().note())
          .contains("importance must be between 0 and 1");
    }
  }

  @Test
  void forgettingAnOwnerWhileItsTurnsAreBeingExtracted_bringsNothingBack() throws Exception {
    java.util.concurrent.CountDownLatch inside = new java.util.concurrent.CountDownLatch(1);
    java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
    OfflineExtractor offline = new OfflineExtractor();
    Extractor slow =
        new Extractor() {
          @Override
          public String id() {
            return "slow";
          }

          @Override
          public List<NewMemory> extract(Batch batch) {
            inside.countDown();
            try {
              release.await(20, java.util.concurrent.TimeUnit.SECONDS);
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
            }
            return offline.extract(batch);
          }
        };
    try (Mnemo m = open(false, slow)) {
      m.ingest(List.of(user("z1", "My bank PIN reminder is the year we met")));
      assertThat(inside.await(20, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
      m.forget("maya");
      release.countDown();
      assertThat(m.awaitIngested(Duration.ofSeconds(20))).isTrue();
      assertThat(all(m)).isEmpty();
      assertThat(m.maintenance().orElseThrow().turn("maya", "z1")).isEmpty();
    }
  }
}

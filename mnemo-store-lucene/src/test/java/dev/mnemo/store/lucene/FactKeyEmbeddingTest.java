package dev.mnemo.store.lucene;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.MemoryRecord;
import dev.mnemo.Mnemo;
import dev.mnemo.NewMemory;
import dev.mnemo.testkit.HashingEmbedder;
import dev.mnemo.testkit.MutableClock;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A record's vector is its fact key's words and its text (docs/read-path.md, "Dense"), a key the
 * write path derived included.
 */
class FactKeyEmbeddingTest {
  @TempDir Path dir;

  private Mnemo engine(HashingEmbedder embedder) {
    return Mnemo.builder()
        .store(LuceneMemoryStore.open(dir))
        .embedder(embedder)
        .clock(MutableClock.at("2026-06-01T00:00:00Z"))
        .build();
  }

  @Test
  void theVectorOfARecordWithAFactKeyIsThatOfTheKeysWordsAndItsText() {
    HashingEmbedder embedder = new HashingEmbedder();
    try (Mnemo mnemo = engine(embedder)) {
      MemoryRecord keyed =
          mnemo.remember(
              NewMemory.builder("u", "Maya rents a small flat in Porto.")
                  .factKey("home_city")
                  .build());
      MemoryRecord opaque =
          mnemo.remember(NewMemory.builder("u", "Maya drinks flat whites.").factKey("k17").build());
      MemoryRecord plain = mnemo.remember(NewMemory.builder("u", "Maya plays tennis.").build());
      List<float[]> expected =
          embedder.embedPassages(
              List.of(
                  "home city: Maya rents a small flat in Porto.",
                  "Maya drinks flat whites.",
                  "Maya plays tennis."));
      assertThat(keyed.embedding()).containsExactly(expected.get(0));
      assertThat(opaque.embedding()).containsExactly(expected.get(1));
      assertThat(plain.embedding()).containsExactly(expected.get(2));
      // The text is stored as written: the key's words are only in what is matched.
      assertThat(keyed.text()).isEqualTo("Maya rents a small flat in Porto.");
    }
  }

  @Test
  void aKeylessUpdate_embedsBothVersionsAfterTheWordsOfTheSlotTheyShare() {
    HashingEmbedder embedder = new HashingEmbedder();
    try (Mnemo mnemo = engine(embedder)) {
      MemoryRecord porto =
          mnemo.remember(
              NewMemory.builder("u", "I live in Porto.")
                  .recordedAt(java.time.Instant.parse("2026-01-05T18:00:00Z"))
                  .build());
      assertThat(porto.embedding())
          .containsExactly(embedder.embedPassages(List.of("I live in Porto.")).get(0));
      MemoryRecord lisbon =
          mnemo.remember(
              NewMemory.builder("u", "I moved to Lisbon last month.")
                  .recordedAt(java.time.Instant.parse("2026-05-04T18:00:00Z"))
                  .build());
      assertThat(lisbon.factKey()).isEqualTo("auto/" + porto.id() + "/slot:home-lives-in");
      List<float[]> expected =
          embedder.embedPassages(
              List.of(
                  "home lives in: I moved to Lisbon last month.",
                  "home lives in: I live in Porto."));
      assertThat(lisbon.embedding()).containsExactly(expected.get(0));
      // The older version took the key and the vector that goes with it: it, and the copy kept
      // for the time before the move, are matched on the attribute too.
      List<MemoryRecord> history = mnemo.history("u", lisbon.factKey());
      assertThat(history).extracting(MemoryRecord::text).contains("I live in Porto.");
      for (MemoryRecord r : history) {
        if (r.text().equals("I live in Porto."))
          assertThat(r.embedding()).as(r.id()).containsExactly(expected.get(1));
      }
      assertThat(lisbon.text()).isEqualTo("I moved to Lisbon last month.");
    }
  }

  @Test
  void aKeylessRecordMatchingAKeyedFact_isEmbeddedAfterThatKeysWords() {
    HashingEmbedder embedder = new HashingEmbedder();
    try (Mnemo mnemo = engine(embedder)) {
      mnemo.remember(
          NewMemory.builder("u", "I live in Porto.")
              .factKey("home_city")
              .recordedAt(java.time.Instant.parse("2026-01-05T18:00:00Z"))
              .build());
      MemoryRecord lisbon =
          mnemo.remember(
              NewMemory.builder("u", "I moved to Lisbon last month.")
                  .recordedAt(java.time.Instant.parse("2026-05-04T18:00:00Z"))
                  .build());
      assertThat(lisbon.factKey()).isEqualTo("home_city");
      assertThat(lisbon.embedding())
          .containsExactly(
              embedder.embedPassages(List.of("home city: I moved to Lisbon last month.")).get(0));
    }
  }
}

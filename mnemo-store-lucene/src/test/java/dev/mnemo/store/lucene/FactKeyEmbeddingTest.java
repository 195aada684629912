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

/** A record's vector is its fact key's words and its text (docs/read-path.md, "Dense"). */
class FactKeyEmbeddingTest {
  @TempDir Path dir;

  @Test
  void theVectorOfARecordWithAFactKeyIsThatOfTheKeysWordsAndItsText() {
    HashingEmbedder embedder = new HashingEmbedder();
    try (Mnemo mnemo =
        Mnemo.builder()
            .store(LuceneMemoryStore.open(dir))
            .embedder(embedder)
            .clock(MutableClock.at("2026-06-01T00:00:00Z"))
            .build()) {
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
}

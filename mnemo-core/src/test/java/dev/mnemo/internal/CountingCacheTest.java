package dev.mnemo.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.spi.Tokenizer;
import dev.mnemo.text.JTokkitTokenizer;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The tokenizer with remembered counts gives the tokenizer's counts, counting each text once. */
class CountingCacheTest {
  private static final String[] WORDS = {
    "Maya", "lives", "in", "Porto", "café", "naïve", "🙂", "2026-06-01", "  ", "tokens", "über"
  };

  /** Counts calls of the real tokenizer. */
  private static final class Calls implements Tokenizer {
    final Tokenizer real = JTokkitTokenizer.cl100k();
    final AtomicInteger counts = new AtomicInteger();

    @Override
    public String name() {
      return real.name();
    }

    @Override
    public int count(String text) {
      counts.incrementAndGet();
      return real.count(text);
    }

    @Override
    public String truncate(String text, int maxTokens) {
      return real.truncate(text, maxTokens);
    }
  }

  @Test
  void countsAreTheTokenizers_andEachTextIsCountedOnce() {
    Calls calls = new Calls();
    Tokenizer cached = CountingCache.of(calls);
    assertThat(CountingCache.of(cached)).isSameAs(cached);
    assertThat(cached.name()).isEqualTo(calls.name());
    List<String> texts = texts(200, new Random(3));
    for (int round = 0; round < 3; round++) {
      for (String t : texts) assertThat(cached.count(t)).as(t).isEqualTo(calls.real.count(t));
    }
    assertThat(calls.counts.get()).isEqualTo((int) texts.stream().distinct().count());
    assertThat(cached.count("")).isZero();
    assertThat(cached.count(null)).isZero();
    assertThat(cached.truncate("Maya lives in Porto", 2))
        .isEqualTo(calls.real.truncate("Maya lives in Porto", 2));
  }

  @Test
  void aSmallBound_keepsCountsRight_andCountsAgainWhatItDropped() {
    Calls calls = new Calls();
    Tokenizer cached = new CountingCache(calls, 200); // a few texts' worth of characters
    List<String> texts = texts(300, new Random(5));
    for (int round = 0; round < 2; round++) {
      for (String t : texts) assertThat(cached.count(t)).as(t).isEqualTo(calls.real.count(t));
    }
    long distinct = texts.stream().distinct().count();
    assertThat(calls.counts.get()).isGreaterThan((int) distinct);
  }

  private static List<String> texts(int n, Random r) {
    List<String> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      StringBuilder b = new StringBuilder();
      for (int w = 0; w < 1 + r.nextInt(12); w++)
        b.append(WORDS[r.nextInt(WORDS.length)]).append(' ');
      out.add(b.toString());
      if (i % 4 == 0) out.add(b.toString()); // repeats, as recalls repeat texts
    }
    return out;
  }
}

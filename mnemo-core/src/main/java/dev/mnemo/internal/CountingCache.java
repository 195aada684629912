package dev.mnemo.internal;

import dev.mnemo.spi.Tokenizer;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A tokenizer that remembers its counts: the read path counts the same texts on every recall (a
 * selected record's text and its line of the block, the block's header), and a BPE count costs
 * microseconds where a look-up by the string costs nanoseconds. Counts are exact: the key is the
 * whole text. Truncation is passed through.
 *
 * <p>Bounded by the characters held, in two generations: texts go into the young one; when it holds
 * half the bound it becomes the old one and the previous old one is dropped; a text found in the
 * old generation moves back into the young. So what recalls keep counting stays, the rest goes
 * within two generations. Why by hand: mnemo-core depends on JTokkit alone (every integration pulls
 * it in), and this is all the caching it needs; the store's record cache uses Caffeine.
 */
final class CountingCache implements Tokenizer {
  /** Characters of counted texts kept: 4 M (about 8 MB of strings plus entries). */
  static final long MAX_CHARS = 4L << 20;

  private final Tokenizer tokenizer;
  private final long generationChars;
  private final AtomicLong youngChars = new AtomicLong();
  private volatile Map<String, Integer> young = new ConcurrentHashMap<>();
  private volatile Map<String, Integer> old = Map.of();

  CountingCache(Tokenizer tokenizer, long maxChars) {
    this.tokenizer = tokenizer;
    this.generationChars = Math.max(1, maxChars / 2);
  }

  /** {@code tokenizer} with a cache of {@link #MAX_CHARS}, unless it already has one. */
  static Tokenizer of(Tokenizer tokenizer) {
    return tokenizer instanceof CountingCache ? tokenizer : new CountingCache(tokenizer, MAX_CHARS);
  }

  @Override
  public String name() {
    return tokenizer.name();
  }

  @Override
  public int count(String text) {
    if (text == null || text.isEmpty()) return tokenizer.count(text);
    Integer n = young.get(text);
    if (n != null) return n;
    n = old.get(text);
    if (n == null) n = tokenizer.count(text);
    remember(text, n);
    return n;
  }

  private void remember(String text, int n) {
    if (young.putIfAbsent(text, n) != null) return;
    if (youngChars.addAndGet(text.length()) < generationChars) return;
    synchronized (this) {
      if (youngChars.get() < generationChars) return; // another thread just began a generation
      old = young;
      young = new ConcurrentHashMap<>();
      youngChars.set(0);
    }
  }

  @Override
  public String truncate(String text, int maxTokens) {
    return tokenizer.truncate(text, maxTokens);
  }
}

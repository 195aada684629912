package dev.mnemo.store.lucene;

import com.github.benmanes.caffeine.cache.Cache;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.LeafReader;

/**
 * A Caffeine cache of what was read from a segment, keyed by entries that name the segment's core:
 * a segment never changes, so an entry stays true for the segment's life and is dropped when the
 * segment closes. Shared by {@link RecordCache} and {@link ScanVectors}.
 *
 * @param <K> the entries' keys
 * @param <V> the entries' values
 */
final class SegmentCache<K, V> {
  /** Makes a value; may fail with an I/O error. */
  interface Loader<V> {
    V load() throws IOException;
  }

  private final Cache<K, V> cache;
  private final java.util.function.Function<Object, Predicate<K>> ofSegment;
  private final Set<Object> watched = ConcurrentHashMap.newKeySet();

  /**
   * @param cache the cache
   * @param ofSegment for a segment's core key, which cache keys belong to it
   */
  SegmentCache(Cache<K, V> cache, java.util.function.Function<Object, Predicate<K>> ofSegment) {
    this.cache = cache;
    this.ofSegment = ofSegment;
  }

  /**
   * The value of {@code reader}'s segment under the key {@code key} gives for its core, made by
   * {@code loader} when not cached (and not cached when the reader has no core to key it by).
   */
  V get(LeafReader reader, java.util.function.Function<Object, K> key, Loader<V> loader)
      throws IOException {
    IndexReader.CacheHelper helper = reader.getCoreCacheHelper();
    if (helper == null) return loader.load();
    Object segment = helper.getKey();
    if (watched.add(segment)) {
      helper.addClosedListener(
          closed -> {
            watched.remove(closed);
            cache.asMap().keySet().removeIf(ofSegment.apply(closed));
          });
    }
    try {
      return cache.get(
          key.apply(segment),
          k -> {
            try {
              return loader.load();
            } catch (IOException e) {
              throw new UncheckedIOException(e);
            }
          });
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
  }
}

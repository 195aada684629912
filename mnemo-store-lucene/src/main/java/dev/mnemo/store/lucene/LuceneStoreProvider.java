package dev.mnemo.store.lucene;

import dev.mnemo.InvalidRequestException;
import dev.mnemo.spi.MemoryStore;
import dev.mnemo.spi.StoreProvider;
import java.nio.file.Path;
import java.util.Map;

/**
 * Provides the embedded Lucene store under the name {@code lucene}; config key {@code dir}, and
 * optionally {@code own_partition_above} (records above which an owner gets an index of their own,
 * default 5000; {@code never} keeps every owner in the shared index) and {@code
 * max_open_partitions} (default 32) and {@code partition_vectors} (how owners' own indexes store
 * the vectors of their graph: {@code float32}, the default, {@code int7} or {@code bbq}; {@link
 * VectorFormat}) and {@code write_ahead_log} ({@code true}, the default: a write is durable once
 * logged; {@code false}: once a Lucene commit holds it): {@link LuceneMemoryStore.Layout}.
 */
public final class LuceneStoreProvider implements StoreProvider {
  @Override
  public String name() {
    return "lucene";
  }

  @Override
  public MemoryStore open(Map<String, String> config) {
    String dir = config.get("dir");
    if (dir == null || dir.isBlank()) {
      throw new InvalidRequestException(
          "dir", dir, "the lucene store needs a directory (config key 'dir'), was " + dir);
    }
    LuceneMemoryStore.Layout d = LuceneMemoryStore.Layout.DEFAULT;
    String above = config.get("own_partition_above");
    long ownAbove =
        above == null
            ? d.ownPartitionAbove()
            : above.equals("never") ? Long.MAX_VALUE : number("own_partition_above", above);
    String open = config.get("max_open_partitions");
    long maxOpen = open == null ? d.maxOpenPartitions() : number("max_open_partitions", open);
    if (ownAbove < 1 || maxOpen < 1 || maxOpen > Integer.MAX_VALUE) {
      throw new InvalidRequestException(
          ownAbove < 1 ? "own_partition_above" : "max_open_partitions",
          ownAbove < 1 ? above : open,
          "must be a positive number");
    }
    String vectors = config.get("partition_vectors");
    VectorFormat format;
    try {
      format = vectors == null ? d.partitionVectors() : VectorFormat.forName(vectors);
    } catch (IllegalArgumentException e) {
      throw new InvalidRequestException("partition_vectors", vectors, e.getMessage());
    }
    String log = config.getOrDefault("write_ahead_log", "true").trim();
    if (!log.equals("true") && !log.equals("false")) {
      throw new InvalidRequestException(
          "write_ahead_log", log, "write_ahead_log must be true or false, was " + log);
    }
    return LuceneMemoryStore.open(
        Path.of(dir),
        new LuceneMemoryStore.Layout(ownAbove, (int) maxOpen, format, log.equals("true")));
  }

  private static long number(String key, String value) {
    try {
      return Long.parseLong(value.trim());
    } catch (NumberFormatException e) {
      throw new InvalidRequestException(
          key,
          value,
          key
              + " must be a whole number"
              + (key.equals("own_partition_above") ? " or 'never'" : "")
              + ", was "
              + value);
    }
  }
}

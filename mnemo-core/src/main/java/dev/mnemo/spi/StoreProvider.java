package dev.mnemo.spi;

import java.util.Map;

/**
 * Opens {@link MemoryStore}s by name; found with {@link java.util.ServiceLoader}. The embedded
 * default is {@code lucene} (config key {@code dir}).
 */
public interface StoreProvider {
  String name();

  MemoryStore open(Map<String, String> config);
}

package dev.mnemo.spi;

import dev.mnemo.InvalidRequestException;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.TreeMap;

/** Finds providers by name with {@link ServiceLoader}; an unknown name lists the available ones. */
public final class Providers {
  private Providers() {}

  /** The embedder provider called {@code name}, created with {@code config}. */
  public static Embedder embedder(String name, Map<String, String> config) {
    Map<String, EmbedderProvider> all = new TreeMap<>();
    for (EmbedderProvider p : ServiceLoader.load(EmbedderProvider.class)) {
      all.put(p.name(), p);
    }
    EmbedderProvider p = all.get(name);
    if (p == null) {
      throw new InvalidRequestException(
          "embedder", name, "embedder must be one of " + all.keySet() + ", was '" + name + "'");
    }
    return p.create(config);
  }

  /** The store provider called {@code name}, opened with {@code config}. */
  public static MemoryStore store(String name, Map<String, String> config) {
    Map<String, StoreProvider> all = new TreeMap<>();
    for (StoreProvider p : ServiceLoader.load(StoreProvider.class)) {
      all.put(p.name(), p);
    }
    StoreProvider p = all.get(name);
    if (p == null) {
      throw new InvalidRequestException(
          "store", name, "store must be one of " + all.keySet() + ", was '" + name + "'");
    }
    return p.open(config);
  }

  /** Whether an embedder provider of that name is on the class path. */
  public static boolean hasEmbedder(String name) {
    for (EmbedderProvider p : ServiceLoader.load(EmbedderProvider.class)) {
      if (p.name().equals(name)) return true;
    }
    return false;
  }
}

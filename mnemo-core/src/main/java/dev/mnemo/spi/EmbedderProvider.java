package dev.mnemo.spi;

import java.util.Map;

/**
 * Creates {@link Embedder}s by name; found with {@link java.util.ServiceLoader} (like Lucene's
 * {@code Codec.forName}). See {@link Providers#embedder(String, Map)}.
 */
public interface EmbedderProvider {
  /** The name users select it by, e.g. {@code e5-small-v2-q} or {@code openai}. */
  String name();

  /** Creates an embedder; {@code config} holds provider-specific keys (url, model, key, ...). */
  Embedder create(Map<String, String> config);
}

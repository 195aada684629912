package dev.mnemo.embed;

import dev.mnemo.spi.Embedder;
import dev.mnemo.spi.EmbedderProvider;
import dev.mnemo.spi.ProviderConfig;
import java.util.Map;

/**
 * Provides {@link E5SmallEmbedder} under the name {@code e5-small-v2-q}, Mnemo's offline default.
 *
 * <p>Config: {@code threads}, the number of worker threads for passages (default: one per available
 * processor). Other keys are ignored. Creating the provider is free; {@link #create} loads the
 * model.
 */
public final class E5SmallEmbedderProvider implements EmbedderProvider {
  @Override
  public String name() {
    return E5SmallEmbedder.MODEL_ID;
  }

  @Override
  public Embedder create(Map<String, String> config) {
    int threads =
        ProviderConfig.positiveInt(config, "threads", Runtime.getRuntime().availableProcessors());
    return new E5SmallEmbedder(threads);
  }
}

package dev.mnemo.embed.http;

import dev.mnemo.spi.Embedder;
import dev.mnemo.spi.EmbedderProvider;
import java.util.Map;

/**
 * Provides {@link OpenAiCompatibleEmbedder} under the name {@code openai}.
 *
 * <p>Config keys: {@code url} and {@code model} (required), {@code key}, {@code dimension}, {@code
 * timeout}, {@code batch}, {@code queryPrefix}, {@code passagePrefix}; see {@link
 * OpenAiCompatibleEmbedder}. Other keys are ignored. Creating the embedder makes no request.
 */
public final class OpenAiCompatibleEmbedderProvider implements EmbedderProvider {
  @Override
  public String name() {
    return "openai";
  }

  @Override
  public Embedder create(Map<String, String> config) {
    return new OpenAiCompatibleEmbedder(config);
  }
}

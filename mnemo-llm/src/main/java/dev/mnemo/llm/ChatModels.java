package dev.mnemo.llm;

import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.ollama.OllamaChatModel;
import dev.langchain4j.model.openai.OpenAiChatModel;

/**
 * Builds the configured provider's LangChain4j {@link ChatModel}, wrapped in the one retry policy
 * ({@link RetryingChatModel}). Both providers are asked for JSON replies where they support it
 * (OpenAI's {@code response_format: json_object}, Ollama's {@code format: json}); the replies are
 * checked all the same ({@link JsonChat}).
 */
public final class ChatModels {
  private ChatModels() {}

  /** The chat model {@code config} describes; no network traffic until the first call. */
  public static ChatModel create(LlmConfig config) {
    ChatModel base =
        switch (config.provider()) {
          case LlmConfig.OPENAI -> {
            OpenAiChatModel.OpenAiChatModelBuilder b =
                OpenAiChatModel.builder()
                    .modelName(config.model())
                    .apiKey(config.key() == null ? "none" : config.key())
                    .timeout(config.timeout())
                    .maxRetries(0)
                    .temperature(config.temperature())
                    .responseFormat("json_object");
            if (config.url() != null) b.baseUrl(config.url());
            yield b.build();
          }
          case LlmConfig.OLLAMA ->
              OllamaChatModel.builder()
                  .baseUrl(config.url())
                  .modelName(config.model())
                  .timeout(config.timeout())
                  .maxRetries(0)
                  .temperature(config.temperature())
                  .responseFormat(dev.langchain4j.model.chat.request.ResponseFormat.JSON)
                  .build();
          default ->
              throw new IllegalArgumentException(
                  "unknown llm provider '" + config.provider() + "'");
        };
    return new RetryingChatModel(base, config.maxRetries(), config.backoff());
  }
}

package dev.mnemo.cli;

import dev.langchain4j.model.chat.ChatModel;
import dev.mnemo.llm.ChatModels;
import dev.mnemo.llm.JsonChat;
import dev.mnemo.llm.LlmConfig;
import java.util.HashMap;
import java.util.Map;
import picocli.CommandLine.Option;

/**
 * The language-model options (a picocli mixin): which chat model the LLM extractor, consolidator
 * and the answer-level evaluation call. Each falls back to its {@code MNEMO_LLM_*} environment
 * variable; with neither a flag nor {@code $MNEMO_LLM_MODEL} no model is configured and nothing
 * calls one.
 */
public final class LlmOptions {

  @Option(
      names = "--llm-provider",
      paramLabel = "NAME",
      description =
          "Chat model provider: openai (any OpenAI-compatible /chat/completions endpoint; default) or ollama. "
              + "Default $MNEMO_LLM_PROVIDER.")
  String provider;

  @Option(
      names = "--llm-url",
      paramLabel = "URL",
      description =
          "Base URL of the model's API (default $MNEMO_LLM_URL), e.g. https://api.openai.com/v1 or, for Ollama, http://localhost:11434.")
  String url;

  @Option(
      names = "--llm-model",
      paramLabel = "MODEL",
      description = "Chat model name; configures a model. Default $MNEMO_LLM_MODEL.")
  String model;

  @Option(
      names = "--llm-key",
      paramLabel = "KEY",
      description = "API key. Prefer $MNEMO_LLM_KEY: a flag is visible in the process list.")
  String key;

  @Option(
      names = "--llm-timeout",
      paramLabel = "SECONDS",
      description = "Time-out of one call (default 60, or $MNEMO_LLM_TIMEOUT_SECONDS).")
  Integer timeoutSeconds;

  @Option(
      names = "--llm-retries",
      paramLabel = "N",
      description =
          "Retries on 429, 5xx and time-outs, with doubling back-off (default 3, or $MNEMO_LLM_RETRIES).")
  Integer retries;

  private ChatModel shared;

  /** The configured model, or null when none is. */
  public LlmConfig config() {
    Map<String, String> o = new HashMap<>();
    if (provider != null) o.put("PROVIDER", provider);
    if (url != null) o.put("URL", url);
    if (model != null) o.put("MODEL", model);
    if (key != null) o.put("KEY", key);
    if (timeoutSeconds != null) o.put("TIMEOUT_SECONDS", timeoutSeconds.toString());
    if (retries != null) o.put("RETRIES", retries.toString());
    return LlmConfig.fromEnvironment(System.getenv(), o);
  }

  /**
   * The configured model's JSON chat; an {@link IllegalArgumentException} naming {@code what} when
   * none is configured.
   */
  public synchronized JsonChat require(String what) {
    if (shared == null) {
      LlmConfig c = config();
      if (c == null) {
        throw new IllegalArgumentException(
            what
                + " needs a language model: give --llm-model (with --llm-url, and the key "
                + "in $MNEMO_LLM_KEY) or set $MNEMO_LLM_MODEL; see docs/llm.md");
      }
      shared = ChatModels.create(c);
    }
    return new JsonChat(shared);
  }
}

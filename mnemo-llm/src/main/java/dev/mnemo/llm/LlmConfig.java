package dev.mnemo.llm;

import java.time.Duration;
import java.util.Locale;
import java.util.Map;

/**
 * Which chat model to call and how patiently: provider, endpoint, model, key, time-out and retries.
 *
 * <p>Immutable. Read from the environment with {@link #fromEnvironment(Map)} ({@code
 * MNEMO_LLM_PROVIDER}, {@code MNEMO_LLM_URL}, {@code MNEMO_LLM_MODEL}, {@code MNEMO_LLM_KEY},
 * {@code MNEMO_LLM_TIMEOUT_SECONDS}, {@code MNEMO_LLM_RETRIES}); command-line options override
 * those with {@link #with}. Defaults: provider {@code openai} (any OpenAI-compatible {@code
 * /chat/completions} endpoint), time-out 60 s per call, 3 retries after the first attempt, first
 * back-off 500 ms (doubled each retry, at most 8 s), temperature 0.
 *
 * @param provider {@code openai} or {@code ollama}
 * @param url base URL ({@code https://api.openai.com/v1}, {@code http://localhost:11434}); required
 *     for ollama
 * @param model the model name; required
 * @param key API key, or null (Ollama and local servers need none)
 * @param timeout per call
 * @param maxRetries retries after the first attempt, on 429, 5xx and time-outs only
 * @param backoff the first retry's wait; doubled on each further retry
 * @param temperature sampling temperature (0 for repeatable extraction and judging)
 */
public record LlmConfig(
    String provider,
    String url,
    String model,
    String key,
    Duration timeout,
    int maxRetries,
    Duration backoff,
    double temperature) {

  public static final String OPENAI = "openai";
  public static final String OLLAMA = "ollama";

  public LlmConfig {
    provider =
        provider == null || provider.isBlank() ? OPENAI : provider.trim().toLowerCase(Locale.ROOT);
    if (!provider.equals(OPENAI) && !provider.equals(OLLAMA)) {
      throw new IllegalArgumentException(
          "llm provider must be one of [openai, ollama], was '" + provider + "'");
    }
    if (model == null || model.isBlank()) {
      throw new IllegalArgumentException("llm model is required (--llm-model or $MNEMO_LLM_MODEL)");
    }
    if (provider.equals(OLLAMA) && (url == null || url.isBlank())) {
      throw new IllegalArgumentException(
          "llm url is required for ollama (--llm-url, e.g. http://localhost:11434)");
    }
    if (url != null
        && !url.isBlank()
        && !url.startsWith("http://")
        && !url.startsWith("https://")) {
      throw new IllegalArgumentException(
          "llm url must start with http:// or https://, was '" + url + "'");
    }
    timeout = timeout == null ? Duration.ofSeconds(60) : timeout;
    if (timeout.isNegative() || timeout.isZero())
      throw new IllegalArgumentException("llm timeout must be > 0, was " + timeout);
    if (maxRetries < 0)
      throw new IllegalArgumentException("llm retries must be >= 0, was " + maxRetries);
    backoff = backoff == null ? Duration.ofMillis(500) : backoff;
    if (backoff.isNegative())
      throw new IllegalArgumentException("llm backoff must be >= 0, was " + backoff);
    if (!(temperature >= 0 && temperature <= 2)) {
      throw new IllegalArgumentException("llm temperature must be in [0, 2], was " + temperature);
    }
  }

  /** A configuration with the defaults for everything but provider, url, model and key. */
  public static LlmConfig of(String provider, String url, String model, String key) {
    return new LlmConfig(provider, url, model, key, null, 3, null, 0.0);
  }

  /**
   * The configuration the environment describes, with {@code overrides} (command-line options; null
   * entries ignored) taking precedence; null when no model is named by either (no model
   * configured). A malformed number is an {@link IllegalArgumentException} naming the variable.
   *
   * @param overrides by variable name without the prefix: {@code PROVIDER}, {@code URL}, {@code
   *     MODEL}, {@code KEY}, {@code TIMEOUT_SECONDS}, {@code RETRIES}
   */
  public static LlmConfig fromEnvironment(Map<String, String> env, Map<String, String> overrides) {
    java.util.function.Function<String, String> get =
        name -> {
          String o = overrides.get(name);
          return o != null ? o : env.get("MNEMO_LLM_" + name);
        };
    String model = get.apply("MODEL");
    if (model == null || model.isBlank()) return null;
    Duration timeout = seconds("MNEMO_LLM_TIMEOUT_SECONDS", get.apply("TIMEOUT_SECONDS"));
    Integer retries = integer("MNEMO_LLM_RETRIES", get.apply("RETRIES"));
    return new LlmConfig(
        get.apply("PROVIDER"),
        get.apply("URL"),
        model,
        get.apply("KEY"),
        timeout,
        retries == null ? 3 : retries,
        null,
        0.0);
  }

  /** This configuration with another back-off (tests use zero). */
  public LlmConfig withBackoff(Duration v) {
    return new LlmConfig(provider, url, model, key, timeout, maxRetries, v, temperature);
  }

  static Duration seconds(String name, String v) {
    Integer n = integer(name, v);
    return n == null ? null : Duration.ofSeconds(n);
  }

  static Integer integer(String name, String v) {
    if (v == null || v.isBlank()) return null;
    try {
      return Integer.valueOf(v.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(name + " must be a whole number, was '" + v + "'");
    }
  }

  /** Never shows the key. */
  @Override
  public String toString() {
    return "LlmConfig[provider="
        + provider
        + ", url="
        + url
        + ", model="
        + model
        + ", key="
        + (key == null ? "none" : "***")
        + ", timeout="
        + timeout
        + ", maxRetries="
        + maxRetries
        + "]";
  }
}

package dev.mnemo.llm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LlmConfigTest {

  @Test
  void fromEnvironment_withoutAModel_isNoModel() {
    assertThat(LlmConfig.fromEnvironment(Map.of("MNEMO_LLM_URL", "http://x"), Map.of())).isNull();
  }

  @Test
  void fromEnvironment_readsEveryVariable_andOptionsWin() {
    Map<String, String> env =
        Map.of(
            "MNEMO_LLM_PROVIDER",
            "ollama",
            "MNEMO_LLM_URL",
            "http://127.0.0.1:11434",
            "MNEMO_LLM_MODEL",
            "qwen2.5:7b",
            "MNEMO_LLM_TIMEOUT_SECONDS",
            "20",
            "MNEMO_LLM_RETRIES",
            "1");
    Map<String, String> options = new HashMap<>();
    options.put("MODEL", "llama3.1:8b");
    LlmConfig c = LlmConfig.fromEnvironment(env, options);
    assertThat(c.provider()).isEqualTo("ollama");
    assertThat(c.model()).isEqualTo("llama3.1:8b");
    assertThat(c.timeout()).isEqualTo(Duration.ofSeconds(20));
    assertThat(c.maxRetries()).isEqualTo(1);
    assertThat(c.temperature()).isZero();
  }

  @Test
  void badValues_areRefusedNamingTheSetting() {
    assertThatThrownBy(() -> LlmConfig.of("anthropic", null, "m", null))
        .hasMessageContaining("[openai, ollama]")
        .hasMessageContaining("anthropic");
    assertThatThrownBy(() -> LlmConfig.of("ollama", null, "m", null))
        .hasMessageContaining("url is required for ollama");
    assertThatThrownBy(() -> LlmConfig.of("openai", "localhost:8080", "m", null))
        .hasMessageContaining("http://");
    assertThatThrownBy(
            () ->
                LlmConfig.fromEnvironment(
                    Map.of("MNEMO_LLM_MODEL", "m", "MNEMO_LLM_RETRIES", "many"), Map.of()))
        .hasMessageContaining("MNEMO_LLM_RETRIES")
        .hasMessageContaining("many");
  }

  @Test
  void toString_neverShowsTheKey() {
    assertThat(LlmConfig.of("openai", null, "gpt-4o-mini", "sk-secret").toString())
        .doesNotContain("sk-secret")
        .contains("***");
  }
}

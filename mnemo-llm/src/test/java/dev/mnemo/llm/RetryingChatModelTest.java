package dev.mnemo.llm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mnemo.testkit.ScriptedChatModel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class RetryingChatModelTest {
  private final List<Duration> waits = new ArrayList<>();

  private RetryingChatModel retrying(ScriptedChatModel m, int retries) {
    return new RetryingChatModel(m, retries, Duration.ofMillis(500), waits::add);
  }

  @Test
  void rateLimitsServerErrorsAndTimeouts_areRetriedWithDoublingBackoff() {
    ScriptedChatModel m =
        new ScriptedChatModel().rateLimited().httpError(503).timeout().reply("ok");
    assertThat(retrying(m, 3).chat("hi")).isEqualTo("ok");
    assertThat(m.calls()).hasSize(4);
    assertThat(waits)
        .containsExactly(Duration.ofMillis(500), Duration.ofMillis(1000), Duration.ofMillis(2000));
  }

  @Test
  void stillFailingAfterTheLastRetry_isARetriableLlmException() {
    ScriptedChatModel m = new ScriptedChatModel().timeout().timeout().timeout();
    assertThatThrownBy(() -> retrying(m, 2).chat("hi"))
        .isInstanceOfSatisfying(LlmException.class, e -> assertThat(e.retriable()).isTrue())
        .hasMessageContaining("after 3 attempts");
    assertThat(waits).hasSize(2);
  }

  @Test
  void clientErrors_areNotRetried() {
    ScriptedChatModel m = new ScriptedChatModel().httpError(400).reply("never");
    assertThatThrownBy(() -> retrying(m, 3).chat("hi"))
        .isInstanceOfSatisfying(LlmException.class, e -> assertThat(e.retriable()).isFalse())
        .hasMessageContaining("not retried");
    assertThat(m.calls()).hasSize(1);
    assertThat(waits).isEmpty();
  }

  @Test
  void backoff_isCappedAtEightSeconds() {
    RetryingChatModel r = retrying(new ScriptedChatModel(), 10);
    assertThat(r.backoffBefore(1)).isEqualTo(Duration.ofMillis(500));
    assertThat(r.backoffBefore(5)).isEqualTo(Duration.ofSeconds(8));
    assertThat(r.backoffBefore(30)).isEqualTo(Duration.ofSeconds(8));
  }
}

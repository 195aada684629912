package dev.mnemo.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.mnemo.Category;
import dev.mnemo.Fusion;
import dev.mnemo.InvalidRequestException;
import dev.mnemo.Packing;
import dev.mnemo.RecallRequest;
import dev.mnemo.TemporalMode;
import dev.mnemo.Weights;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class RequestJsonTest {
  private static JsonNode json(String s) throws Exception {
    return JsonCodec.READER.readTree(s);
  }

  @Test
  void request_readsEveryOption() throws Exception {
    RecallRequest r =
        RequestJson.read(
            json(
                """
        {"owner":"u","text":"editor?","mode":"valid_at","at":"2026-04-15","k":3,"budget_tokens":60,
         "threshold":0.2,"fusion":"rrf","packing":"coverage","explain":true,"weights":{"dense":2,"recency":0}}"""),
            "");
    assertThat(r.mode()).isEqualTo(TemporalMode.validAt(Instant.parse("2026-04-15T00:00:00Z")));
    assertThat(r.k()).isEqualTo(3);
    assertThat(r.budgetTokens()).isEqualTo(60);
    assertThat(r.fusion()).isEqualTo(Fusion.rrf());
    assertThat(r.packing()).isEqualTo(Packing.COVERAGE);
    assertThat(r.weights().dense()).isEqualTo(2.0);
    assertThat(r.weights().recency()).isZero();
    assertThat(r.explain()).isTrue();
  }

  @Test
  void request_badValues_nameTheField() {
    assertThatThrownBy(() -> RequestJson.read(json("{\"owner\":\"u\",\"text\":\"q\",\"k\":0}"), ""))
        .hasMessage("k must be between 1 and 1000, was 0");
    assertThatThrownBy(
            () ->
                RequestJson.read(
                    json("{\"owner\":\"u\",\"text\":\"q\",\"mode\":\"known_at\"}"), ""))
        .hasMessage("at is required with mode known_at, was null");
    assertThatThrownBy(
            () ->
                RequestJson.read(
                    json("{\"owner\":\"u\",\"text\":\"q\",\"weights\":{\"vibes\":1}}"), ""))
        .hasMessageContaining("unknown field weights.vibes");
  }

  @Test
  void request_isStrictAboutTypes_andReadsHalfLives() throws Exception {
    assertThatThrownBy(
            () -> RequestJson.read(json("{\"owner\":\"u\",\"text\":\"q\",\"k\":2.5}"), ""))
        .hasMessage("k must be a whole number, was 2.5");
    assertThatThrownBy(
            () ->
                RequestJson.read(json("{\"owner\":\"u\",\"text\":\"q\",\"explain\":\"yes\"}"), ""))
        .hasMessage("explain must be true or false, was \"yes\"");
    RecallRequest r =
        RequestJson.read(
            json(
                "{\"owner\":\"u\",\"text\":\"q\",\"half_lives\":{\"episodic\":7,\"task\":\"P2D\"}}"),
            "");
    assertThat(r.halfLives().get(Category.EPISODIC)).isEqualTo(java.time.Duration.ofDays(7));
    assertThat(r.halfLives().get(Category.TASK)).isEqualTo(java.time.Duration.ofDays(2));
    assertThat(r.halfLives().get(Category.SEMANTIC)).isEqualTo(java.time.Duration.ofDays(365));
  }

  @Test
  void request_unknownFieldsAndNestedFocus_areNamedWithTheirPath() {
    assertThatThrownBy(
            () ->
                RequestJson.read(
                    json(
                        """
        {"owner":"u","text":"q","colour":"red","focus":{"task":1,"mood":"x"},"log":"no"}"""),
                    "calls[1]."))
        .isInstanceOfSatisfying(
            InvalidRequestException.class,
            e ->
                assertThat(e.violations())
                    .extracting(InvalidRequestException.Violation::field)
                    .containsExactlyInAnyOrder(
                        "calls[1].colour",
                        "calls[1].focus.task",
                        "calls[1].focus.mood",
                        "calls[1].log"))
        .hasMessageContaining("calls[1].log must be true or false, was \"no\"");
  }

  @Test
  void request_focusLogAndUsageNote_areRead() throws Exception {
    RecallRequest r =
        RequestJson.read(
            json(
                """
        {"owner":"u","query":"q","focus":{"task":"deploy","entities":["api"]},"log":false,"usage_note":true}"""),
            "");
    assertThat(r.focus().task()).isEqualTo("deploy");
    assertThat(r.focus().entities()).containsExactly("api");
    assertThat(r.log()).isFalse();
    assertThat(r.usageNote()).isEqualTo(RecallRequest.USAGE_NOTE);
  }

  @Test
  void weights_writtenAreReadBack() {
    Weights w = Weights.DEFAULT.withDense(0.7).withBm25Scale(3);
    assertThat(RequestJson.weights(RequestJson.weights(w), "weights.")).isEqualTo(w);
  }
}

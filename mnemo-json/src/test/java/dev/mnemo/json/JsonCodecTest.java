package dev.mnemo.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.mnemo.Category;
import dev.mnemo.Fusion;
import dev.mnemo.InvalidRequestException;
import dev.mnemo.NewMemory;
import dev.mnemo.Packing;
import dev.mnemo.RecallRequest;
import dev.mnemo.TemporalMode;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class JsonCodecTest {
  private static JsonNode json(String s) throws Exception {
    return JsonCodec.MAPPER.readTree(s);
  }

  @Test
  void memory_scenarioWriteFields_mapOntoNewMemory() throws Exception {
    NewMemory m = JsonCodec.memory(json("""
        {"id":"e2","owner":"u-maya","recorded_at":"2026-06-02T09:00:00Z","text":"Maya switched to Emacs.",
         "fact_key":"editor","valid_from":"2026-06-01","importance":0.6,"category":"episodic","scope":"work",
         "metadata":{"lang":"en"}}"""), "");
    assertThat(m.sources()).containsExactly("e2");
    assertThat(m.validFrom()).isEqualTo(Instant.parse("2026-06-01T00:00:00Z"));
    assertThat(m.recordedAt()).isEqualTo(Instant.parse("2026-06-02T09:00:00Z"));
    assertThat(m.category()).isEqualTo(Category.EPISODIC);
    assertThat(m.importance()).isEqualTo(0.6);
    assertThat(m.metadata()).containsEntry("lang", "en");
  }

  @Test
  void memory_everyBadFieldIsReportedWithItsPath() {
    assertThatThrownBy(() -> JsonCodec.memory(json("""
        {"owner":"u","text":42,"valid_from":"yesterday","category":"gossip","colour":"red"}"""), "memories[3]."))
        .isInstanceOfSatisfying(InvalidRequestException.class, e -> assertThat(e.violations())
            .extracting(InvalidRequestException.Violation::field)
            .containsExactlyInAnyOrder("memories[3].colour", "memories[3].text", "memories[3].valid_from",
                "memories[3].category"))
        .hasMessageContaining("memories[3].text must be a string, was 42")
        .hasMessageContaining("memories[3].valid_from must be an ISO-8601 date");
  }

  @Test
  void request_readsEveryOption() throws Exception {
    RecallRequest r = JsonCodec.request(json("""
        {"owner":"u","text":"editor?","mode":"valid_at","at":"2026-04-15","k":3,"budget_tokens":60,
         "threshold":0.2,"fusion":"rrf","packing":"coverage","explain":true,"weights":{"dense":2,"recency":0}}"""), "");
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
    assertThatThrownBy(() -> JsonCodec.request(json("{\"owner\":\"u\",\"text\":\"q\",\"k\":0}"), ""))
        .hasMessage("k must be between 1 and 1000, was 0");
    assertThatThrownBy(() -> JsonCodec.request(json("{\"owner\":\"u\",\"text\":\"q\",\"mode\":\"known_at\"}"), ""))
        .hasMessage("at is required with mode known_at, was null");
    assertThatThrownBy(() -> JsonCodec.request(json("{\"owner\":\"u\",\"text\":\"q\",\"weights\":{\"vibes\":1}}"), ""))
        .hasMessageContaining("unknown field weights.vibes");
  }

  @Test
  void request_isStrictAboutTypes_andReadsHalfLives() throws Exception {
    assertThatThrownBy(() -> JsonCodec.request(json("{\"owner\":\"u\",\"text\":\"q\",\"k\":2.5}"), ""))
        .hasMessage("k must be a whole number, was 2.5");
    assertThatThrownBy(() -> JsonCodec.request(json("{\"owner\":\"u\",\"text\":\"q\",\"explain\":\"yes\"}"), ""))
        .hasMessage("explain must be true or false, was \"yes\"");
    RecallRequest r = JsonCodec.request(json("{\"owner\":\"u\",\"text\":\"q\",\"half_lives\":{\"episodic\":7,\"task\":\"P2D\"}}"), "");
    assertThat(r.halfLives().get(Category.EPISODIC)).isEqualTo(java.time.Duration.ofDays(7));
    assertThat(r.halfLives().get(Category.TASK)).isEqualTo(java.time.Duration.ofDays(2));
    assertThat(r.halfLives().get(Category.SEMANTIC)).isEqualTo(java.time.Duration.ofDays(365));
  }
}

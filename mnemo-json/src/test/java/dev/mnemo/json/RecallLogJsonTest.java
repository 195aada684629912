package dev.mnemo.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mnemo.LoggedRecall;
import dev.mnemo.RecallRequest;
import dev.mnemo.RecallTrace;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RecallLogJsonTest {

  @Test
  void without_removesEveryMentionOfTheForgottenRecords_andKeepsFieldsItDoesNotKnow()
      throws Exception {
    JsonNode entry =
        JsonCodec.READER.readTree(
            """
        {"id": "e1", "selected": ["a", "b"], "used": ["b"], "future_field": {"x": 1},
         "trace": {"gate": {"fetch": "retrieve"}, "candidates": [
           {"id": "a", "text": "secret a", "reason": "selected", "conflicts_with": ["b"], "relevance": {"p": 0.9}},
           {"id": "b", "text": "secret b", "reason": "conflicts with selected a (same fact key 'k')"},
           {"id": "c", "text": "other", "reason": "relevance 0.01 < threshold 0.06"}]}}
        """);
    JsonNode out = RecallLogJson.without(entry, List.of("a"));
    assertThat(out.toString()).doesNotContain("secret a").doesNotContain("\"a\"");
    assertThat(out.get("selected").toString()).isEqualTo("[\"b\"]");
    assertThat(out.get("used").toString()).isEqualTo("[\"b\"]");
    assertThat(out.get("trace").get("candidates")).hasSize(2);
    assertThat(out.get("trace").get("candidates").get(0).get("reason").asText())
        .isEqualTo("conflicts with selected (forgotten) (same fact key 'k')");
    assertThat(out.get("future_field").get("x").asInt()).isEqualTo(1);
    assertThat(out.get("trace").get("gate").get("fetch").asText()).isEqualTo("retrieve");
    assertThat(entry.get("selected")).as("the input is left as it was").hasSize(2);
  }

  @Test
  void entry_writtenIsReadBackEqual_ignoringNewFields_andNamesWhatItCannotRead() {
    RecallTrace trace = WireRoundTripTest.result().trace();
    RecallRequest request =
        RecallRequest.builder("maya", "Which editor in March?")
            .askedAt(WireRoundTripTest.T0)
            .build();
    LoggedRecall e =
        new LoggedRecall(
            "log-1",
            WireRoundTripTest.T0,
            request,
            trace,
            List.of("r1"),
            9,
            Map.of("tokenizer", "cl100k_base"),
            "s-3",
            Map.of("other_owner", 2L),
            List.of("r1"));
    ObjectNode wire = RecallLogJson.entry(e);
    wire.put("added_later", true);
    assertThat(RecallLogJson.entry(wire)).isEqualTo(e);
    wire.remove("logged_at");
    wire.put("rendered_tokens", "nine");
    assertThatThrownBy(() -> RecallLogJson.entry(wire))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("unreadable logged recall: ")
        .hasMessageContaining("logged_at is required")
        .hasMessageContaining("rendered_tokens must be a whole number, was \"nine\"");
  }
}

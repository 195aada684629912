package dev.mnemo.json;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import org.junit.jupiter.api.Test;

class RecallLogJsonTest {

  @Test
  void without_removesEveryMentionOfTheForgottenRecords_andKeepsFieldsItDoesNotKnow() throws Exception {
    JsonNode entry = JsonCodec.READER.readTree("""
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
}

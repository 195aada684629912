package dev.mnemo.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.mnemo.Category;
import dev.mnemo.InvalidRequestException;
import dev.mnemo.NewMemory;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class MemoryJsonTest {
  private static JsonNode json(String s) throws Exception {
    return JsonCodec.READER.readTree(s);
  }

  @Test
  void memory_scenarioWriteFields_mapOntoNewMemory() throws Exception {
    NewMemory m =
        MemoryJson.read(
            json(
                """
        {"id":"e2","owner":"u-maya","recorded_at":"2026-06-02T09:00:00Z","text":"Maya switched to Emacs.",
         "fact_key":"editor","valid_from":"2026-06-01","importance":0.6,"category":"episodic","scope":"work",
         "metadata":{"lang":"en"}}"""),
            "");
    assertThat(m.sources()).containsExactly("e2");
    assertThat(m.validFrom()).isEqualTo(Instant.parse("2026-06-01T00:00:00Z"));
    assertThat(m.recordedAt()).isEqualTo(Instant.parse("2026-06-02T09:00:00Z"));
    assertThat(m.category()).isEqualTo(Category.EPISODIC);
    assertThat(m.importance()).isEqualTo(0.6);
    assertThat(m.metadata()).containsEntry("lang", "en");
  }

  @Test
  void memory_everyBadFieldIsReportedWithItsPath() {
    assertThatThrownBy(
            () ->
                MemoryJson.read(
                    json(
                        """
        {"owner":"u","text":42,"valid_from":"yesterday","category":"gossip","colour":"red"}"""),
                    "memories[3]."))
        .isInstanceOfSatisfying(
            InvalidRequestException.class,
            e ->
                assertThat(e.violations())
                    .extracting(InvalidRequestException.Violation::field)
                    .containsExactlyInAnyOrder(
                        "memories[3].colour",
                        "memories[3].text",
                        "memories[3].valid_from",
                        "memories[3].category"))
        .hasMessageContaining("memories[3].text must be a string, was 42")
        .hasMessageContaining("memories[3].valid_from must be an ISO-8601 date");
  }
}

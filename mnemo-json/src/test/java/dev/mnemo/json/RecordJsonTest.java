package dev.mnemo.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mnemo.Authority;
import dev.mnemo.Category;
import dev.mnemo.ConflictPolicy;
import dev.mnemo.InvalidRequestException;
import dev.mnemo.InvalidRequestException.Violation;
import dev.mnemo.MemoryRecord;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * One reader of a stored record, one set of defaults; strict for a caller's file, tolerant of new
 * fields in an answer.
 */
class RecordJsonTest {
  static final Instant T0 = Instant.parse("2026-03-01T10:00:00Z");

  private static JsonNode json(String s) throws Exception {
    return JsonCodec.READER.readTree(s);
  }

  private static final List<Function<JsonNode, MemoryRecord>> BOTH =
      List.of(n -> RecordJson.readInput(n, ""), RecordJson::readAnswer);

  @Test
  void aRecordWritten_isReadBackEqual_byEitherSide() {
    MemoryRecord full = WireRoundTripTest.record("r1", new float[] {0.1f, -0.25f, 1e-7f});
    MemoryRecord bare =
        new MemoryRecord(
            "r2",
            "maya",
            null,
            Category.EPISODIC,
            "hi",
            null,
            List.of(),
            null,
            -1,
            T0,
            null,
            T0,
            null,
            null,
            0,
            null,
            0.0,
            Authority.DERIVED,
            ConflictPolicy.values()[ConflictPolicy.values().length - 1],
            List.of(),
            0,
            null,
            null,
            null,
            Map.of(),
            List.of());
    for (var read : BOTH) {
      assertThat(read.apply(RecordJson.write(full, true))).isEqualTo(full);
      assertThat(read.apply(RecordJson.write(bare, false))).isEqualTo(bare);
      // without its vector on the wire, the record keeps the model's name and no vector
      MemoryRecord noVector = read.apply(RecordJson.write(full, false));
      assertThat(noVector.embedding()).isNull();
      assertThat(noVector.embeddingModel()).isEqualTo("hash-8");
    }
  }

  @Test
  void aRecordWrittenByHand_getsTheDefaultsOfANewMemory_onEitherSide() throws Exception {
    JsonNode hand =
        json(
            """
        {"id":"r1","owner":"maya","text":"Maya uses Emacs.","category":"semantic",
         "recorded_at":"2026-03-01T10:00:00Z","valid_from":"2026-03-01"}""");
    for (var read : BOTH) {
      MemoryRecord r = read.apply(hand);
      assertThat(r.importance()).isEqualTo(RecordJson.DEFAULT_IMPORTANCE).isEqualTo(0.5);
      assertThat(r.authority()).isEqualTo(Authority.EXPLICIT);
      assertThat(r.conflictPolicy()).isEqualTo(ConflictPolicy.SUPERSEDE);
      assertThat(r.version()).isZero();
      assertThat(r.seq()).isEqualTo(-1);
      assertThat(r.accessCount()).isZero();
      assertThat(r.validFrom()).isEqualTo(Instant.parse("2026-03-01T00:00:00Z"));
      assertThat(r.sources()).isEmpty();
    }
  }

  @Test
  void input_refusesUnknownFields_andNamesEveryProblemWithItsPath() throws Exception {
    ObjectNode o = RecordJson.write(WireRoundTripTest.record("r1", null), false);
    o.put("improtance", 0.9);
    o.remove("text");
    o.remove("category");
    o.put("recorded_at", "yesterday");
    o.put("version", "2");
    assertThatThrownBy(() -> RecordJson.readInput(o, "export.jsonl:3: "))
        .isInstanceOfSatisfying(
            InvalidRequestException.class,
            e ->
                assertThat(e.violations())
                    .extracting(Violation::field)
                    .containsExactlyInAnyOrder(
                        "export.jsonl:3: improtance",
                        "export.jsonl:3: text",
                        "export.jsonl:3: category",
                        "export.jsonl:3: recorded_at",
                        "export.jsonl:3: version"))
        .hasMessageContaining("unknown field export.jsonl:3: improtance")
        .hasMessageContaining("export.jsonl:3: text is required")
        .hasMessageContaining("export.jsonl:3: version must be a whole number, was \"2\"");
  }

  @Test
  void answer_ignoresFieldsANewerServerAdds_butNotBadOnes() {
    ObjectNode o = RecordJson.write(WireRoundTripTest.record("r1", null), false);
    o.put("added_by_a_newer_server", true);
    assertThat(RecordJson.readAnswer(o).id()).isEqualTo("r1");
    o.remove("text");
    o.put("importance", "high");
    assertThatThrownBy(() -> RecordJson.readAnswer(o))
        .isInstanceOf(IllegalArgumentException.class)
        .isNotInstanceOf(InvalidRequestException.class)
        .hasMessageStartingWith("unreadable record: ")
        .hasMessageContaining("record.text is required")
        .hasMessageContaining("record.importance must be a number, was \"high\"");
    assertThatThrownBy(() -> RecordJson.readAnswer(json("[]")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("record must be a JSON object, was []");
  }

  @Test
  void anEventTime_isWrittenOnlyWhenThereIsOne_readBackEqual_andABadOneIsNamed() {
    MemoryRecord plain = WireRoundTripTest.record("r1", null);
    assertThat(RecordJson.write(plain, false).has("event_time")).isFalse();
    MemoryRecord dated =
        plain.withEventTime(
            new dev.mnemo.EventTime(
                Instant.parse("2024-01-01T00:00:00Z"),
                Instant.parse("2025-01-01T00:00:00Z"),
                "in 2024"));
    ObjectNode o = RecordJson.write(dated, false);
    assertThat(o.path("event_time").path("phrase").asText()).isEqualTo("in 2024");
    assertThat(o.path("event_time").path("from").asText()).isEqualTo("2024-01-01T00:00:00Z");
    for (var read : BOTH) assertThat(read.apply(o)).isEqualTo(dated);
    ObjectNode bad = RecordJson.write(dated, false);
    ((ObjectNode) bad.get("event_time")).put("to", "2023-01-01T00:00:00Z");
    ((ObjectNode) bad.get("event_time")).remove("phrase");
    assertThatThrownBy(() -> RecordJson.readInput(bad, "f:1: "))
        .isInstanceOfSatisfying(
            InvalidRequestException.class,
            e ->
                assertThat(e.violations())
                    .extracting(Violation::field)
                    .containsExactly("f:1: event_time.phrase"));
    ((ObjectNode) bad.get("event_time")).put("phrase", "in 2024");
    assertThatThrownBy(() -> RecordJson.readInput(bad, "f:1: "))
        .isInstanceOf(InvalidRequestException.class)
        .hasMessageContaining("event_time.to")
        .hasMessageContaining("must be after from");
  }

  @Test
  void blankRequiredText_isRefused() throws Exception {
    assertThatThrownBy(
            () ->
                RecordJson.readInput(
                    json(
                        """
        {"id":" ","owner":"maya","text":"x","category":"semantic","recorded_at":"2026-03-01","valid_from":"2026-03-01"}"""),
                    ""))
        .hasMessage("id must not be blank");
  }
}

package dev.mnemo.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.mnemo.InvalidRequestException;
import dev.mnemo.InvalidRequestException.Violation;
import dev.mnemo.StoredTurn;
import dev.mnemo.Turn;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TurnJsonTest {
  private static final Turn TURN =
      new Turn(
          "t1",
          "maya",
          "chat-1",
          Turn.Role.ASSISTANT,
          "bot",
          "Noted.",
          Instant.parse("2026-03-01T10:00:00Z"),
          "t1-x",
          2,
          Turn.Status.PARTIAL,
          Map.of("lang", "en"));

  private static JsonNode json(String s) throws Exception {
    return JsonCodec.READER.readTree(s);
  }

  @Test
  void aTurnWritten_isReadBackEqual() {
    assertThat(TurnJson.read(TurnJson.write(TURN), "")).isEqualTo(TURN);
  }

  @Test
  void aMinimalTurn_getsItsDefaults() throws Exception {
    Turn t = TurnJson.read(json("{\"id\":\"t1\",\"owner\":\"maya\",\"text\":\"hi\"}"), "");
    assertThat(t.role()).isEqualTo(Turn.Role.USER);
    assertThat(t.status()).isEqualTo(Turn.Status.COMPLETE);
    assertThat(t.attempt()).isEqualTo(1);
    assertThat(t.turnId()).isEqualTo("t1");
  }

  @Test
  void everyProblemOfATurn_isNamedAtOnce() throws Exception {
    assertThatThrownBy(
            () ->
                TurnJson.read(
                    json(
                        """
        {"owner":"  ","text":5,"role":"robot","attempt":0,"mood":"x"}"""),
                    "turns[4]."))
        .isInstanceOfSatisfying(
            InvalidRequestException.class,
            e ->
                assertThat(e.violations())
                    .extracting(Violation::field)
                    .containsExactlyInAnyOrder(
                        "turns[4].mood",
                        "turns[4].role",
                        "turns[4].id",
                        "turns[4].owner",
                        "turns[4].text",
                        "turns[4].attempt"))
        .hasMessageContaining("turns[4].id is required")
        .hasMessageContaining("turns[4].owner must not be blank")
        .hasMessageContaining("turns[4].text must be a string, was 5")
        .hasMessageContaining("turns[4].attempt must be >= 1, was 0");
  }

  @Test
  void aStoredTurn_keepsItsStateAndNote_butNotItsSeq() {
    StoredTurn stored = new StoredTurn(TURN, StoredTurn.State.ERROR, 42, "extractor timed out");
    StoredTurn back = TurnJson.readStored(TurnJson.writeStored(stored), "");
    assertThat(back)
        .isEqualTo(new StoredTurn(TURN, StoredTurn.State.ERROR, 0, "extractor timed out"));
  }

  @Test
  void aStoredTurn_isStrictToo() throws Exception {
    assertThatThrownBy(
            () ->
                TurnJson.readStored(
                    json(
                        """
        {"id":"t1","owner":"maya","text":"hi","state":"lost","colour":1}"""),
                    "turns.jsonl:2: "))
        .isInstanceOfSatisfying(
            InvalidRequestException.class,
            e ->
                assertThat(e.violations())
                    .extracting(Violation::field)
                    .containsExactlyInAnyOrder("turns.jsonl:2: state", "turns.jsonl:2: colour"));
    assertThat(
            TurnJson.readStored(json("{\"id\":\"t1\",\"owner\":\"maya\",\"text\":\"hi\"}"), "")
                .state())
        .isEqualTo(StoredTurn.State.PENDING);
  }
}

package dev.mnemo.eval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mnemo.json.JsonCodec;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LongMemEvalLoaderTest {

  static final Path TINY = Path.of("src/test/resources/longmemeval/tiny.json");

  @Test
  void load_readsQuestionsHaystacksAndEvidence() {
    List<LongMemEvalQuestion> qs = LongMemEvalLoader.load(TINY);
    assertThat(qs)
        .extracting(LongMemEvalQuestion::id)
        .containsExactly("q-user-1", "q-assistant-1", "q-multi-1_abs");
    LongMemEvalQuestion q = qs.get(0);
    assertThat(q.type()).isEqualTo("single-session-user");
    assertThat(q.askedAt()).isEqualTo(Instant.parse("2024-06-10T09:00:00Z"));
    assertThat(q.sessions())
        .extracting(LongMemEvalQuestion.Session::id)
        .containsExactly("s-weather", "s-puppy", "s-recipes");
    assertThat(q.sessions().get(1).at())
        .isEqualTo(Instant.parse("2024-06-10T18:30:00Z")); // later than the question
    assertThat(q.turnCount()).isEqualTo(8);
    assertThat(q.evidenceTurnIds()).containsExactly("s-puppy:0");
    assertThat(q.answerSessionIds()).containsExactly("s-puppy");
    assertThat(q.abstention()).isFalse();
    assertThat(qs.get(2).abstention()).isTrue();
    assertThat(qs.get(1).evidenceTurnIds()).containsExactly("s-stars:1"); // an assistant turn
  }

  @Test
  void load_keepsARepeatedSession_underItsOwnKey() {
    LongMemEvalQuestion q = LongMemEvalLoader.load(TINY).get(1);
    assertThat(q.sessions())
        .extracting(LongMemEvalQuestion.Session::id)
        .containsExactly("s-garden", "s-stars", "s-garden");
    assertThat(q.sessions())
        .extracting(LongMemEvalQuestion.Session::key)
        .containsExactly("s-garden", "s-stars", "s-garden#2");
    assertThat(q.sessions().get(2).turnId(1)).isEqualTo("s-garden#2:1");
  }

  @Test
  void load_readsGzipByItsFirstBytes_whateverTheName(@TempDir Path dir) throws IOException {
    Path gz = dir.resolve("questions.data");
    try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(gz))) {
      out.write(Files.readAllBytes(TINY));
    }
    assertThat(LongMemEvalLoader.load(gz)).isEqualTo(LongMemEvalLoader.load(TINY));
  }

  @Test
  void date_readsTheDatasetFormat_asUtc() {
    assertThat(LongMemEvalLoader.date("2023/05/20 (Sat) 02:21", "x"))
        .isEqualTo(Instant.parse("2023-05-20T02:21:00Z"));
    assertThat(LongMemEvalLoader.date("2023/5/2 7:05", "x"))
        .isEqualTo(Instant.parse("2023-05-02T07:05:00Z"));
    assertThatThrownBy(() -> LongMemEvalLoader.date("May 20, 2023", "q.question_date"))
        .hasMessage("q.question_date must look like '2023/05/20 (Sat) 02:21', was 'May 20, 2023'");
    assertThatThrownBy(() -> LongMemEvalLoader.date("2023/13/20 (Sat) 02:21", "d"))
        .hasMessageContaining("was '2023/13/20");
  }

  @Test
  void parse_namesTheQuestionAndField_ofWhatIsWrong() throws IOException {
    ArrayNode root = (ArrayNode) JsonCodec.read(TINY);
    ((ArrayNode) root.get(0).get("haystack_dates")).remove(0);
    assertThatThrownBy(() -> LongMemEvalLoader.parse(root, "f.json"))
        .hasMessage(
            "f.json: [0] (q-user-1): "
                + "haystack_sessions, haystack_session_ids and haystack_dates must have the same length, were 3, 3 and 2");

    ArrayNode other = (ArrayNode) JsonCodec.read(TINY);
    ((ArrayNode) other.get(1).get("answer_session_ids")).add("s-nowhere");
    assertThatThrownBy(() -> LongMemEvalLoader.parse(other, "f.json"))
        .hasMessage(
            "f.json: [1] (q-assistant-1): answer_session_ids names 's-nowhere', not a haystack session");

    ArrayNode noQuestion = (ArrayNode) JsonCodec.read(TINY);
    ((ObjectNode) noQuestion.get(2)).remove("question");
    assertThatThrownBy(() -> LongMemEvalLoader.parse(noQuestion, "f.json"))
        .hasMessage("f.json: [2] (q-multi-1_abs): question is required (a string)");

    assertThatThrownBy(() -> LongMemEvalLoader.parse(JsonCodec.object(), "f.json"))
        .hasMessage("f.json: must be a JSON list of questions");
  }

  @Test
  void load_refusesWhatIsNotJson(@TempDir Path dir) throws IOException {
    Path bad = Files.writeString(dir.resolve("bad.json"), "[{\"question_id\": ");
    assertThatThrownBy(() -> LongMemEvalLoader.load(bad))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith(bad + ": not readable as JSON");
  }

  @Test
  void interleaveByType_takesTypesInTurn_keepingFileOrderWithinEach() {
    List<LongMemEvalQuestion> qs = LongMemEvalLoader.load(TINY);
    LongMemEvalQuestion a = qs.get(0);
    LongMemEvalQuestion b = qs.get(1);
    LongMemEvalQuestion a2 =
        new LongMemEvalQuestion(
            "a2",
            a.type(),
            a.question(),
            a.answer(),
            a.askedAt(),
            a.sessions(),
            a.answerSessionIds());
    LongMemEvalQuestion a3 =
        new LongMemEvalQuestion(
            "a3",
            a.type(),
            a.question(),
            a.answer(),
            a.askedAt(),
            a.sessions(),
            a.answerSessionIds());
    assertThat(LongMemEvalLoader.interleaveByType(List.of(a, a2, a3, b, qs.get(2))))
        .extracting(LongMemEvalQuestion::id)
        .containsExactly("q-user-1", "q-assistant-1", "q-multi-1_abs", "a2", "a3");
  }
}

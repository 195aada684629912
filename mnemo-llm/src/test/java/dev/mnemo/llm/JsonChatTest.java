package dev.mnemo.llm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.langchain4j.data.message.UserMessage;
import dev.mnemo.testkit.ScriptedChatModel;
import java.util.List;
import org.junit.jupiter.api.Test;

class JsonChatTest {

  record Shape(
      @JsonProperty("name") String name,
      @JsonProperty("score") double score,
      @JsonProperty("tags") List<String> tags) {}

  private static final JsonChat.Check<Shape> SCORE_IN_RANGE =
      s -> {
        if (s.score() < 0 || s.score() > 1)
          throw new JsonChat.InvalidReply("score must be in [0, 1], was " + s.score());
      };

  @Test
  void ask_validReply_isParsedInOneCall() {
    ScriptedChatModel model =
        new ScriptedChatModel().reply("{\"name\": \"a\", \"score\": 0.5, \"tags\": [\"x\"]}");
    JsonChat chat = new JsonChat(model);
    assertThat(chat.ask("sys", "user", Shape.class, SCORE_IN_RANGE))
        .isEqualTo(new Shape("a", 0.5, List.of("x")));
    assertThat(chat.calls()).isEqualTo(1);
    assertThat(model.calls().get(0).system()).isEqualTo("sys");
  }

  @Test
  void ask_replyInACodeFence_isAccepted() {
    JsonChat chat =
        new JsonChat(
            new ScriptedChatModel()
                .reply("```json\n{\"name\": \"a\", \"score\": 1, \"tags\": []}\n```"));
    assertThat(chat.ask("s", "u", Shape.class, SCORE_IN_RANGE).score()).isEqualTo(1.0);
  }

  @Test
  void ask_malformedThenValid_retriesOnceWithTheError() {
    ScriptedChatModel model =
        new ScriptedChatModel()
            .reply("{\"name\": \"a\", \"score\": 0.5, ")
            .reply("{\"name\": \"a\", \"score\": 0.5, \"tags\": []}");
    JsonChat chat = new JsonChat(model);
    assertThat(chat.ask("s", "u", Shape.class, SCORE_IN_RANGE).name()).isEqualTo("a");
    assertThat(model.calls()).hasSize(2);
    assertThat(model.calls().get(1).messages()).hasSize(4);
    assertThat(((UserMessage) model.calls().get(1).messages().get(3)).singleText())
        .startsWith("Your reply was invalid: ");
    assertThat(chat.invalidReplies()).isEqualTo(1);
  }

  @Test
  void ask_invalidTwice_failsNotRetriableNamingBothErrors() {
    ScriptedChatModel model =
        new ScriptedChatModel()
            .reply("not json at all")
            .reply("{\"name\": \"a\", \"score\": 7, \"tags\": []}");
    assertThatThrownBy(() -> new JsonChat(model).ask("s", "u", Shape.class, SCORE_IN_RANGE))
        .isInstanceOfSatisfying(LlmException.class, e -> assertThat(e.retriable()).isFalse())
        .hasMessageContaining("expected one JSON object")
        .hasMessageContaining("score must be in [0, 1], was 7.0");
  }

  @Test
  void parse_rejectsUnknownMissingIllTypedAndDuplicateFields() {
    assertThatThrownBy(
            () ->
                JsonChat.parse(
                    "{\"name\": \"a\", \"score\": 0.5, \"tags\": [], \"extra\": 1}", Shape.class))
        .isInstanceOf(JsonChat.InvalidReply.class)
        .hasMessageContaining("extra");
    assertThatThrownBy(() -> JsonChat.parse("{\"name\": \"a\", \"tags\": []}", Shape.class))
        .isInstanceOf(JsonChat.InvalidReply.class)
        .hasMessageContaining("score");
    assertThatThrownBy(
            () ->
                JsonChat.parse("{\"name\": \"a\", \"score\": \"0.5\", \"tags\": []}", Shape.class))
        .isInstanceOf(JsonChat.InvalidReply.class)
        .hasMessageContaining("score");
    assertThatThrownBy(
            () -> JsonChat.parse("{\"name\": 3, \"score\": 0.5, \"tags\": []}", Shape.class))
        .isInstanceOf(JsonChat.InvalidReply.class)
        .hasMessageContaining("name");
    assertThatThrownBy(
            () ->
                JsonChat.parse(
                    "{\"name\": \"a\", \"name\": \"b\", \"score\": 0.5, \"tags\": []}",
                    Shape.class))
        .isInstanceOf(JsonChat.InvalidReply.class)
        .hasMessageContaining("name");
    assertThatThrownBy(
            () -> JsonChat.parse("{\"name\": \"a\", \"score\": null, \"tags\": []}", Shape.class))
        .isInstanceOf(JsonChat.InvalidReply.class);
    assertThatThrownBy(
            () ->
                JsonChat.parse(
                    "{\"name\": \"a\", \"score\": 0.5, \"tags\": []} trailing", Shape.class))
        .isInstanceOf(JsonChat.InvalidReply.class);
    assertThatThrownBy(() -> JsonChat.parse("", Shape.class))
        .isInstanceOf(JsonChat.InvalidReply.class)
        .hasMessageContaining("empty");
  }

  @Test
  void ask_unwrappedModelFailure_isAnLlmExceptionMarkedByKind() {
    assertThatThrownBy(
            () ->
                new JsonChat(new ScriptedChatModel().rateLimited())
                    .ask("s", "u", Shape.class, SCORE_IN_RANGE))
        .isInstanceOfSatisfying(LlmException.class, e -> assertThat(e.retriable()).isTrue());
    assertThatThrownBy(
            () ->
                new JsonChat(new ScriptedChatModel().httpError(403))
                    .ask("s", "u", Shape.class, SCORE_IN_RANGE))
        .isInstanceOfSatisfying(LlmException.class, e -> assertThat(e.retriable()).isFalse());
  }

  @Test
  void ask_providerFailure_passesThroughWithoutAnInvalidReplyRetry() {
    ScriptedChatModel model = new ScriptedChatModel().httpError(401);
    JsonChat chat = new JsonChat(new RetryingChatModel(model, 2, java.time.Duration.ZERO, d -> {}));
    assertThatThrownBy(() -> chat.ask("s", "u", Shape.class, SCORE_IN_RANGE))
        .isInstanceOfSatisfying(LlmException.class, e -> assertThat(e.retriable()).isFalse());
    assertThat(model.calls()).hasSize(1);
  }
}

package dev.mnemo.llm;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.type.LogicalType;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Asks a chat model for one JSON object of a given shape and checks it strictly; an invalid reply
 * is asked again once, with the error, and then fails.
 *
 * <p>Strict means: one JSON object and nothing else (a Markdown code fence around it is tolerated,
 * since models add one even when told not to), every field of the target record present (null where
 * allowed), no unknown field, no duplicate key, no coercion (a quoted number is not a number, a
 * number is not a string), then the caller's own {@link Check} (ranges, ids, dates). A reply that
 * fails is sent back with the error message ("Your reply was invalid: ...") and the model gets one
 * more turn; a second invalid reply is an {@link LlmException} that is not retriable. Provider
 * failures (after {@link RetryingChatModel}'s retries, if the model is wrapped in it) are an {@link
 * LlmException} too, retriable for 429, 5xx and time-outs. Thread-safe.
 */
public final class JsonChat {

  /**
   * Checks a parsed reply; throws {@link InvalidReply} naming the field, the value and the rule.
   */
  @FunctionalInterface
  public interface Check<T> {
    void check(T value);
  }

  /** A reply that parsed but breaks a rule of the schema. */
  public static final class InvalidReply extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public InvalidReply(String message) {
      super(message);
    }
  }

  /** The strict reader every reply goes through. */
  public static final ObjectMapper STRICT = strictMapper();

  private final ChatModel model;
  private final AtomicLong calls = new AtomicLong();
  private final AtomicLong invalid = new AtomicLong();

  public JsonChat(ChatModel model) {
    this.model = Objects.requireNonNull(model, "model");
  }

  /** The model behind this. */
  public ChatModel model() {
    return model;
  }

  /** Chat calls made so far (retries of invalid replies included; provider retries not). */
  public long calls() {
    return calls.get();
  }

  /** Replies that failed the schema so far. */
  public long invalidReplies() {
    return invalid.get();
  }

  /**
   * Asks {@code user} under {@code system} and returns the reply as {@code type}, checked.
   *
   * @throws LlmException when the provider keeps failing (retriable) or the reply is invalid twice
   */
  public <T> T ask(String system, String user, Class<T> type, Check<T> check) {
    List<ChatMessage> messages =
        new ArrayList<>(List.of(SystemMessage.from(system), UserMessage.from(user)));
    String firstError = null;
    for (int attempt = 1; attempt <= 2; attempt++) {
      calls.incrementAndGet();
      ChatResponse response;
      try {
        response = model.chat(ChatRequest.builder().messages(messages).build());
      } catch (LlmException e) {
        throw e;
      } catch (
          RuntimeException
              e) { // a model not wrapped in RetryingChatModel: same contract, no retries
        throw new LlmException(
            "language model call failed: " + e, RetryingChatModel.isRetriable(e), e);
      }
      String reply = response.aiMessage() == null ? null : response.aiMessage().text();
      try {
        T value = parse(reply, type);
        check.check(value);
        return value;
      } catch (InvalidReply e) {
        invalid.incrementAndGet();
        if (attempt == 2) throw invalidTwice(firstError, e.getMessage(), e);
        firstError = e.getMessage();
        messages.add(AiMessage.from(reply));
        messages.add(
            UserMessage.from(
                "Your reply was invalid: "
                    + e.getMessage()
                    + ". Reply again with only the corrected JSON object, nothing else."));
      }
    }
    throw new AssertionError("unreachable");
  }

  private static LlmException invalidTwice(String first, String second, Throwable cause) {
    return new LlmException(
        "the language model's reply was invalid twice: " + first + "; then: " + second,
        false,
        cause);
  }

  /** The reply as {@code type}: the JSON object alone, optionally inside a Markdown code fence. */
  static <T> T parse(String reply, Class<T> type) {
    if (reply == null || reply.isBlank())
      throw new InvalidReply("the reply was empty, expected one JSON object");
    String s = reply.strip();
    if (s.startsWith("```")) {
      int nl = s.indexOf('\n');
      int end = s.lastIndexOf("```");
      if (nl < 0 || end <= nl) throw new InvalidReply("an unclosed code fence around the JSON");
      s = s.substring(nl + 1, end).strip();
    }
    if (!s.startsWith("{"))
      throw new InvalidReply("expected one JSON object, the reply began with '" + head(s) + "'");
    try {
      return STRICT.readValue(s, type);
    } catch (JsonProcessingException e) {
      throw new InvalidReply(e.getOriginalMessage() + pathOf(e));
    }
  }

  private static String pathOf(JsonProcessingException e) {
    if (e instanceof com.fasterxml.jackson.databind.JsonMappingException m
        && !m.getPath().isEmpty()) {
      StringBuilder b = new StringBuilder(" (at ");
      for (var ref : m.getPath()) {
        if (ref.getFieldName() != null)
          b.append(b.length() > 5 ? "." : "").append(ref.getFieldName());
        else b.append('[').append(ref.getIndex()).append(']');
      }
      return b.append(')').toString();
    }
    return "";
  }

  private static String head(String s) {
    return s.length() > 40 ? s.substring(0, 40) + "..." : s;
  }

  private static ObjectMapper strictMapper() {
    JsonMapper m =
        JsonMapper.builder()
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .enable(DeserializationFeature.FAIL_ON_MISSING_CREATOR_PROPERTIES)
            .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
            .disable(MapperFeature.ALLOW_COERCION_OF_SCALARS)
            .build();
    for (LogicalType t :
        new LogicalType[] {
          LogicalType.Textual, LogicalType.Integer, LogicalType.Float, LogicalType.Boolean
        }) {
      m.coercionConfigFor(t)
          .setCoercion(
              CoercionInputShape.String,
              t == LogicalType.Textual ? CoercionAction.TryConvert : CoercionAction.Fail)
          .setCoercion(
              CoercionInputShape.Integer,
              t == LogicalType.Integer || t == LogicalType.Float
                  ? CoercionAction.TryConvert
                  : CoercionAction.Fail)
          .setCoercion(
              CoercionInputShape.Float,
              t == LogicalType.Float ? CoercionAction.TryConvert : CoercionAction.Fail)
          .setCoercion(
              CoercionInputShape.Boolean,
              t == LogicalType.Boolean ? CoercionAction.TryConvert : CoercionAction.Fail)
          .setCoercion(
              CoercionInputShape.EmptyString,
              t == LogicalType.Textual ? CoercionAction.TryConvert : CoercionAction.Fail);
    }
    return m;
  }
}

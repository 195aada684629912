package dev.mnemo.testkit;

import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.exception.HttpException;
import dev.langchain4j.exception.RateLimitException;
import dev.langchain4j.exception.TimeoutException;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.function.Function;

/**
 * A scripted LangChain4j {@link ChatModel} for tests: it plays recorded replies in order (valid
 * JSON, malformed JSON, anything), or raises the failures a real provider raises (time-outs, 429
 * rate limits, 5xx, 4xx), and keeps every request it was sent. No network.
 *
 * <p>Two ways to script it: a fixed sequence ({@link #reply}, {@link #timeout}, {@link
 * #rateLimited}, {@link #httpError}), consumed one step per call, after which a call fails with
 * {@link IllegalStateException} ("script exhausted"); or a {@link #responder} that computes the
 * reply from the request (for end-to-end runs with many calls), used once the sequence is empty.
 * Thread-safe (calls are serialized).
 */
public final class ScriptedChatModel implements ChatModel {

  /** What one call sees: the system prompt, the last user message, and every message. */
  public record Call(String system, String user, List<ChatMessage> messages) {}

  private final Deque<Function<Call, String>> script = new ArrayDeque<>();
  private final List<Call> calls = new ArrayList<>();
  private Function<Call, String> responder;

  /** Replies {@code text} to the next call. */
  public synchronized ScriptedChatModel reply(String text) {
    script.add(c -> text);
    return this;
  }

  /** The next call times out, as LangChain4j reports a provider time-out. */
  public synchronized ScriptedChatModel timeout() {
    script.add(
        c -> {
          throw new TimeoutException("scripted time-out");
        });
    return this;
  }

  /** The next call is refused with 429. */
  public synchronized ScriptedChatModel rateLimited() {
    script.add(
        c -> {
          throw new RateLimitException("scripted 429 Too Many Requests");
        });
    return this;
  }

  /**
   * The next call fails with this HTTP status (500, 503: a server error; 400, 401: a client error).
   */
  public synchronized ScriptedChatModel httpError(int status) {
    script.add(
        c -> {
          throw new HttpException(status, "scripted HTTP " + status);
        });
    return this;
  }

  /**
   * Appends a recorded session: one JSON object per line, {@code {"reply": "..."}} for a model
   * reply (kept verbatim, malformed or not), {@code {"error": "timeout"}}, {@code {"error":
   * "rate_limit"}} or {@code {"error": 503}} for a failure; blank lines and lines starting with
   * {@code #} are skipped.
   */
  public synchronized ScriptedChatModel recording(java.nio.file.Path file) {
    List<String> lines;
    try {
      lines = java.nio.file.Files.readAllLines(file);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException("cannot read recording " + file, e);
    }
    com.fasterxml.jackson.databind.ObjectMapper json =
        new com.fasterxml.jackson.databind.ObjectMapper();
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i).strip();
      if (line.isEmpty() || line.startsWith("#")) continue;
      String where = file + ":" + (i + 1) + ": ";
      com.fasterxml.jackson.databind.JsonNode n;
      try {
        n = json.readTree(line);
      } catch (java.io.IOException e) {
        throw new IllegalArgumentException(where + "not JSON: " + line, e);
      }
      com.fasterxml.jackson.databind.JsonNode reply = n.get("reply");
      com.fasterxml.jackson.databind.JsonNode error = n.get("error");
      if (reply != null && reply.isTextual()) reply(reply.asText());
      else if (error != null && error.isInt()) httpError(error.asInt());
      else if (error != null && "timeout".equals(error.asText())) timeout();
      else if (error != null && "rate_limit".equals(error.asText())) rateLimited();
      else
        throw new IllegalArgumentException(
            where
                + "expected {\"reply\": \"...\"} or {\"error\": \"timeout\" | "
                + "\"rate_limit\" | STATUS}, was "
                + line);
    }
    return this;
  }

  /** Computes the reply of every call after the scripted sequence. */
  public synchronized ScriptedChatModel responder(Function<Call, String> f) {
    this.responder = f;
    return this;
  }

  /** Every call so far, in order (failed ones included). */
  public synchronized List<Call> calls() {
    return List.copyOf(calls);
  }

  /** Scripted steps not yet played. */
  public synchronized int remaining() {
    return script.size();
  }

  @Override
  public synchronized ChatResponse doChat(ChatRequest request) {
    List<ChatMessage> messages = List.copyOf(request.messages());
    String system = null;
    String user = null;
    for (ChatMessage m : messages) {
      if (m instanceof SystemMessage s) system = s.text();
      if (m instanceof UserMessage u) user = u.singleText();
    }
    Call call = new Call(system, user, messages);
    calls.add(call);
    Function<Call, String> step = script.poll();
    if (step == null) step = responder;
    if (step == null)
      throw new IllegalStateException(
          "ScriptedChatModel: script exhausted after "
              + (calls.size() - 1)
              + " calls; last user message: "
              + user);
    return ChatResponse.builder().aiMessage(AiMessage.from(step.apply(call))).build();
  }
}

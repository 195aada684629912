package dev.mnemo.llm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.langchain4j.model.chat.ChatModel;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The real LangChain4j providers, built by {@link ChatModels}, against stub servers on loopback:
 * the wire format, the key, JSON mode, and the retry policy on real HTTP 429, 5xx and time-outs.
 */
class ProvidersOverHttpTest {

  /** One scripted HTTP answer: status, body, delay before answering. */
  record Answer(int status, String body, long delayMs) {}

  private HttpServer server;
  private final java.util.concurrent.ExecutorService pool =
      java.util.concurrent.Executors.newCachedThreadPool();
  private final Deque<Answer> answers = new ArrayDeque<>();
  private final List<String> requests = new ArrayList<>();
  private final List<String> authorizations = new ArrayList<>();

  private String start(String path) throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext(path, this::handle);
    server.setExecutor(pool);
    server.start();
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }

  private void handle(HttpExchange ex) throws IOException {
    Answer a;
    synchronized (this) {
      requests.add(new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
      authorizations.add(ex.getRequestHeaders().getFirst("Authorization"));
      a = answers.poll();
    }
    try {
      if (a == null) a = new Answer(500, "{\"error\": \"no scripted answer\"}", 0);
      if (a.status() == 0) return; // drop the connection without a response (closed in finally)
      if (a.delayMs() > 0) Thread.sleep(a.delayMs());
      byte[] b = a.body().getBytes(StandardCharsets.UTF_8);
      ex.getResponseHeaders().add("Content-Type", "application/json");
      ex.sendResponseHeaders(a.status(), b.length);
      ex.getResponseBody().write(b);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (IOException ignored) {
      // the client gave up (time-out test)
    } finally {
      ex.close();
    }
  }

  @AfterEach
  void stop() {
    if (server != null) server.stop(0);
    pool.shutdownNow();
  }

  static String openAiReply(String content) {
    return "{\"id\": \"c1\", \"object\": \"chat.completion\", \"created\": 1, \"model\": \"m\", \"choices\": [{\"index\": 0, "
        + "\"message\": {\"role\": \"assistant\", \"content\": "
        + quote(content)
        + "}, \"finish_reason\": \"stop\"}], "
        + "\"usage\": {\"prompt_tokens\": 3, \"completion_tokens\": 2, \"total_tokens\": 5}}";
  }

  static String quote(String s) {
    return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
  }

  @Test
  void openAiCompatible_rateLimitedThenAnswered_isRetriedAndSendsKeyAndJsonMode()
      throws IOException {
    String url = start("/v1/chat/completions") + "/v1";
    answers.add(
        new Answer(429, "{\"error\": {\"message\": \"slow down\", \"type\": \"rate_limit\"}}", 0));
    answers.add(new Answer(503, "{\"error\": {\"message\": \"overloaded\"}}", 0));
    answers.add(new Answer(200, openAiReply("{\"query\": \"editor\", \"entities\": []}"), 0));
    ChatModel model =
        ChatModels.create(
            new LlmConfig(
                "openai", url, "gpt-test", "sk-test", Duration.ofSeconds(5), 3, Duration.ZERO, 0));
    QueryRewriter.Rewrite r =
        new LlmQueryRewriter(new JsonChat(model)).rewrite("which editor?", null);
    assertThat(r.rewritten()).isTrue();
    assertThat(r.query()).isEqualTo("editor");
    assertThat(requests).hasSize(3);
    assertThat(requests.get(0))
        .contains("\"gpt-test\"")
        .contains("json_object")
        .contains("which editor?");
    assertThat(authorizations.get(0)).isEqualTo("Bearer sk-test");
  }

  @Test
  void openAiCompatible_timeout_isRetriedThenAnswered() throws IOException {
    String url = start("/v1/chat/completions") + "/v1";
    answers.add(new Answer(200, openAiReply("{\"query\": \"late\", \"entities\": []}"), 1_500));
    answers.add(new Answer(200, openAiReply("{\"query\": \"editor\", \"entities\": []}"), 0));
    ChatModel model =
        ChatModels.create(
            new LlmConfig(
                "openai", url, "gpt-test", null, Duration.ofMillis(400), 1, Duration.ZERO, 0));
    assertThat(new LlmQueryRewriter(new JsonChat(model)).rewrite("which editor?", null).query())
        .isEqualTo("editor");
    assertThat(requests).hasSize(2);
  }

  @Test
  void openAiCompatible_connectionDroppedBeforeAResponse_isRetried() throws IOException {
    String url = start("/v1/chat/completions") + "/v1";
    answers.add(new Answer(0, "", 0));
    answers.add(new Answer(200, openAiReply("{\"query\": \"editor\", \"entities\": []}"), 0));
    ChatModel model =
        ChatModels.create(
            new LlmConfig(
                "openai", url, "gpt-test", null, Duration.ofSeconds(5), 2, Duration.ZERO, 0));
    assertThat(new LlmQueryRewriter(new JsonChat(model)).rewrite("which editor?", null).query())
        .isEqualTo("editor");
    assertThat(requests).hasSize(2);
  }

  @Test
  void connectionRefused_isNotRetried() throws IOException {
    String url = start("/v1/chat/completions") + "/v1";
    server.stop(0);
    ChatModel model =
        ChatModels.create(
            new LlmConfig(
                "openai",
                url,
                "gpt-test",
                null,
                Duration.ofSeconds(5),
                3,
                Duration.ofSeconds(30),
                0));
    assertThatThrownBy(
            () ->
                new JsonChat(model)
                    .ask("s", "u", LlmQueryRewriter.Reply.class, LlmQueryRewriter::check))
        .isInstanceOfSatisfying(LlmException.class, e -> assertThat(e.retriable()).isFalse());
  }

  @Test
  void openAiCompatible_badKey_isNotRetried() throws IOException {
    String url = start("/v1/chat/completions") + "/v1";
    answers.add(new Answer(401, "{\"error\": {\"message\": \"bad key\"}}", 0));
    ChatModel model =
        ChatModels.create(
            new LlmConfig(
                "openai", url, "gpt-test", "wrong", Duration.ofSeconds(5), 3, Duration.ZERO, 0));
    assertThatThrownBy(
            () ->
                new JsonChat(model)
                    .ask("s", "u", LlmQueryRewriter.Reply.class, LlmQueryRewriter::check))
        .isInstanceOfSatisfying(LlmException.class, e -> assertThat(e.retriable()).isFalse());
    assertThat(requests).hasSize(1);
  }

  @Test
  void ollama_serverErrorThenAnswered_isRetriedAndAsksForJson() throws IOException {
    String url = start("/api/chat");
    answers.add(new Answer(500, "{\"error\": \"model loading\"}", 0));
    answers.add(
        new Answer(
            200,
            "{\"model\": \"qwen\", \"created_at\": \"2026-01-01T00:00:00Z\", \"message\": {\"role\": "
                + "\"assistant\", \"content\": "
                + quote("{\"correct\": true, \"reason\": \"same city\"}")
                + "}, \"done\": true, "
                + "\"prompt_eval_count\": 3, \"eval_count\": 2}",
            0));
    ChatModel model =
        ChatModels.create(
            new LlmConfig("ollama", url, "qwen", null, Duration.ofSeconds(5), 2, Duration.ZERO, 0));
    LlmJudge.Verdict v =
        new LlmJudge(new JsonChat(model)).judge("Where does Maya live?", "Berlin", "In Berlin.");
    assertThat(v).isEqualTo(new LlmJudge.Verdict(true, "same city"));
    assertThat(requests).hasSize(2);
    assertThat(requests.get(1)).contains("\"qwen\"").containsPattern("\"format\"\\s*:\\s*\"json\"");
  }
}

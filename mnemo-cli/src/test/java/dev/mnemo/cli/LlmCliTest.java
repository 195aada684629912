package dev.mnemo.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.mnemo.Mnemo;
import dev.mnemo.Turn;
import dev.mnemo.json.JsonCodec;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The language-model options of the command line against a stub OpenAI-compatible server on
 * loopback: {@code eval answers} end to end, {@code --extractor llm} behind ingest, and the clear
 * error when no model is configured.
 */
class LlmCliTest {
  @TempDir Path dir;
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();
  private PrintStream oldOut;
  private PrintStream oldErr;
  private HttpServer server;
  private String url;
  private final AtomicInteger calls = new AtomicInteger();

  private static final Pattern MEMORY =
      Pattern.compile("^1\\. (?:\\[[^\\]]*\\] )?(.*)$", Pattern.MULTILINE);
  private static final Pattern TURN = Pattern.compile("^\\[([^\\]]+)\\]", Pattern.MULTILINE);

  @BeforeEach
  void start() throws IOException {
    oldOut = System.out;
    oldErr = System.err;
    System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
    System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/v1/chat/completions", this::handle);
    server.start();
    url = "http://127.0.0.1:" + server.getAddress().getPort() + "/v1";
  }

  @AfterEach
  void stop() {
    System.setOut(oldOut);
    System.setErr(oldErr);
    server.stop(0);
  }

  /**
   * A stub model: answers with the first memory shown, judges "I don't know" wrong unless nothing
   * is stored.
   */
  private void handle(HttpExchange ex) throws IOException {
    calls.incrementAndGet();
    JsonNode req = JsonCodec.READER.readTree(ex.getRequestBody());
    String system = req.get("messages").get(0).get("content").asText();
    String user = req.get("messages").get(1).get("content").asText();
    String content;
    if (system.startsWith("You are an assistant answering")) {
      Matcher m = MEMORY.matcher(user);
      content =
          m.find()
              ? json("answer", m.group(1)).replace("}", ", \"used\": [1]}")
              : "{\"answer\": \"I don't know\", \"used\": []}";
    } else if (system.startsWith("You grade")) {
      boolean nothing = user.contains("Nothing about this is recorded");
      boolean dunno = user.contains("Assistant's answer: I don't know");
      content = "{\"correct\": " + (nothing == dunno) + ", \"reason\": \"stub\"}";
    } else if (system.startsWith("You write search queries")) {
      content = "{\"query\": \"Maya's dog name\", \"entities\": [\"Maya\"]}";
    } else if (system.startsWith("You edit one memory")) {
      content = json("text", user.substring("Memory: ".length()) + " Not any more.");
    } else if (system.startsWith("You maintain the long-term memory")) {
      Matcher m = TURN.matcher(user.substring(user.indexOf("Turns to extract from:")));
      m.find();
      content =
          "{\"memories\": [{\"text\": \"Maya prefers Emacs.\", \"kind\": \"preference\", \"category\": \"semantic\", "
              + "\"importance\": 0.7, \"fact_key\": \"editor\", \"valid_from\": null, \"entities\": [\"Emacs\"], \"sources\": [\""
              + m.group(1)
              + "\"]}]}";
    } else {
      content = "not expected";
    }
    String body =
        "{\"id\": \"c\", \"object\": \"chat.completion\", \"created\": 1, \"model\": \"stub\", \"choices\": [{\"index\": 0, "
            + "\"message\": {\"role\": \"assistant\", \"content\": "
            + JsonCodec.WRITER.writeValueAsString(content)
            + "}, \"finish_reason\": \"stop\"}]}";
    byte[] b = body.getBytes(StandardCharsets.UTF_8);
    ex.getResponseHeaders().add("Content-Type", "application/json");
    ex.sendResponseHeaders(200, b.length);
    ex.getResponseBody().write(b);
    ex.close();
  }

  private static String json(String field, String value) throws IOException {
    return "{\"" + field + "\": " + JsonCodec.WRITER.writeValueAsString(value) + "}";
  }

  private int run(String... args) {
    out.reset();
    err.reset();
    return Main.run(args);
  }

  @Test
  void evalAnswers_withAModel_writesEveryMetric() throws Exception {
    Path scenarios = dir.resolve("s.jsonl");
    Files.writeString(
        scenarios,
        """
        {"id": "s1", "split": "dev", "writes": [{"id": "e1", "owner": "u", "recorded_at": "2026-03-01T10:00:00Z", "text": "Maya's dog is called Biscuit."}], "queries": [{"id": "q1", "owner": "u", "asked_at": "2026-04-01T00:00:00Z", "text": "What is the name of Maya's dog?", "expect": ["e1"]}, {"id": "q2", "owner": "u", "asked_at": "2026-04-01T00:00:00Z", "text": "Which opera does Maya like?", "expect_none": true}]}
        """);
    Path json = dir.resolve("answers.json");
    Path lines = dir.resolve("answers.jsonl");
    assertThat(
            run(
                "eval",
                "answers",
                scenarios.toString(),
                "--embedder",
                "none",
                "--llm-url",
                url,
                "--llm-model",
                "stub",
                "--out",
                json.toString(),
                "--queries",
                lines.toString()))
        .as(err.toString())
        .isZero();
    assertThat(out.toString())
        .contains("benefit")
        .contains("counterfactual")
        .contains("model openai/stub");
    JsonNode j = JsonCodec.read(json);
    assertThat(j.get("questions").asInt()).isEqualTo(2);
    assertThat(j.get("errors").asInt()).isZero();
    assertThat(j.get("run").get("model").asText()).isEqualTo("stub");
    assertThat(j.get("run").get("llm_calls").asInt()).isEqualTo(calls.get());
    for (String f :
        List.of(
            "benefit_rate",
            "disturbance_rate",
            "net_benefit",
            "fetch_rate",
            "use_rate",
            "precision_at_k")) {
      assertThat(j.has(f)).as(f).isTrue();
    }
    assertThat(j.get("without_memory").get("accuracy").asDouble()).isEqualTo(0.5);
    assertThat(Files.readAllLines(lines)).hasSize(2);
  }

  @Test
  void evalAnswers_withoutAModel_isAClearError() throws Exception {
    Path scenarios = dir.resolve("s.jsonl");
    Files.writeString(
        scenarios, "{\"id\": \"s1\", \"split\": \"dev\", \"writes\": [], \"queries\": []}\n");
    assertThat(run("eval", "answers", scenarios.toString(), "--embedder", "none")).isEqualTo(2);
    assertThat(err.toString())
        .contains("eval answers needs a language model")
        .contains("--llm-model");
    assertThat(calls.get()).isZero();
  }

  @Test
  void evalAblations_runsTheRewriterVariantOnlyWithAModel() throws Exception {
    Path scenarios = dir.resolve("s.jsonl");
    Files.writeString(
        scenarios,
        """
        {"id": "s1", "split": "dev", "writes": [{"id": "e1", "owner": "u", "recorded_at": "2026-03-01T10:00:00Z", "text": "Maya's dog is called Biscuit."}, {"id": "e2", "owner": "u", "recorded_at": "2026-03-02T10:00:00Z", "text": "The weather was lovely on the weekend."}], "queries": [{"id": "q1", "owner": "u", "asked_at": "2026-04-01T00:00:00Z", "text": "What is the name of Maya's dog?", "expect": ["e1"]}]}
        """);
    Path json = dir.resolve("ablations.json");
    assertThat(
            run(
                "eval",
                "ablations",
                scenarios.toString(),
                "--embedder",
                "none",
                "--no-embed-cache",
                "--llm-url",
                url,
                "--llm-model",
                "stub",
                "--variants",
                "full,noisy+rewriter",
                "--out",
                json.toString()))
        .as(err.toString())
        .isZero();
    int rewrites = calls.get();
    assertThat(rewrites).isPositive(); // the model rewrote the noisy message
    JsonNode all = JsonCodec.read(json).get("splits").get("all");
    assertThat(all.get("noisy+rewriter").get("recall").asDouble())
        .isEqualTo(all.get("full").get("recall").asDouble())
        .isEqualTo(1.0);

    // without a model the variant is left out of the default list, and refused when named
    assertThat(
            run(
                "eval",
                "ablations",
                scenarios.toString(),
                "--embedder",
                "none",
                "--no-embed-cache"))
        .isZero();
    assertThat(out.toString()).contains("noisy+focus").doesNotContain("noisy+rewriter");
    assertThat(
            run(
                "eval",
                "ablations",
                scenarios.toString(),
                "--embedder",
                "none",
                "--no-embed-cache",
                "--variants",
                "noisy+rewriter"))
        .isEqualTo(2);
    assertThat(err.toString()).contains("the noisy+rewriter variant needs a language model");
    assertThat(calls.get()).isEqualTo(rewrites);
  }

  /**
   * {@code --embedder none --extractor llm}, with or without {@code --llm-url URL --llm-model
   * stub}.
   */
  private EngineOptions extractorLlm(boolean withModel) {
    EngineOptions options = new EngineOptions();
    options.embedder = "none";
    options.tokenizer = "cl100k_base";
    options.extractor = "llm";
    if (withModel) {
      options.llm.url = url;
      options.llm.model = "stub";
    }
    return options;
  }

  @Test
  void extractorLlm_putsTheLlmExtractorBehindIngest() {
    try (Mnemo mnemo = extractorLlm(true).open(dir.resolve("data"))) {
      mnemo.ingest(
          List.of(
              Turn.of(
                  "maya",
                  "t1",
                  Turn.Role.USER,
                  "Maya",
                  "I use Emacs for everything now.",
                  Instant.parse("2026-03-01T10:00:00Z"))));
      assertThat(mnemo.awaitIngested(java.time.Duration.ofSeconds(30))).isTrue();
      assertThat(mnemo.history("maya", "editor"))
          .singleElement()
          .satisfies(r -> assertThat(r.sources()).containsExactly("t1"));
    }
    assertThat(calls.get()).isEqualTo(1);
  }

  @Test
  void extractorLlm_withoutAModel_refusesToOpen() {
    EngineOptions options = extractorLlm(false);
    assertThatThrownBy(() -> options.open(dir.resolve("data")))
        .hasMessageContaining("--extractor llm needs a language model");
  }
}

package dev.mnemo.embed.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.mnemo.InvalidRequestException;
import dev.mnemo.MnemoException;
import dev.mnemo.spi.Embedder;
import dev.mnemo.spi.Providers;
import dev.mnemo.testkit.EmbedderContract;
import dev.mnemo.testkit.HashingEmbedder;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Consumer;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Runs the embedder against a stub server on 127.0.0.1 whose path picks its behaviour: {@code /v1}
 * answers like OpenAI (vectors from a {@link HashingEmbedder}, listed in reverse order and scaled
 * so that the client must sort and normalize), the others fail in one way each.
 */
class OpenAiCompatibleEmbedderTest extends EmbedderContract {

  private static final String KEY = "sk-test-0123456789abcdef";
  private static final int DIM = 32;
  private static final HashingEmbedder HASH = new HashingEmbedder(DIM);
  private static final ObjectMapper JSON = new ObjectMapper();

  /** One request the stub received. */
  record Received(String path, String authorization, JsonNode body) {
    List<String> inputs() {
      List<String> out = new ArrayList<>();
      body.get("input").forEach(n -> out.add(n.asText()));
      return out;
    }
  }

  private static final Queue<Received> received = new ConcurrentLinkedQueue<>();
  private static HttpServer server;
  private static ExecutorService serverThreads;
  private static String base;
  private static OpenAiCompatibleEmbedder contractEmbedder;

  @BeforeAll
  static void startStub() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/", OpenAiCompatibleEmbedderTest::handle);
    serverThreads = Executors.newFixedThreadPool(8);
    server.setExecutor(serverThreads);
    server.start();
    base = "http://127.0.0.1:" + server.getAddress().getPort();
    contractEmbedder =
        new OpenAiCompatibleEmbedder(
            Map.of("url", base + "/v1", "model", "stub-embed", "key", KEY));
  }

  @AfterAll
  static void stopStub() {
    contractEmbedder.close();
    server.stop(0);
    serverThreads.shutdownNow();
  }

  @BeforeEach
  void forgetRequests() {
    received.clear();
  }

  @Override
  protected Embedder embedder() {
    return contractEmbedder;
  }

  @Override
  protected boolean semantic() {
    return false; // hash-based vectors
  }

  private static void handle(HttpExchange ex) throws IOException {
    try (ex) {
      JsonNode body = JSON.readTree(ex.getRequestBody());
      String path = ex.getRequestURI().getPath();
      received.add(new Received(path, ex.getRequestHeaders().getFirst("Authorization"), body));
      List<String> inputs = new ArrayList<>();
      body.get("input").forEach(n -> inputs.add(n.asText()));
      String segment = path.split("/")[1];
      switch (segment) {
        // An input containing [wide] makes the stub answer with 8 extra components.
        case "v1", "noindex" ->
            respond(
                ex,
                200,
                embeddings(
                        inputs,
                        segment.equals("v1"),
                        inputs.stream().anyMatch(t -> t.contains("[wide]")) ? 8 : 0)
                    .toString());
        case "short" ->
            respond(ex, 200, embeddings(inputs.subList(1, inputs.size()), true, 0).toString());
        case "badjson" -> respond(ex, 200, "{\"data\": [ {\"embedding\": [0.1, 0.2");
        case "429" -> {
          ex.getResponseHeaders().add("Retry-After", "7");
          respond(
              ex,
              429,
              "{\"error\": {\"message\": \"Rate limit reached for requests\", \"type\": \"requests\"}}");
        }
        case "503" -> respond(ex, 503, "upstream overloaded");
        // Echoes the key as some servers do; the client must not repeat it.
        case "400" ->
            respond(
                ex,
                400,
                "{\"error\": {\"message\": \"Invalid input for key "
                    + ex.getRequestHeaders().getFirst("Authorization")
                    + "\"}}");
        case "slow" -> {
          try {
            Thread.sleep(2000);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
          respond(ex, 200, embeddings(inputs, true, 0).toString());
        }
        default -> respond(ex, 404, "no such path " + path);
      }
    }
  }

  /**
   * An OpenAI-style body; {@code reversed} lists the items backwards with their index, as a server
   * may.
   */
  private static ObjectNode embeddings(List<String> inputs, boolean reversed, int extraComponents) {
    ObjectNode root = JSON.createObjectNode();
    root.put("object", "list");
    root.put("model", "stub-embed");
    ArrayNode data = root.putArray("data");
    for (int k = 0; k < inputs.size(); k++) {
      int i = reversed ? inputs.size() - 1 - k : k;
      ObjectNode item = data.addObject();
      item.put("object", "embedding");
      if (reversed) item.put("index", i);
      ArrayNode vector = item.putArray("embedding");
      for (float f : HASH.embedQuery(inputs.get(i)))
        vector.add(f * 2.5f); // not normalized on purpose
      for (int x = 0; x < extraComponents; x++) vector.add(0.5f);
    }
    root.putObject("usage").put("prompt_tokens", inputs.size()).put("total_tokens", inputs.size());
    return root;
  }

  private static void respond(HttpExchange ex, int status, String body) throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    ex.getResponseHeaders().add("Content-Type", "application/json");
    ex.sendResponseHeaders(status, bytes.length);
    ex.getResponseBody().write(bytes);
  }

  private static OpenAiCompatibleEmbedder embedder(String path, String... extra) {
    Map<String, String> config =
        new HashMap<>(Map.of("url", base + path, "model", "stub-embed", "key", KEY));
    for (int i = 0; i < extra.length; i += 2) config.put(extra[i], extra[i + 1]);
    return new OpenAiCompatibleEmbedder(config);
  }

  private static void withEmbedder(
      String path, Consumer<OpenAiCompatibleEmbedder> test, String... extra) {
    try (OpenAiCompatibleEmbedder e = embedder(path, extra)) {
      test.accept(e);
    }
  }

  @Test
  void sortsByIndexNormalizesAndSendsTheKey() {
    withEmbedder(
        "/v1/",
        e -> {
          List<String> texts =
              List.of("coffee with oat milk", "flight to Rome", "quarterly report");
          List<float[]> got = e.embedPassages(texts);
          for (int i = 0; i < texts.size(); i++) {
            assertThat(got.get(i))
                .as("text %d", i)
                .containsExactly(HASH.embedQuery(texts.get(i)), Offset.offset(1e-6f));
          }
          Received r = received.remove();
          assertThat(r.path()).isEqualTo("/v1/embeddings");
          assertThat(r.authorization()).isEqualTo("Bearer " + KEY);
          assertThat(r.body().get("model").asText()).isEqualTo("stub-embed");
          assertThat(r.inputs()).isEqualTo(texts);
          assertThat(e.dimension()).isEqualTo(DIM);
          assertThat(received).isEmpty(); // learned from the response, no probe
        });
  }

  @Test
  void acceptsTheFullEndpointAndNoKey() {
    try (var e =
        new OpenAiCompatibleEmbedder(Map.of("url", base + "/v1/embeddings", "model", "m"))) {
      e.embedQuery("hello");
      Received r = received.remove();
      assertThat(r.path()).isEqualTo("/v1/embeddings");
      assertThat(r.authorization()).isNull();
    }
  }

  @Test
  void acceptsItemsWithoutIndexInInputOrder() {
    withEmbedder(
        "/noindex",
        e -> {
          List<float[]> got = e.embedPassages(List.of("one thing", "another thing"));
          assertThat(got.get(0))
              .containsExactly(HASH.embedQuery("one thing"), Offset.offset(1e-6f));
          assertThat(got.get(1))
              .containsExactly(HASH.embedQuery("another thing"), Offset.offset(1e-6f));
        });
  }

  @Test
  void splitsPassagesIntoBatches() {
    withEmbedder(
        "/v1",
        e -> {
          List<String> texts = List.of("a1", "b2", "c3", "d4", "e5");
          List<float[]> got = e.embedPassages(texts);
          assertThat(received).extracting(r -> r.inputs().size()).containsExactly(2, 2, 1);
          assertThat(received).flatExtracting(Received::inputs).isEqualTo(texts);
          for (int i = 0; i < texts.size(); i++) {
            assertThat(got.get(i))
                .containsExactly(HASH.embedQuery(texts.get(i)), Offset.offset(1e-6f));
          }
        },
        "batch",
        "2");
  }

  @Test
  void prependsTheConfiguredPrefixes() {
    withEmbedder(
        "/v1",
        e -> {
          e.embedQuery("where is my key?");
          e.embedPassages(List.of("the key is under the mat"));
          assertThat(received)
              .flatExtracting(Received::inputs)
              .containsExactly("query: where is my key?", "passage: the key is under the mat");
        },
        "queryPrefix",
        "query: ",
        "passagePrefix",
        "passage: ");
  }

  @Test
  void makesNoRequestForNoPassages() {
    withEmbedder("/v1", e -> assertThat(e.embedPassages(List.of())).isEmpty());
    assertThat(received).isEmpty();
  }

  @Test
  void learnsTheDimensionWithOneProbeWhenAskedFirst() {
    withEmbedder(
        "/v1",
        e -> {
          assertThat(e.dimension()).isEqualTo(DIM);
          assertThat(e.dimension()).isEqualTo(DIM);
          assertThat(received).hasSize(1);
        });
  }

  @Test
  void aConfiguredDimensionIsCheckedAndNeedsNoRequest() {
    withEmbedder(
        "/v1",
        e -> {
          assertThat(e.dimension()).isEqualTo(64);
          assertThat(received).isEmpty();
          assertThatThrownBy(() -> e.embedQuery("hello"))
              .isInstanceOf(MnemoException.class)
              .hasMessageContaining("32-dimensional")
              .hasMessageContaining("configured as 64")
              .satisfies(x -> assertThat(((MnemoException) x).retriable()).isFalse());
        },
        "dimension",
        "64");
  }

  @Test
  void aChangingDimensionIsRefused() {
    withEmbedder(
        "/v1",
        e -> {
          e.embedQuery("first");
          assertThatThrownBy(() -> e.embedQuery("then [wide]"))
              .isInstanceOf(MnemoException.class)
              .hasMessageContaining("40-dimensional")
              .hasMessageContaining("earlier ones had 32")
              .satisfies(x -> assertThat(((MnemoException) x).retriable()).isFalse());
          assertThat(e.dimension()).isEqualTo(DIM);
        });
  }

  @Test
  void rateLimitingIsRetriable() {
    withEmbedder(
        "/429",
        e ->
            assertThatThrownBy(() -> e.embedPassages(List.of("x")))
                .isInstanceOf(MnemoException.class)
                .hasMessageContaining("HTTP 429")
                .hasMessageContaining("Retry-After: 7")
                .hasMessageContaining("Rate limit reached")
                .satisfies(x -> assertThat(((MnemoException) x).retriable()).isTrue()));
  }

  @Test
  void serverErrorsAreRetriable() {
    withEmbedder(
        "/503",
        e ->
            assertThatThrownBy(() -> e.embedQuery("x"))
                .isInstanceOf(MnemoException.class)
                .hasMessageContaining("HTTP 503: upstream overloaded")
                .satisfies(x -> assertThat(((MnemoException) x).retriable()).isTrue()));
  }

  @Test
  void badRequestsAreNotRetriableAndNeverShowTheKey() {
    withEmbedder(
        "/400",
        e ->
            assertThatThrownBy(() -> e.embedQuery("x"))
                .isInstanceOf(MnemoException.class)
                .hasMessageContaining("HTTP 400")
                .hasMessageContaining("Invalid input")
                .hasMessageNotContaining(KEY)
                .satisfies(x -> assertThat(((MnemoException) x).retriable()).isFalse()));
  }

  @Test
  void malformedJsonIsAClearPermanentError() {
    withEmbedder(
        "/badjson",
        e ->
            assertThatThrownBy(() -> e.embedQuery("x"))
                .isInstanceOf(MnemoException.class)
                .hasMessageContaining("is not valid JSON")
                .hasMessageContaining("{\"data\": [ {\"embedding\"")
                .satisfies(x -> assertThat(((MnemoException) x).retriable()).isFalse()));
  }

  @Test
  void aWrongNumberOfVectorsIsAClearPermanentError() {
    withEmbedder(
        "/short",
        e ->
            assertThatThrownBy(() -> e.embedPassages(List.of("a", "b", "c")))
                .isInstanceOf(MnemoException.class)
                .hasMessageContaining("holds 2 embeddings for 3 inputs")
                .satisfies(x -> assertThat(((MnemoException) x).retriable()).isFalse()));
  }

  @Test
  void timeOutsAreRetriable() {
    withEmbedder(
        "/slow",
        e ->
            assertThatThrownBy(() -> e.embedQuery("x"))
                .isInstanceOf(MnemoException.class)
                .hasMessageContaining("timed out after 200 ms")
                .satisfies(x -> assertThat(((MnemoException) x).retriable()).isTrue()),
        "timeout",
        "200ms");
  }

  @Test
  void anUnreachableServerIsRetriable() throws IOException {
    int port;
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = s.getLocalPort(); // closed right away: nothing listens there any more
    }
    try (var e =
        new OpenAiCompatibleEmbedder(
            Map.of(
                "url",
                "http://127.0.0.1:" + port + "/v1",
                "model",
                "m",
                "key",
                KEY,
                "timeout",
                "2s"))) {
      assertThatThrownBy(() -> e.embedQuery("x"))
          .isInstanceOf(MnemoException.class)
          .hasMessageNotContaining(KEY)
          .satisfies(x -> assertThat(((MnemoException) x).retriable()).isTrue());
    }
  }

  @Test
  void refusesBadConfig() {
    assertThatThrownBy(() -> new OpenAiCompatibleEmbedder(Map.of("model", "m")))
        .isInstanceOf(InvalidRequestException.class)
        .hasMessageContaining("'url'");
    assertThatThrownBy(() -> new OpenAiCompatibleEmbedder(Map.of("url", base)))
        .isInstanceOf(InvalidRequestException.class)
        .hasMessageContaining("'model'");
    assertThatThrownBy(
            () -> new OpenAiCompatibleEmbedder(Map.of("url", "ftp://x/v1", "model", "m")))
        .isInstanceOf(InvalidRequestException.class)
        .hasMessageContaining("url must be");
    assertThatThrownBy(() -> embedder("/v1", "batch", "0"))
        .isInstanceOf(InvalidRequestException.class)
        .hasMessageContaining("batch must be");
    assertThatThrownBy(() -> embedder("/v1", "timeout", "soon"))
        .isInstanceOf(InvalidRequestException.class)
        .hasMessageContaining("timeout must be");
    assertThatThrownBy(() -> embedder("/v1", "dimension", "-3"))
        .isInstanceOf(InvalidRequestException.class)
        .hasMessageContaining("dimension must be");
  }

  @Test
  void readsTimeoutsInSeveralForms() {
    for (String t : List.of("30", "2.5", "500ms", "30s", "1m", "PT30S")) {
      embedder("/v1", "timeout", t).close();
    }
  }

  @Test
  void isFoundByNameAndHidesTheKey() {
    Embedder e =
        Providers.embedder(
            "openai", Map.of("url", base + "/v1", "model", "stub-embed", "key", KEY));
    assertThat(e.modelId()).isEqualTo("stub-embed");
    assertThat(e.toString()).contains("stub-embed").doesNotContain(KEY);
    e.close();
    e.close(); // idempotent
    assertThatThrownBy(() -> e.embedQuery("x"))
        .isInstanceOf(MnemoException.class)
        .hasMessageContaining("closed");
  }
}

package dev.mnemo.server;

import com.fasterxml.jackson.databind.JsonNode;
import dev.mnemo.Mnemo;
import dev.mnemo.json.JsonCodec;
import dev.mnemo.store.lucene.LuceneMemoryStore;
import dev.mnemo.testkit.HashingEmbedder;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.function.UnaryOperator;

/**
 * A real server on port 0 over Lucene stores with the hashing embedder, and a small HTTP client.
 */
final class TestServer implements AutoCloseable {
  static final String ADMIN = "test-admin-key-0123456789abcdef0123456789";

  final MnemoServer server;
  final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  final String base;

  TestServer(Path dir) {
    this(dir, c -> c, b -> b);
  }

  TestServer(
      Path dir, UnaryOperator<ServerConfig> config, UnaryOperator<MnemoServer.Builder> builder) {
    this(
        builder
            .apply(
                MnemoServer.builder(
                    config.apply(
                        ServerConfig.defaults()
                            .withPort(0)
                            .withData(dir)
                            .withAdminKey(ADMIN)
                            .withLogRequests(false)),
                    TestServer::engine))
            .build()
            .start());
  }

  /** A client of a server in another process; {@link #server} is null. */
  TestServer(String base) {
    this.server = null;
    this.base = base;
  }

  /** Wraps a started server. */
  TestServer(MnemoServer server) {
    this.server = server;
    this.base = "http://127.0.0.1:" + server.port();
  }

  static Mnemo engine(String tenant, Path dir, int maxTextChars) {
    return Mnemo.builder()
        .store(LuceneMemoryStore.open(dir))
        .embedder(new HashingEmbedder())
        .maxTextChars(maxTextChars)
        .build();
  }

  /** A new key of {@code tenant}. */
  String key(String tenant) {
    Response r = send("POST", "/v1/tenants/" + tenant + "/keys", ADMIN, null);
    if (r.status() != 201) throw new AssertionError("key for " + tenant + ": " + r);
    return r.json().get("key").asText();
  }

  record Response(int status, String contentType, String body, java.net.http.HttpHeaders headers) {
    JsonNode json() {
      try {
        return JsonCodec.READER.readTree(body);
      } catch (IOException e) {
        throw new AssertionError("not JSON: " + body, e);
      }
    }

    @Override
    public String toString() {
      return status + " " + contentType + " " + body;
    }
  }

  Response send(String method, String path, String key, String body) {
    return send(method, path, key, body, "application/json");
  }

  Response send(String method, String path, String key, String body, String contentType) {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(30));
    if (key != null) b.header("Authorization", "Bearer " + key);
    if (body != null && contentType != null) b.header("Content-Type", contentType);
    b.method(
        method,
        body == null
            ? HttpRequest.BodyPublishers.noBody()
            : HttpRequest.BodyPublishers.ofString(body));
    try {
      HttpResponse<String> r = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
      return new Response(
          r.statusCode(), r.headers().firstValue("Content-Type").orElse(""), r.body(), r.headers());
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  @Override
  public void close() {
    if (server != null) server.close();
  }
}

package dev.mnemo.client;

import dev.mnemo.Mnemo;
import dev.mnemo.json.JsonCodec;
import dev.mnemo.server.MnemoServer;
import dev.mnemo.server.ServerConfig;
import dev.mnemo.store.lucene.LuceneMemoryStore;
import dev.mnemo.testkit.HashingEmbedder;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;

/** The real REST server, in-process on a free port over Lucene stores with the hashing embedder. */
final class LocalServer implements AutoCloseable {
  static final String ADMIN = "client-test-admin-key-0123456789abcdef01234";

  final MnemoServer server;
  final String url;

  LocalServer(Path dir) {
    this.server =
        MnemoServer.builder(
                ServerConfig.defaults()
                    .withPort(0)
                    .withData(dir)
                    .withAdminKey(ADMIN)
                    .withLogRequests(false),
                (tenant, d, maxTextChars) ->
                    Mnemo.builder()
                        .store(LuceneMemoryStore.open(d))
                        .embedder(new HashingEmbedder())
                        .maxTextChars(maxTextChars)
                        .build())
            .build()
            .start();
    this.url = "http://127.0.0.1:" + server.port();
  }

  /** A new API key of {@code tenant}, issued with the admin key. */
  String key(String tenant) {
    try (HttpClient http = HttpClient.newHttpClient()) {
      HttpResponse<String> r =
          http.send(
              HttpRequest.newBuilder(URI.create(url + "/v1/tenants/" + tenant + "/keys"))
                  .header("Authorization", "Bearer " + ADMIN)
                  .POST(HttpRequest.BodyPublishers.noBody())
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      if (r.statusCode() != 201)
        throw new AssertionError("key for " + tenant + ": " + r.statusCode() + " " + r.body());
      return JsonCodec.READER.readTree(r.body()).get("key").asText();
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  /** A client of {@code tenant} with fast back-off. */
  MnemoClient client(String tenant) {
    return MnemoClient.builder().url(url).apiKey(key(tenant)).build();
  }

  @Override
  public void close() {
    server.close();
  }
}

package dev.mnemo.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.mnemo.Mnemo;
import dev.mnemo.server.MnemoServer;
import dev.mnemo.server.ServerConfig;
import dev.mnemo.store.lucene.LuceneMemoryStore;
import dev.mnemo.store.solr.SolrCollections;
import dev.mnemo.testkit.HashingEmbedder;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code mnemo serve --store solr}'s readiness: the server {@link ServeCommand#server} builds
 * reports the collection's health (as {@link SolrCollections#health} reads it from the cluster
 * state; NodeFailureIT checks that reading on a real cluster with a node stopped) under {@code
 * store} in {@code /health/ready}, ready while every shard has an active leader and 503 once one
 * has none.
 */
class ServeStoreHealthIT {
  private static final String ADMIN = "serve-store-health-it-admin-key-0123456789";
  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  @TempDir Path data;

  @Test
  void readiness_followsTheCollectionsHealth() throws Exception {
    AtomicReference<SolrCollections.Health> health =
        new AtomicReference<>(health(new int[] {2, 2, 1}, new int[] {2, 2, 1}));
    ServerConfig config =
        ServerConfig.defaults()
            .withPort(0)
            .withData(data)
            .withAdminKey(ADMIN)
            .withLogRequests(false);
    try (MnemoServer server =
        ServeCommand.server(
            config,
            () -> ServeCommand.storeHealth(health.get()),
            (tenant, dir, maxTextChars) ->
                Mnemo.builder()
                    .store(LuceneMemoryStore.open(dir))
                    .embedder(new HashingEmbedder())
                    .maxTextChars(maxTextChars)
                    .build())) {
      server.start();
      String url = "http://127.0.0.1:" + server.port() + "/health/ready";

      HttpResponse<String> ok = get(url);
      assertThat(ok.statusCode()).as(ok.body()).isEqualTo(200);
      JsonNode store = new ObjectMapper().readTree(ok.body()).get("store");
      assertThat(store.get("status").asText()).isEqualTo("serving");
      assertThat(store.at("/detail/live_nodes").asInt()).isEqualTo(2);
      assertThat(store.at("/detail/shards/shard1/active").asInt()).isEqualTo(2);

      // a node down: each shard still has a leader on the other node, so the server stays ready
      health.set(health(new int[] {1, 2, 1}, new int[] {1, 2, 1}));
      HttpResponse<String> degraded = get(url);
      assertThat(degraded.statusCode()).as(degraded.body()).isEqualTo(200);
      assertThat(new ObjectMapper().readTree(degraded.body()).at("/store/status").asText())
          .isEqualTo("degraded");

      // a shard without an active leader: its owners cannot be answered, a balancer should go
      health.set(health(new int[] {1, 2, 1}, new int[] {0, 2, 0}));
      HttpResponse<String> down = get(url);
      assertThat(down.statusCode()).as(down.body()).isEqualTo(503);
      assertThat(down.body()).contains("store-down").contains("down").contains("shard2");
      // a caller without the admin key (a load balancer) gets the status, not the layout
      HttpResponse<String> anonymous =
          HTTP.send(
              HttpRequest.newBuilder(URI.create(url)).build(),
              HttpResponse.BodyHandlers.ofString());
      assertThat(anonymous.statusCode()).isEqualTo(503);
      assertThat(anonymous.body()).contains("store-down").doesNotContain("shard2");
      health.set(health(new int[] {1, 2, 1}, new int[] {1, 2, 1}));
      HttpResponse<String> anonymousOk =
          HTTP.send(
              HttpRequest.newBuilder(URI.create(url)).build(),
              HttpResponse.BodyHandlers.ofString());
      assertThat(anonymousOk.statusCode()).isEqualTo(200);
      assertThat(anonymousOk.body()).contains("\"store\":{\"status\":\"degraded\"}");

      // a check that fails (ZooKeeper unreachable) is not ready either, with its message
      health.set(null);
      HttpResponse<String> unknown = get(url);
      assertThat(unknown.statusCode()).as(unknown.body()).isEqualTo(503);
      assertThat(unknown.body()).contains("unknown");
    }
  }

  private static SolrCollections.Health health(int[] shard1, int[] shard2) {
    return new SolrCollections.Health("mnemo", true, 2, Map.of("shard1", shard1, "shard2", shard2));
  }

  private static HttpResponse<String> get(String url) throws Exception {
    return HTTP.send(
        HttpRequest.newBuilder(URI.create(url)).header("Authorization", "Bearer " + ADMIN).build(),
        HttpResponse.BodyHandlers.ofString());
  }
}

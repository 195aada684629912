package dev.mnemo.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.mnemo.Mnemo;
import dev.mnemo.store.lucene.LuceneMemoryStore;
import dev.mnemo.testkit.HashingEmbedder;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.jetty.ee10.servlet.FilterHolder;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The SDK's client over streamable HTTP, against {@link McpEndpoint}'s servlet in an embedded Jetty
 * 12 on port 0, behind a stand-in for the REST server's Bearer-key filter. Two tenants share one
 * engine, kept apart by owner namespacing in their {@link MemoryAccess}.
 */
class HttpTransportIT {
  private static final Map<String, String> KEYS = Map.of("key-a", "tenant-a", "key-b", "tenant-b");

  @TempDir static Path data;
  private static Mnemo mnemo;
  private static Server jetty;
  private static String base;
  private static final AtomicInteger resolved = new AtomicInteger();

  /**
   * What the REST server's auth filter does: a known key sets the tenant attribute, anything else
   * is 401.
   */
  static final class BearerFilter implements Filter {
    @Override
    public void doFilter(ServletRequest req, ServletResponse resp, FilterChain chain)
        throws IOException, ServletException {
      String auth = ((HttpServletRequest) req).getHeader("Authorization");
      String tenant =
          auth != null && auth.startsWith("Bearer ") ? KEYS.get(auth.substring(7)) : null;
      if (tenant == null) {
        ((HttpServletResponse) resp).sendError(401);
        return;
      }
      req.setAttribute(McpEndpoint.TENANT_ATTRIBUTE, tenant);
      String principals = ((HttpServletRequest) req).getHeader("Mnemo-Principals");
      if (principals != null)
        req.setAttribute(McpEndpoint.PRINCIPALS_ATTRIBUTE, java.util.Set.of(principals.split(",")));
      chain.doFilter(req, resp);
    }
  }

  @BeforeAll
  static void start() throws Exception {
    mnemo =
        Mnemo.builder().store(LuceneMemoryStore.open(data)).embedder(new HashingEmbedder()).build();
    MemoryAccessResolver resolver =
        tenant -> {
          resolved.incrementAndGet();
          return new MemoryAccess() {
            @Override
            public Mnemo mnemo() {
              return mnemo;
            }

            @Override
            public String storedOwner(String owner) {
              return tenant + "/" + owner;
            }
          };
        };
    jetty = new Server();
    ServerConnector connector = new ServerConnector(jetty);
    connector.setHost("127.0.0.1");
    connector.setPort(0);
    jetty.addConnector(connector);
    ServletContextHandler context = new ServletContextHandler();
    ServletHolder guarded = new ServletHolder(McpEndpoint.servlet(resolver));
    guarded.setAsyncSupported(true);
    context.addServlet(guarded, McpEndpoint.PATH);
    FilterHolder auth = new FilterHolder(new BearerFilter());
    auth.setAsyncSupported(true);
    context.addFilter(auth, McpEndpoint.PATH, EnumSet.of(DispatcherType.REQUEST));
    // The same servlet mounted without the filter, as a misconfigured server would: it must refuse.
    ServletHolder open = new ServletHolder(McpEndpoint.servlet(resolver));
    open.setAsyncSupported(true);
    context.addServlet(open, "/unguarded" + McpEndpoint.PATH);
    jetty.setHandler(context);
    jetty.start();
    base = "http://127.0.0.1:" + connector.getLocalPort();
  }

  @AfterAll
  static void stop() throws Exception {
    if (jetty != null) jetty.stop();
    if (mnemo != null) mnemo.close();
  }

  private static McpSyncClient client(String key) {
    return client(HttpRequest.newBuilder().header("Authorization", "Bearer " + key));
  }

  private static McpSyncClient client(HttpRequest.Builder request) {
    var transport =
        HttpClientStreamableHttpTransport.builder(base)
            .endpoint(McpEndpoint.PATH)
            .requestBuilder(request)
            .build();
    McpSyncClient client =
        McpClient.sync(transport)
            .requestTimeout(Duration.ofSeconds(20))
            .initializationTimeout(Duration.ofSeconds(20))
            .build();
    client.initialize();
    return client;
  }

  @Test
  void http_sdkClient_listsAndCallsEveryTool() {
    try (McpSyncClient client = client("key-a")) {
      assertThat(client.getServerInfo().name()).isEqualTo("mnemo");
      ToolScenario.listsTheToolsWithSchemas(client);
      ToolScenario.lifecycle(client, "alice");
      ToolScenario.backfillAndAuthority(client, "lena");
      ToolScenario.emptyRecallIsAValidAnswer(client, "nobody");
      ToolScenario.invalidArgumentsAreToolErrorsAndWriteNothing(client, "carol");
      String used = ToolScenario.usageFeedback(client, "omar");
      ToolScenario.unknownIdsAreNamed(client, "ines", "tomas");
      // the feedback reached the record's counters: one heuristic mark and one explicit
      java.util.List<dev.mnemo.MemoryRecord> marked = new java.util.ArrayList<>();
      mnemo.export(
          null,
          r -> {
            if (r.text().equals(used)) marked.add(r);
          });
      assertThat(marked)
          .singleElement()
          .satisfies(
              r -> {
                assertThat(r.accessCount()).isEqualTo(2);
                assertThat(r.lastAccessedAt()).isNotNull();
              });
    }
    // Nothing of carol's invalid calls reached the store, under any owner id.
    java.util.List<String> owners = new java.util.ArrayList<>();
    mnemo.export(null, r -> owners.add(r.owner()));
    assertThat(owners).noneMatch(o -> o.endsWith("/carol"));
  }

  @Test
  void http_principalsOfTheRequest_decideWhichLabelledMemoriesARecallSees_andFreshnessPerRequest() {
    try (McpSyncClient anyone = client("key-a");
        McpSyncClient payments =
            client(
                HttpRequest.newBuilder()
                    .header("Authorization", "Bearer key-a")
                    .header("Mnemo-Principals", "team:payments"))) {
      ToolScenario.accessLabels(anyone, payments, "acme");
      ToolScenario.freshnessPerRequest(anyone, "lena-fresh");
    }
  }

  @Test
  void http_tenants_neverSeeOrDeleteEachOthersMemories() {
    try (McpSyncClient a = client("key-a");
        McpSyncClient b = client("key-b")) {
      JsonNode stored =
          ToolScenario.ok(
              a,
              "remember",
              Map.of(
                  "owner",
                  "bob",
                  "text",
                  "Bob is allergic to peanuts.",
                  "fact_key",
                  "allergy",
                  "importance",
                  0.9));
      assertThat(stored.get("owner").asText()).as("the namespace stays hidden").isEqualTo("bob");
      assertThat(mnemo.get("tenant-a/bob", stored.get("id").asText())).isPresent();

      JsonNode other =
          ToolScenario.ok(
              b, "recall", Map.of("owner", "bob", "query", "Is Bob allergic to anything?"));
      assertThat(other.get("ids")).isEmpty();
      assertThat(
              ToolScenario.ok(b, "history", Map.of("owner", "bob", "fact_key", "allergy"))
                  .get("versions"))
          .isEmpty();
      JsonNode forgot =
          ToolScenario.ok(b, "forget", Map.of("owner", "bob", "id", stored.get("id").asText()));
      assertThat(forgot.get("deleted").asInt()).isZero();
      assertThat(forgot.get("unknown").get(0).asText())
          .as("another tenant's id is unknown, not deleted")
          .isEqualTo(stored.get("id").asText());
      JsonNode used =
          ToolScenario.ok(
              b, "mark_used", Map.of("owner", "bob", "ids", List.of(stored.get("id").asText())));
      assertThat(used.get("used")).isEmpty();
      assertThat(used.get("unknown").get(0).asText()).isEqualTo(stored.get("id").asText());
      assertThat(
              ToolScenario.ok(b, "forget", Map.of("owner", "bob", "confirm_all", true))
                  .get("deleted")
                  .asInt())
          .isZero();

      JsonNode own =
          ToolScenario.ok(
              a, "recall", Map.of("owner", "bob", "query", "Is Bob allergic to anything?"));
      assertThat(own.get("block").asText()).contains("Bob is allergic to peanuts.");
    }
  }

  /**
   * A raw streamable-HTTP call: POST (or another method) with the key and an optional session id.
   */
  static HttpResponse<String> raw(String method, String key, String session, String body)
      throws Exception {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(URI.create(base + McpEndpoint.PATH))
            .header("Authorization", "Bearer " + key)
            .header("Content-Type", "application/json")
            .header("Accept", "application/json, text/event-stream")
            .timeout(Duration.ofSeconds(20));
    if (session != null) b.header("Mcp-Session-Id", session);
    b.method(
        method,
        body == null
            ? HttpRequest.BodyPublishers.noBody()
            : HttpRequest.BodyPublishers.ofString(body));
    return HttpClient.newHttpClient().send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  static final String INITIALIZE =
      "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":"
          + "{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}";

  /** Opens a session with {@code key}; returns its id. */
  static String session(String key) throws Exception {
    HttpResponse<String> init = raw("POST", key, null, INITIALIZE);
    assertThat(init.statusCode()).as(init.body()).isEqualTo(200);
    String id = init.headers().firstValue("Mcp-Session-Id").orElseThrow();
    assertThat(
            raw("POST", key, id, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}")
                .statusCode())
        .isBetween(200, 299);
    return id;
  }

  @Test
  void http_aSession_isBoundToTheKeyThatOpenedIt() throws Exception {
    String a = session("key-a");
    HttpResponse<String> stolenStream = raw("GET", "key-b", a, null);
    assertThat(stolenStream.statusCode()).isEqualTo(404);
    assertThat(stolenStream.headers().firstValue("Content-Type").orElse(""))
        .startsWith("application/problem+json");
    assertThat(raw("DELETE", "key-b", a, null).statusCode()).isEqualTo(404);
    HttpResponse<String> call =
        raw("POST", "key-b", a, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}");
    assertThat(call.statusCode()).isEqualTo(404);
    // the owner's session is untouched
    HttpResponse<String> own =
        raw("POST", "key-a", a, "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/list\"}");
    assertThat(own.statusCode()).as(own.body()).isEqualTo(200);
    assertThat(own.body()).contains("remember");
    assertThat(raw("DELETE", "key-a", a, null).statusCode()).isBetween(200, 299);
  }

  @Test
  void http_malformedMessages_getProtocolErrors_neverAStackTrace() throws Exception {
    String s = session("key-a");
    for (String body : McpCorpus.MALFORMED) {
      HttpResponse<String> r = raw("POST", "key-a", s, body);
      assertThat(r.statusCode()).as(body + " -> " + r.body()).isLessThan(500);
      assertThat(r.body()).as(body).doesNotContain("\tat ", "Exception", ".java:");
    }
  }

  @Test
  void http_anExtremeDate_isAToolErrorNamingTheField_andWritesNothing() {
    try (McpSyncClient client = client("key-a")) {
      var r =
          client.callTool(
              io.modelcontextprotocol.spec.McpSchema.CallToolRequest.builder("remember")
                  .arguments(
                      Map.of(
                          "owner", "dora", "text", "x", "valid_from", "-999999999-01-01T00:00:00Z"))
                  .build());
      assertThat(r.isError()).isTrue();
      assertThat(r.content().toString()).contains("valid_from");
    }
    java.util.List<String> owners = new java.util.ArrayList<>();
    mnemo.export(null, rec -> owners.add(rec.owner()));
    assertThat(owners).noneMatch(o -> o.endsWith("/dora"));
  }

  @Test
  void http_argumentsAsAString_isAnError_notAnEmptyReply() throws Exception {
    String s = session("key-a");
    HttpResponse<String> r =
        raw(
            "POST",
            "key-a",
            s,
            "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\","
                + "\"params\":{\"name\":\"remember\",\"arguments\":\"{\\\"owner\\\":\\\"x\\\",\\\"text\\\":\\\"y\\\"}\"}}");
    assertThat(r.body()).as(r.body()).contains("\"error\"").contains("arguments");
    assertThat(r.body()).doesNotContain("\tat ", ".java:");
  }

  @Test
  void http_unknownKey_isRefusedBeforeMcp() {
    assertThatThrownBy(() -> client("wrong-key")).isInstanceOf(RuntimeException.class);
  }

  @Test
  void http_servletWithoutAuthentication_refusesWith401() throws Exception {
    int before = resolved.get();
    HttpResponse<String> r =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(URI.create(base + "/unguarded/mcp"))
                    .header("Content-Type", "application/json")
                    .header("Accept", "application/json, text/event-stream")
                    .POST(
                        HttpRequest.BodyPublishers.ofString(
                            "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":"
                                + "{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}"))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
    assertThat(r.statusCode()).isEqualTo(401);
    assertThat(r.headers().firstValue("WWW-Authenticate")).hasValue("Bearer");
    assertThat(resolved.get()).isEqualTo(before);
  }
}

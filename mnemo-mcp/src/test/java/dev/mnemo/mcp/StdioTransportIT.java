package dev.mnemo.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.json.McpJsonDefaults;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.assertj.core.api.InstanceOfAssertFactories;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The SDK's client talks to a real child JVM running the stdio server ({@link StdioTestServer}).
 */
class StdioTransportIT {

  @TempDir Path data;
  private final List<String> stderr = new CopyOnWriteArrayList<>();

  private McpSyncClient start(String... extraArgs) {
    List<String> args =
        new ArrayList<>(
            List.of(
                "-cp",
                System.getProperty("java.class.path"),
                "-XX:TieredStopAtLevel=1",
                "-Xmx256m",
                "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn",
                StdioTestServer.class.getName(),
                data.toString()));
    args.addAll(List.of(extraArgs));
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    var transport =
        new StdioClientTransport(
            ServerParameters.builder(java).args(args).build(), McpJsonDefaults.getMapper());
    transport.setStdErrorHandler(stderr::add);
    McpSyncClient client =
        McpClient.sync(transport)
            .requestTimeout(Duration.ofSeconds(30))
            .initializationTimeout(Duration.ofSeconds(30))
            .build();
    client.initialize();
    return client;
  }

  @Test
  void stdio_sdkClient_listsAndCallsEveryTool() {
    try (McpSyncClient client = start()) {
      assertThat(client.getServerInfo().name()).isEqualTo("mnemo");
      assertThat(client.getServerInstructions()).contains("call recall");
      ToolScenario.listsTheToolsWithSchemas(client);
      ToolScenario.lifecycle(client, "alice");
      ToolScenario.emptyRecallIsAValidAnswer(client, "nobody");
      ToolScenario.usageFeedback(client, "omar");
      ToolScenario.unknownIdsAreNamed(client, "ines", "tomas");
      ToolScenario.invalidArgumentsAreToolErrorsAndWriteNothing(client, "carol");
    }
    // The server printed a stray line after claiming stdout: it went to stderr, and the protocol
    // held.
    assertThat(stderr).contains("stray output that must not reach the MCP client");
  }

  @Test
  void stdio_withDefaultOwner_ownerIsOptionalAndDefaults() {
    try (McpSyncClient client = start("me")) {
      var remember = client.listTools().tools().get(0);
      assertThat(remember.inputSchema().get("required"))
          .asInstanceOf(InstanceOfAssertFactories.LIST)
          .containsExactly("text");
      JsonNode r =
          ToolScenario.ok(
              client, "remember", Map.of("text", "I prefer tea to coffee.", "fact_key", "drink"));
      assertThat(r.get("owner").asText()).isEqualTo("me");
      JsonNode h = ToolScenario.ok(client, "history", Map.of("owner", "me", "fact_key", "drink"));
      assertThat(h.get("versions")).hasSize(1);
    }
  }

  /** Hostile values for any tool argument: strings, numbers, collections and nulls. */
  static List<Object> hostileValues() {
    List<Object> out =
        new ArrayList<>(
            List.of(
                "",
                " ",
                "\u0000",
                "a\u0000b",
                "admin\u202Egnp",
                "zero\u200Bwidth",
                "\uFEFF",
                "\ud800",
                "line\nbreak",
                "x".repeat(10_000),
                "w ".repeat(5_000),
                "-1000000000-01-01T00:00:00Z",
                "+1000000000-12-31T23:59:59Z",
                "9999-12-31T23:59:59.999999999Z",
                "0000-00-00",
                "*",
                "owner:*",
                "a AND (",
                -1,
                0,
                Long.MAX_VALUE,
                1e308,
                -1e308,
                true,
                List.of(),
                List.of("x".repeat(5_000)),
                Map.of(),
                Map.of("k", List.of(1))));
    List<String> manyStrings = new ArrayList<>();
    Map<String, Object> manyEntries = new java.util.HashMap<>();
    for (int i = 0; i < 2_000; i++) {
      manyStrings.add("v" + i);
      manyEntries.put("k" + i, "v");
    }
    out.add(manyStrings);
    out.add(manyEntries);
    out.add(null);
    return out;
  }

  /**
   * Every tool the server lists, each of its arguments (from the tool's own input schema, so a new
   * argument is covered without editing this test) given each hostile value in turn, the others
   * valid: every answer is a result or a tool error naming what is wrong, never an internal or a
   * store failure, and the server serves on.
   */
  @Test
  void stdio_everyArgumentOfEveryTool_takesTheHostileCorpus_withoutAnInternalError() {
    Map<String, Map<String, Object>> base =
        Map.of(
            "remember", Map.of("owner", "h", "text", "Hostile base record."),
            "recall", Map.of("owner", "h", "query", "base"),
            "history", Map.of("owner", "h", "fact_key", "k"),
            "forget", Map.of("owner", "h", "id", "no-such-id"),
            "mark_used", Map.of("owner", "h", "ids", List.of("no-such-id")));
    List<String> failures = new ArrayList<>();
    int calls = 0;
    try (McpSyncClient client = start()) {
      List<io.modelcontextprotocol.spec.McpSchema.Tool> tools = client.listTools().tools();
      assertThat(tools)
          .extracting(t -> t.name())
          .containsExactlyInAnyOrderElementsOf(base.keySet());
      for (var tool : tools) {
        @SuppressWarnings("unchecked")
        Map<String, Object> props = (Map<String, Object>) tool.inputSchema().get("properties");
        assertThat(props).as(tool.name()).isNotEmpty();
        for (String arg : props.keySet()) {
          for (Object v : hostileValues()) {
            Map<String, Object> args = new java.util.HashMap<>(base.get(tool.name()));
            args.put(arg, v);
            String what = tool.name() + "." + arg + "=" + abbreviate(String.valueOf(v));
            calls++;
            try {
              var r =
                  client.callTool(
                      io.modelcontextprotocol.spec.McpSchema.CallToolRequest.builder(tool.name())
                          .arguments(args)
                          .build());
              String text =
                  ((io.modelcontextprotocol.spec.McpSchema.TextContent) r.content().get(0)).text();
              if (Boolean.TRUE.equals(r.isError())) {
                JsonNode structured = dev.mnemo.json.JsonCodec.tree(r.structuredContent());
                String code = structured.path("error").asText("");
                if (code.equals("internal") || code.equals("failed") || text.contains("\tat "))
                  failures.add(what + " -> " + abbreviate(text));
              }
            } catch (RuntimeException e) {
              failures.add(what + " -> " + e);
            }
          }
        }
      }
      assertThat(failures).as(failures.size() + " of " + calls + " calls").isEmpty();
      assertThat(calls).isGreaterThan(300);
      // still serving
      JsonNode r = ToolScenario.ok(client, "remember", Map.of("owner", "h", "text", "Still here."));
      assertThat(r.get("id").asText()).isNotBlank();
    }
  }

  private static String abbreviate(String s) {
    return s.length() > 120 ? s.substring(0, 120) + "..." : s;
  }

  /**
   * Raw lines to the child's stdin, replies read from its stdout: what the SDK's client never
   * sends.
   */
  @Test
  void stdio_malformedLines_getJsonRpcErrors_neverAStackTrace_andTheServerServesOn()
      throws Exception {
    String javaCmd = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    Process p =
        new ProcessBuilder(
                javaCmd,
                "-cp",
                System.getProperty("java.class.path"),
                "-XX:TieredStopAtLevel=1",
                "-Xmx256m",
                "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn",
                StdioTestServer.class.getName(),
                data.toString())
            .start();
    java.util.concurrent.BlockingQueue<String> replies =
        new java.util.concurrent.LinkedBlockingQueue<>();
    StringBuffer err = new StringBuffer();
    Thread.ofPlatform()
        .daemon()
        .start(
            () -> {
              try (var r =
                  new java.io.BufferedReader(
                      new java.io.InputStreamReader(
                          p.getInputStream(), java.nio.charset.StandardCharsets.UTF_8))) {
                for (String l; (l = r.readLine()) != null; ) replies.add(l);
              } catch (java.io.IOException ignored) {
                // the process ended
              }
            });
    Thread.ofPlatform()
        .daemon()
        .start(
            () -> {
              try {
                err.append(
                    new String(
                        p.getErrorStream().readAllBytes(),
                        java.nio.charset.StandardCharsets.UTF_8));
              } catch (java.io.IOException ignored) {
                // the process ended
              }
            });
    var mapper = new com.fasterxml.jackson.databind.ObjectMapper();
    java.io.OutputStream in = p.getOutputStream();
    try {
      send(
          in,
          "{\"jsonrpc\":\"2.0\",\"id\":\"init\",\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\","
              + "\"capabilities\":{},\"clientInfo\":{\"name\":\"raw\",\"version\":\"1\"}}}");
      assertThat(
              mapper.readTree(next(replies)).get("result").get("serverInfo").get("name").asText())
          .isEqualTo("mnemo");
      send(in, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");

      List<byte[]> lines = new ArrayList<>();
      for (String m : McpCorpus.MALFORMED)
        if (!m.isBlank()) lines.add(m.getBytes(java.nio.charset.StandardCharsets.UTF_8));
      for (String m :
          List.of(
              "not json at all",
              "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":\"remember\",\"arguments\":{\"owner\":42,\"text\":[\"x\"]}}}",
              "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{\"name\":\"recall\",\"arguments\":{\"owner\":\"o\",\"query\":{\"q\":1},\"limit\":\"ten\"}}}",
              "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"tools/call\",\"params\":{\"name\":\"forget\",\"arguments\":{\"owner\":true}}}",
              "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"tools/call\",\"params\":{\"name\":\"history\",\"arguments\":{\"owner\":\"o\",\"fact_key\":null}}}",
              "{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"tools/call\",\"params\":{\"name\":\"remember\",\"arguments\":\"{\\\"owner\\\":\\\"x\\\"}\"}}",
              "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\",\"params\":{\"name\":\"remember\",\"arguments\":{\"owner\":\"o\",\"text\":\"x\",\"text\":\"y\"}}}")) {
        lines.add(m.getBytes(java.nio.charset.StandardCharsets.UTF_8));
      }
      lines.add(
          new byte[] {'{', '"', (byte) 0xC0, (byte) 0xAF, '"', ':', '1', '}'}); // invalid UTF-8
      // a line of 2 MiB: refused without being held
      lines.add(
          ("{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"tools/call\",\"params\":{\"name\":\"remember\",\"arguments\":"
                  + "{\"owner\":\"o\",\"text\":\""
                  + "x".repeat(2 << 20)
                  + "\"}}}")
              .getBytes(java.nio.charset.StandardCharsets.UTF_8));

      int errors = 0;
      for (byte[] line : lines) {
        String what =
            new String(
                line, 0, Math.min(line.length, 160), java.nio.charset.StandardCharsets.UTF_8);
        in.write(line);
        in.write('\n');
        in.flush();
        String reply = next(replies);
        assertThat(reply).as(what).doesNotContain("\tat ", "Exception", ".java:");
        JsonNode r = mapper.readTree(reply);
        assertThat(r.get("jsonrpc").asText()).isEqualTo("2.0");
        boolean error =
            r.has("error")
                && r.get("error").get("code").isInt()
                && !r.get("error").get("message").asText().isBlank();
        boolean toolError = r.has("result") && r.get("result").path("isError").asBoolean(false);
        assertThat(error || toolError).as(what + " -> " + reply).isTrue();
        errors++;
      }
      assertThat(errors).isEqualTo(lines.size());
      send(in, "");
      send(in, "   \r");

      // still serving: a good call after all that writes, and recall finds it
      send(
          in,
          "{\"jsonrpc\":\"2.0\",\"id\":\"ok1\",\"method\":\"tools/call\",\"params\":{\"name\":\"remember\",\"arguments\":"
              + "{\"owner\":\"erin\",\"text\":\"Erin keeps bees.\"}}}");
      JsonNode ok = mapper.readTree(next(replies));
      assertThat(ok.get("id").asText()).isEqualTo("ok1");
      assertThat(ok.get("result").path("isError").asBoolean(false)).as(ok.toString()).isFalse();
      send(
          in,
          "{\"jsonrpc\":\"2.0\",\"id\":\"ok2\",\"method\":\"tools/call\",\"params\":{\"name\":\"recall\",\"arguments\":"
              + "{\"owner\":\"erin\",\"query\":\"What does Erin keep?\"}}}");
      JsonNode recalled = mapper.readTree(next(replies));
      assertThat(recalled.get("id").asText()).isEqualTo("ok2");
      assertThat(recalled.toString()).contains("Erin keeps bees.");
      // the malformed writes wrote nothing
      assertThat(recalled.toString()).doesNotContain("xxxxxxxx");
      in.close();
      assertThat(p.waitFor(20, java.util.concurrent.TimeUnit.SECONDS))
          .as("exits when stdin ends")
          .isTrue();
      assertThat(p.exitValue()).isZero();
      assertThat(replies).isEmpty();
      assertThat(err.toString()).as("stderr").doesNotContain("\tat ");
    } finally {
      p.destroyForcibly();
    }
  }

  private static void send(java.io.OutputStream in, String line) throws java.io.IOException {
    in.write((line + "\n").getBytes(java.nio.charset.StandardCharsets.UTF_8));
    in.flush();
  }

  private static String next(java.util.concurrent.BlockingQueue<String> replies)
      throws InterruptedException {
    String r = replies.poll(30, java.util.concurrent.TimeUnit.SECONDS);
    assertThat(r).as("a reply within 30 s").isNotNull();
    return r;
  }
}

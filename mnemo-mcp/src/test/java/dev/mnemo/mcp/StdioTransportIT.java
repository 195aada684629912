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

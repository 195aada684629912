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

/** The SDK's client talks to a real child JVM running the stdio server ({@link StdioTestServer}). */
class StdioTransportIT {

  @TempDir Path data;
  private final List<String> stderr = new CopyOnWriteArrayList<>();

  private McpSyncClient start(String... extraArgs) {
    List<String> args = new ArrayList<>(List.of("-cp", System.getProperty("java.class.path"),
        "-XX:TieredStopAtLevel=1", "-Xmx256m", "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn",
        StdioTestServer.class.getName(), data.toString()));
    args.addAll(List.of(extraArgs));
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    var transport = new StdioClientTransport(ServerParameters.builder(java).args(args).build(), McpJsonDefaults.getMapper());
    transport.setStdErrorHandler(stderr::add);
    McpSyncClient client = McpClient.sync(transport)
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
    // The server printed a stray line after claiming stdout: it went to stderr, and the protocol held.
    assertThat(stderr).contains("stray output that must not reach the MCP client");
  }

  @Test
  void stdio_withDefaultOwner_ownerIsOptionalAndDefaults() {
    try (McpSyncClient client = start("me")) {
      var remember = client.listTools().tools().get(0);
      assertThat(remember.inputSchema().get("required")).asInstanceOf(InstanceOfAssertFactories.LIST).containsExactly("text");
      JsonNode r = ToolScenario.ok(client, "remember", Map.of("text", "I prefer tea to coffee.", "fact_key", "drink"));
      assertThat(r.get("owner").asText()).isEqualTo("me");
      JsonNode h = ToolScenario.ok(client, "history", Map.of("owner", "me", "fact_key", "drink"));
      assertThat(h.get("versions")).hasSize(1);
    }
  }
}

package dev.mnemo.cli;

import dev.mnemo.Mnemo;
import dev.mnemo.mcp.McpStdio;
import dev.mnemo.mcp.MemoryAccess;
import java.io.PrintStream;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * Serves the memory tools to an MCP client (Claude Desktop, an IDE, an agent framework) that starts
 * this process: JSON-RPC on stdin/stdout, one local user, the store in {@code --data}.
 */
@Command(
    name = "mcp",
    mixinStandardHelpOptions = true,
    description = {
      "Serve the memory tools (remember, recall, history, forget, mark_used) to an MCP client over stdio.",
      "stdout carries the protocol and logs go to stderr; the server stops when the client closes stdin."
    })
final class McpCommand implements Callable<Integer> {
  @Mixin EngineOptions engine;

  @Option(
      names = "--owner",
      paramLabel = "OWNER",
      description =
          "Owner of the tool calls that name none, for a single-user setup (default: every call must name its owner).")
  String owner;

  @Option(
      names = "--principals",
      paramLabel = "LABEL",
      split = ",",
      description =
          "The caller's principals every recall runs with (team:NAME, role:NAME, person:NAME, comma-separated): "
              + "a memory with access labels is recalled only for one of them (default: only memories without labels).")
  java.util.List<String> principals = new java.util.ArrayList<>();

  @Override
  public Integer call() {
    // First, before the engine or the embedder can print anything: stdout is the protocol.
    java.util.List<dev.mnemo.InvalidRequestException.Violation> bad = new java.util.ArrayList<>();
    dev.mnemo.Access.check("--principals", principals, dev.mnemo.Access.MAX_PRINCIPALS, bad);
    if (!bad.isEmpty()) throw new dev.mnemo.InvalidRequestException(bad);
    PrintStream protocol = McpStdio.claimStdout();
    try (Mnemo mnemo = engine.open()) {
      McpStdio.serve(
          MemoryAccess.of(mnemo, java.util.Set.copyOf(principals)), owner, System.in, protocol);
    } finally {
      engine.closeEmbedder();
    }
    return 0;
  }
}

package dev.mnemo.mcp;

import dev.mnemo.Mnemo;
import dev.mnemo.store.lucene.LuceneMemoryStore;
import dev.mnemo.testkit.HashingEmbedder;
import java.io.PrintStream;
import java.nio.file.Path;

/**
 * The stdio server as {@code mnemo mcp} runs it, minus the CLI: a Lucene store in {@code args[0]}
 * with the deterministic {@link HashingEmbedder}, so that a test can start it as a child process.
 * Optional {@code args[1]}: the default owner.
 */
public final class StdioTestServer {
  private StdioTestServer() {}

  public static void main(String[] args) {
    PrintStream protocol = McpStdio.claimStdout();
    // A library printing to stdout must not corrupt the protocol: this line goes to stderr.
    System.out.println("stray output that must not reach the MCP client");
    try (Mnemo mnemo =
        Mnemo.builder()
            .store(LuceneMemoryStore.open(Path.of(args[0])))
            .embedder(new HashingEmbedder())
            .build()) {
      McpStdio.serve(MemoryAccess.of(mnemo), args.length > 1 ? args[1] : null, System.in, protocol);
    }
    System.exit(0);
  }
}

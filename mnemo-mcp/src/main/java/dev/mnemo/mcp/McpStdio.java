package dev.mnemo.mcp;

import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.transport.StdioServerTransportProvider;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;

/**
 * The MCP server on stdio: one local caller (an MCP client that started this process) speaking
 * newline-delimited JSON-RPC on stdin and stdout.
 *
 * <p>Contract: {@link #serve} blocks until the input ends (the client closed it or exited), then
 * closes the session and waits up to five seconds for tool calls still running, so that the caller
 * may close the engine as soon as it returns. It never closes the engine or the streams. stdout
 * belongs to the protocol: a single stray line of text corrupts it, which is why a process should
 * call {@link #claimStdout()} before anything else can print. Logs go through SLF4J; point the
 * binding at stderr (slf4j-simple's default).
 */
public final class McpStdio {
  private static final Duration GRACE = Duration.ofSeconds(5);

  private McpStdio() {}

  /**
   * Reserves the process's stdout for the protocol: returns it and points {@link System#out} at
   * stderr, so that whatever else prints (a library's banner, a stray debug line) cannot corrupt
   * the stream.
   */
  public static PrintStream claimStdout() {
    PrintStream protocol = System.out;
    System.setOut(System.err);
    return protocol;
  }

  /**
   * Serves the tools on {@code in}/{@code out} until {@code in} ends.
   *
   * @param access the engine and owners this server exposes
   * @param defaultOwner the owner of calls that name none, or null to make {@code owner} required
   */
  public static void serve(MemoryAccess access, String defaultOwner, InputStream in, OutputStream out) {
    Objects.requireNonNull(access, "access");
    CountDownLatch ended = new CountDownLatch(1);
    var transport = new StdioServerTransportProvider(McpJsonDefaults.getMapper(),
        new EndSignallingInputStream(in, ended), out);
    MemoryTools.Served served = MemoryTools.serve(McpServer.sync(transport), new ToolCatalog(defaultOwner), ctx -> access);
    try {
      ended.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      served.close(GRACE);
    }
  }

  /** Counts a latch down when the stream ends or fails: the SDK's transport has no close callback. */
  private static final class EndSignallingInputStream extends FilterInputStream {
    private final CountDownLatch ended;

    EndSignallingInputStream(InputStream in, CountDownLatch ended) {
      super(Objects.requireNonNull(in, "in"));
      this.ended = ended;
    }

    @Override
    public int read() throws IOException {
      return signal(() -> super.read());
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      return signal(() -> super.read(b, off, len));
    }

    private interface Read {
      int run() throws IOException;
    }

    private int signal(Read read) throws IOException {
      try {
        int n = read.run();
        if (n < 0) ended.countDown();
        return n;
      } catch (IOException | RuntimeException e) {
        ended.countDown();
        throw e;
      }
    }
  }
}

package dev.mnemo.mcp;

import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.transport.StdioServerTransportProvider;
import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;

/**
 * The MCP server on stdio: one local caller (an MCP client that started this process) speaking
 * newline-delimited JSON-RPC on stdin and stdout. Malformed lines (not JSON, not one JSON-RPC
 * message, arguments of the wrong type, longer than {@link #MAX_LINE_BYTES}) get a JSON-RPC error
 * and the server reads on; no stack trace reaches stdout.
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
   * The longest message line taken (as the HTTP transport's body limit); a longer one is refused
   * unread.
   */
  static final int MAX_LINE_BYTES = 1 << 20;

  /**
   * Serves the tools on {@code in}/{@code out} until {@code in} ends. Each line is checked before
   * the SDK sees it ({@link McpMessages}): a line that is not one well-formed JSON-RPC message, or
   * is longer than {@link #MAX_LINE_BYTES}, gets a JSON-RPC error line and the next line is read;
   * blank lines are skipped.
   *
   * @param access the engine and owners this server exposes
   * @param defaultOwner the owner of calls that name none, or null to make {@code owner} required
   */
  public static void serve(
      MemoryAccess access, String defaultOwner, InputStream in, OutputStream out) {
    Objects.requireNonNull(access, "access");
    CountDownLatch ended = new CountDownLatch(1);
    LineOutput lines = new LineOutput(Objects.requireNonNull(out, "out"));
    var transport =
        new StdioServerTransportProvider(
            McpJsonDefaults.getMapper(),
            new CheckedLines(Objects.requireNonNull(in, "in"), lines, ended),
            lines);
    MemoryTools.Served served =
        MemoryTools.serve(McpServer.sync(transport), new ToolCatalog(defaultOwner), ctx -> access);
    try {
      ended.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      served.close(GRACE);
    }
  }

  /**
   * The output as whole lines: the SDK's messages and this class's refusals are written by
   * different threads, and a refusal must never land inside one of the SDK's lines.
   */
  private static final class LineOutput extends OutputStream {
    private final OutputStream out;
    private final ByteArrayOutputStream pending = new ByteArrayOutputStream();

    LineOutput(OutputStream out) {
      this.out = out;
    }

    @Override
    public synchronized void write(int b) throws IOException {
      pending.write(b);
      if (b == '\n') emit();
    }

    @Override
    public synchronized void write(byte[] b, int off, int len) throws IOException {
      for (int i = off; i < off + len; i++) {
        pending.write(b[i]);
        if (b[i] == '\n') emit();
      }
    }

    private void emit() throws IOException {
      pending.writeTo(out);
      pending.reset();
      out.flush();
    }

    /** Writes one whole line of our own (no newline inside {@code line}). */
    synchronized void line(byte[] line) throws IOException {
      out.write(line);
      out.write('\n');
      out.flush();
    }

    @Override
    public synchronized void flush() throws IOException {
      out.flush();
    }
  }

  /**
   * The input the SDK reads: the lines of {@code in} that {@link McpMessages#check} lets through,
   * each ending in a newline. A refused line is answered here with a JSON-RPC error and never
   * reaches the SDK (which would log a stack trace or answer with nothing); a line longer than
   * {@link #MAX_LINE_BYTES} is skipped to its end without being held. Counts a latch down when the
   * stream ends or fails: the SDK's transport has no close callback. Read by the SDK's one inbound
   * thread.
   */
  private static final class CheckedLines extends InputStream {
    private final InputStream in;
    private final LineOutput replies;
    private final CountDownLatch ended;
    private byte[] line = new byte[0];
    private int pos;
    private boolean eof;

    CheckedLines(InputStream in, LineOutput replies, CountDownLatch ended) {
      this.in = in instanceof BufferedInputStream ? in : new BufferedInputStream(in);
      this.replies = replies;
      this.ended = ended;
    }

    @Override
    public int read() throws IOException {
      if (!fill()) return -1;
      return line[pos++] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      if (len == 0) return 0;
      if (!fill()) return -1;
      int n = Math.min(len, line.length - pos);
      System.arraycopy(line, pos, b, off, n);
      pos += n;
      return n;
    }

    @Override
    public int available() {
      return line.length - pos;
    }

    /** Makes sure a line passed to the SDK has bytes left; false at the end of the input. */
    private boolean fill() throws IOException {
      try {
        while (pos >= line.length) {
          if (eof) {
            ended.countDown();
            return false;
          }
          nextLine();
        }
        return true;
      } catch (IOException | RuntimeException e) {
        ended.countDown();
        throw e;
      }
    }

    /** Reads one line of {@code in}: passes it on, answers it, or skips it. */
    private void nextLine() throws IOException {
      ByteArrayOutputStream buf = new ByteArrayOutputStream();
      boolean tooLong = false;
      int c;
      while ((c = in.read()) != -1 && c != '\n') {
        if (tooLong) continue;
        if (buf.size() >= MAX_LINE_BYTES) {
          tooLong = true;
          buf = new ByteArrayOutputStream();
        } else {
          buf.write(c);
        }
      }
      if (c == -1) eof = true;
      if (tooLong) {
        replies.line(
            new McpMessages.Refusal(
                    McpMessages.INVALID_REQUEST,
                    "Invalid request: a message may hold at most "
                        + MAX_LINE_BYTES
                        + " bytes; this line was longer and was not read",
                    null)
                .body());
        return;
      }
      byte[] bytes = buf.toByteArray();
      int end = bytes.length;
      if (end > 0 && bytes[end - 1] == '\r') end--;
      if (end == 0
          || new String(bytes, 0, end, java.nio.charset.StandardCharsets.ISO_8859_1).isBlank())
        return;
      byte[] message = java.util.Arrays.copyOf(bytes, end);
      McpMessages.Refusal refusal = McpMessages.check(message);
      if (refusal != null) {
        replies.line(refusal.body());
        return;
      }
      line = java.util.Arrays.copyOf(message, end + 1);
      line[end] = '\n';
      pos = 0;
    }
  }
}

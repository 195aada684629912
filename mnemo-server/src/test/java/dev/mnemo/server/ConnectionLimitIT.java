package dev.mnemo.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Connection limits on raw loopback sockets: {@code limits.max_connections} (past it the server
 * stops accepting until one closes) and {@code limits.idle_timeout_ms} (a connection on which no
 * request starts is closed, also one that keeps sending blank lines).
 */
class ConnectionLimitIT {
  @TempDir Path dir;

  private static TestServer server(Path dir, int maxConnections, Duration idle) {
    return new TestServer(
        dir, c -> c.withCapacity(new ServerConfig.Capacity(0, maxConnections, idle)), b -> b);
  }

  private Socket open(TestServer s) throws IOException {
    Socket sock = new Socket("127.0.0.1", s.server.port());
    sock.setSoTimeout(10_000);
    return sock;
  }

  private static final byte[] READY =
      "GET /health/live HTTP/1.1\r\nHost: localhost\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1);

  /**
   * The status line of one whole answer (headers and a Content-Length body read), "(closed)" when
   * the server closed the connection, or null when nothing came within {@code ms}.
   */
  private static String answer(Socket sock, int ms) throws IOException {
    sock.setSoTimeout(ms);
    InputStream in = sock.getInputStream();
    StringBuilder head = new StringBuilder();
    try {
      while (!head.toString().endsWith("\r\n\r\n")) {
        int c = in.read();
        if (c < 0) return head.isEmpty() ? "(closed)" : head.toString();
        head.append((char) c);
      }
    } catch (SocketTimeoutException e) {
      return head.isEmpty() ? null : head.toString();
    } catch (java.net.SocketException e) {
      return "(closed)"; // reset by the server
    }
    var m = java.util.regex.Pattern.compile("(?i)content-length: *(\\d+)").matcher(head);
    if (m.find()) in.readNBytes(Integer.parseInt(m.group(1)));
    return head.substring(0, head.indexOf("\r\n"));
  }

  @Test
  void pastMaxConnections_aNewConnectionWaits_untilOneCloses() throws Exception {
    int max = 4;
    // a long idle timeout: the held connections stay until the test closes them (the limit's own
    // short idle timeout applies only while the limit is reached, see below)
    try (TestServer s = server(dir, max, Duration.ofSeconds(30))) {
      List<Socket> held = new ArrayList<>();
      try {
        for (int i = 0; i < max; i++) {
          Socket sock = open(s);
          sock.getOutputStream().write(READY);
          assertThat(answer(sock, 5_000)).startsWith("HTTP/1.1 200");
          held.add(sock);
        }
        // the fifth: the kernel completes the handshake (backlog), the server does not accept
        try (Socket fifth = open(s)) {
          fifth.getOutputStream().write(READY);
          // at the limit Jetty gives the open connections a short idle timeout: they close
          // within about MnemoServer.CONNECTION_LIMIT_IDLE_MS, and the fifth is accepted then
          long t0 = System.nanoTime();
          String got = answer(fifth, 10_000);
          long ms = (System.nanoTime() - t0) / 1_000_000;
          System.out.printf("connection limit: the fifth connection answered after %d ms%n", ms);
          assertThat(got).startsWith("HTTP/1.1 200");
          assertThat(ms)
              .as("not accepted at once")
              .isGreaterThanOrEqualTo(MnemoServer.CONNECTION_LIMIT_IDLE_MS / 2);
          int closed = 0;
          for (Socket h : held) if ("(closed)".equals(answer(h, 5_000))) closed++;
          assertThat(closed).as("an idle held connection made room").isGreaterThanOrEqualTo(1);
        }
      } finally {
        for (Socket h : held) h.close();
      }
    }
  }

  @Test
  void aConnectionSendingOnlyBlankLines_isClosedAtTheIdleTimeout_whileRequestsKeepOneOpen()
      throws Exception {
    Duration idle = Duration.ofMillis(800);
    try (TestServer s = server(dir, 0, idle)) {
      try (Socket blank = open(s);
          Socket busy = open(s)) {
        OutputStream out = blank.getOutputStream();
        InputStream in = blank.getInputStream();
        blank.setSoTimeout(50);
        long t0 = System.nanoTime();
        long closedAfter = -1;
        int requests = 0;
        // at most 10 s: a blank line every 50 ms, a real request on the other connection every
        // 200 ms
        for (int i = 0; i < 200 && closedAfter < 0; i++) {
          try {
            out.write("\r\n".getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            if (in.read() < 0) closedAfter = (System.nanoTime() - t0) / 1_000_000;
          } catch (SocketTimeoutException e) {
            // nothing to read yet: still open
          } catch (IOException e) {
            closedAfter = (System.nanoTime() - t0) / 1_000_000; // reset by the server
          }
          if (i % 4 == 0) {
            busy.getOutputStream().write(READY);
            assertThat(answer(busy, 5_000)).startsWith("HTTP/1.1 200");
            requests++;
          }
        }
        System.out.printf(
            "idle timeout %d ms: a blank-line connection closed after %d ms; the other served %d"
                + " requests meanwhile%n",
            idle.toMillis(), closedAfter, requests);
        assertThat(closedAfter).as("closed").isGreaterThanOrEqualTo(0);
        assertThat(closedAfter).isBetween(idle.toMillis() - 100, idle.toMillis() * 3 + 2_000);
        // the connection with requests every 200 ms outlived it and still works
        busy.getOutputStream().write(READY);
        assertThat(answer(busy, 5_000)).startsWith("HTTP/1.1 200");
      }
    }
  }
}

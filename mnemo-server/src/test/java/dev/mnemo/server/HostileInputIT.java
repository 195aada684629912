package dev.mnemo.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The server as an attacker and an operator try it: the malformed-input corpus against every
 * body-taking route, extreme dates, loose media types and encodings, unsafe owners, unbounded
 * metric labels, failed-key floods and Jetty's own refusals. Every answer is below 500 and a
 * problem document, and the tenant keeps writing afterwards.
 */
class HostileInputIT {
  @TempDir Path dir;

  private static final List<String> BODY_ROUTES =
      List.of(
          "/v1/memories", "/v1/memories/validate", "/v1/recall", "/v1/ingest", "/v1/owners/o/used");

  private static void assertProblem(TestServer.Response r, int status, String what) {
    assertThat(r.status()).as(what + " -> " + r).isEqualTo(status);
    assertThat(r.contentType()).as(what).startsWith(Problems.CONTENT_TYPE);
    assertThat(r.body()).as(what).doesNotContain("\tat ", ".java:");
  }

  private static void assertStillWrites(TestServer s, String key) {
    TestServer.Response w =
        s.send("POST", "/v1/memories", key, "{\"owner\":\"o\",\"text\":\"still writable\"}");
    assertThat(w.status()).as(w.toString()).isEqualTo(201);
    assertThat(s.send("GET", "/health/ready", null, null).status()).isEqualTo(200);
  }

  @Test
  void extremeDates_areRefusedWith422NamingTheField_everywhere_andTheTenantKeepsWriting() {
    try (TestServer s = new TestServer(dir)) {
      String key = s.key("acme");
      String far = "-999999999-01-01T00:00:00Z";
      record Case(String path, String body, String field) {}
      List<Case> cases =
          List.of(
              new Case(
                  "/v1/memories",
                  "{\"owner\":\"o\",\"text\":\"x\",\"valid_from\":\"" + far + "\"}",
                  "valid_from"),
              new Case(
                  "/v1/memories",
                  "{\"owner\":\"o\",\"text\":\"x\",\"valid_to\":\"+999999999-12-31T23:59:59Z\"}",
                  "valid_to"),
              new Case(
                  "/v1/memories",
                  "{\"owner\":\"o\",\"text\":\"x\",\"recorded_at\":\"" + far + "\"}",
                  "recorded_at"),
              new Case(
                  "/v1/memories",
                  "{\"owner\":\"o\",\"text\":\"x\",\"recorded_at\":\"9999-01-01T00:00:00Z\"}",
                  "recorded_at"),
              new Case(
                  "/v1/memories",
                  "{\"records\":[{\"owner\":\"o\",\"text\":\"ok\"},{\"owner\":\"o\",\"text\":\"x\","
                      + "\"valid_from\":\""
                      + far
                      + "\"}]}",
                  "records[1].valid_from"),
              new Case(
                  "/v1/recall",
                  "{\"owner\":\"o\",\"text\":\"x\",\"mode\":\"valid_at\",\"at\":\"" + far + "\"}",
                  "at"),
              new Case(
                  "/v1/recall",
                  "{\"owner\":\"o\",\"text\":\"x\",\"asked_at\":\"" + far + "\"}",
                  "asked_at"),
              new Case(
                  "/v1/ingest",
                  "{\"turns\":[{\"id\":\"t1\",\"owner\":\"o\",\"role\":\"user\",\"text\":\"hello there\","
                      + "\"at\":\""
                      + far
                      + "\"}]}",
                  "turns[0].at"));
      for (Case c : cases) {
        TestServer.Response r = s.send("POST", c.path(), key, c.body());
        assertProblem(r, 422, c.body());
        assertThat(r.json().get("errors").findValuesAsText("field"))
            .as(c.body())
            .contains(c.field());
      }
      TestServer.Response v =
          s.send(
              "POST",
              "/v1/memories/validate",
              key,
              "{\"owner\":\"o\",\"text\":\"x\",\"valid_from\":\"" + far + "\"}");
      assertThat(v.status()).isEqualTo(200);
      assertThat(v.json().get("valid").asBoolean())
          .as("validate and write share one check")
          .isFalse();
      assertThat(v.json().get("errors").findValuesAsText("field")).containsExactly("valid_from");
      assertStillWrites(s, key);
      assertThat(s.send("GET", "/v1/owners/o/memories", key, null).json().get("memories"))
          .hasSize(1);
    }
  }

  @Test
  void theMalformedCorpus_neverGets5xx_andWritesNothing() {
    try (TestServer s = new TestServer(dir)) {
      String key = s.key("acme");
      int cases = 0;
      for (String route : BODY_ROUTES) {
        for (String body : MalformedCorpus.BODIES) {
          TestServer.Response r = s.send("POST", route, key, body);
          if (route.endsWith("/validate") && r.status() == 200) {
            assertThat(r.json().get("valid").asBoolean())
                .as(body)
                .isFalse(); // checked, not written
            cases++;
            continue;
          }
          assertThat(r.status()).as(route + " " + body + " -> " + r).isBetween(400, 499);
          assertThat(r.contentType()).as(route + " " + body).startsWith(Problems.CONTENT_TYPE);
          assertThat(r.body()).doesNotContain("\tat ", ".java:");
          cases++;
        }
      }
      assertThat(cases).isGreaterThanOrEqualTo(5 * 40);
      assertThat(s.send("GET", "/v1/owners", key, null).json().get("owners")).isEmpty();
      assertStillWrites(s, key);
    }
  }

  @Test
  void strictInput_mediaType_utf8_owners_andLongTexts() throws Exception {
    try (TestServer s = new TestServer(dir)) {
      String key = s.key("acme");
      String ok = "{\"owner\":\"o\",\"text\":\"x\"}";
      assertProblem(s.send("POST", "/v1/memories", key, ok, "application/jsonx"), 415, "jsonx");
      assertProblem(
          s.send("POST", "/v1/memories", key, ok, "application/json; charset=latin1"),
          415,
          "latin1");
      assertThat(
              s.send("POST", "/v1/memories", key, ok, "application/json; charset=UTF-8").status())
          .isEqualTo(201);

      byte[] overlong = "{\"owner\":\"o\",\"text\":\"a?b\"}".getBytes(StandardCharsets.UTF_8);
      byte[] bad = new byte[overlong.length + 1];
      int q = new String(overlong, StandardCharsets.UTF_8).indexOf('?');
      System.arraycopy(overlong, 0, bad, 0, q);
      bad[q] = (byte) 0xC0;
      bad[q + 1] = (byte) 0xAF;
      System.arraycopy(overlong, q + 1, bad, q + 2, overlong.length - q - 1);
      HttpResponse<String> r =
          HttpClient.newHttpClient()
              .send(
                  HttpRequest.newBuilder(URI.create(s.base + "/v1/memories"))
                      .header("Authorization", "Bearer " + key)
                      .header("Content-Type", "application/json")
                      .POST(HttpRequest.BodyPublishers.ofByteArray(bad))
                      .build(),
                  HttpResponse.BodyHandlers.ofString());
      assertThat(r.statusCode()).isEqualTo(400);
      assertThat(r.body()).contains("UTF-8");

      for (String owner : List.of("a\\u0000b", "admin\\u202Egnp", "x\\u200By")) {
        assertProblem(
            s.send("POST", "/v1/memories", key, "{\"owner\":\"" + owner + "\",\"text\":\"x\"}"),
            422,
            owner);
        assertProblem(
            s.send("POST", "/v1/recall", key, "{\"owner\":\"" + owner + "\",\"text\":\"x\"}"),
            422,
            owner);
      }
      TestServer.Response longOwner =
          s.send(
              "POST",
              "/v1/recall",
              key,
              "{\"owner\":\"" + "o".repeat(10_000) + "\",\"text\":\"x\"}");
      assertProblem(longOwner, 422, "10 KB owner");
      assertThat(longOwner.body()).contains("at most 256");
      TestServer.Response longText =
          s.send(
              "POST", "/v1/recall", key, "{\"owner\":\"o\",\"text\":\"" + "w".repeat(9000) + "\"}");
      assertProblem(longText, 422, "long recall text");
      assertThat(longText.json().get("errors").get(0).get("message").asText())
          .startsWith("text must be at most 8000");
    }
  }

  @Test
  void unknownMethods_andPaths_shareOneMetricLabel() {
    try (TestServer s = new TestServer(dir)) {
      int before = s.send("GET", "/metrics", TestServer.ADMIN, null).body().length();
      for (int i = 0; i < 300; i++) {
        TestServer.Response r = s.send("X" + i + "METHOD", "/v1/memories/" + i, null, null);
        assertThat(r.status()).isBetween(400, 499);
      }
      String metrics = s.send("GET", "/metrics", TestServer.ADMIN, null).body();
      assertThat(metrics).doesNotContain("X17METHOD", "/v1/memories/17");
      assertThat(metrics).contains("method=\"OTHER\"");
      assertThat(metrics.length())
          .as("bounded: a few series more, not 300")
          .isLessThan(before + 20_000);
    }
  }

  @Test
  void metrics_needTheAdminKey_unlessPublic() {
    try (TestServer s = new TestServer(dir)) {
      assertProblem(s.send("GET", "/metrics", null, null), 401, "no key");
      assertProblem(s.send("GET", "/metrics", s.key("acme"), null), 403, "tenant key");
      assertThat(s.send("GET", "/metrics", TestServer.ADMIN, null).status()).isEqualTo(200);
    }
    try (TestServer s =
        new TestServer(dir.resolve("public"), c -> c.withMetricsPublic(true), b -> b)) {
      assertThat(s.send("GET", "/metrics", null, null).status()).isEqualTo(200);
    }
  }

  @Test
  void failedKeyChecks_areThrottledPerClient_whileAValidIssuedKeyKeepsWorking() {
    try (TestServer s = new TestServer(dir, c -> c.withAuthFailuresPerMinute(60), b -> b)) {
      String key = s.key("acme");
      for (int i = 0; i < 60; i++) {
        assertProblem(s.send("GET", "/v1/owners", "mnemo_wrong_" + i, null), 401, "wrong key " + i);
      }
      TestServer.Response throttled = s.send("GET", "/v1/owners", "mnemo_wrong_x", null);
      assertProblem(throttled, 429, "61st wrong key");
      assertThat(throttled.headers().firstValue("Retry-After")).isPresent();
      // a wrong secret of a well-formed issued key is throttled like any wrong key
      String forged = key.substring(0, key.lastIndexOf('_') + 1) + "A".repeat(43);
      assertProblem(s.send("GET", "/v1/owners", forged, null), 429, "a forged secret");
      // the valid issued key from the same address: served, again and again
      for (int i = 0; i < 5; i++) {
        assertThat(s.send("GET", "/v1/owners", key, null).status()).isEqualTo(200);
      }
      assertThat(
              s.send("POST", "/v1/memories", key, "{\"owner\":\"o\",\"text\":\"still in\"}")
                  .status())
          .isEqualTo(201);
      // the operator's MNEMO_ADMIN_KEY may be weak: it waits with everything else
      assertProblem(
          s.send("GET", "/v1/tenants", TestServer.ADMIN, null), 429, "the operator's admin key");
    }
  }

  /**
   * Raw bytes on a socket: what HttpClient refuses to send. Returns the status line and headers and
   * body.
   */
  private static String raw(TestServer s, String request) throws IOException {
    URI u = URI.create(s.base);
    try (Socket sock = new Socket(u.getHost(), u.getPort())) {
      sock.setSoTimeout(10_000);
      OutputStream out = sock.getOutputStream();
      out.write(request.getBytes(StandardCharsets.ISO_8859_1));
      out.flush();
      InputStream in = sock.getInputStream();
      byte[] buf = in.readNBytes(64 * 1024);
      return new String(buf, StandardCharsets.UTF_8);
    } catch (java.net.SocketException e) {
      return "reset: " + e.getMessage();
    }
  }

  private static void assertRawProblem(String response, String status, String what) {
    assertThat(response).as(what).startsWith("HTTP/1.1 " + status);
    assertThat(response.toLowerCase(java.util.Locale.ROOT))
        .as(what + ": " + response)
        .contains("content-type: application/problem+json");
    assertThat(response).as(what).doesNotContain("<html", "\tat ");
  }

  @Test
  void jettyRefusals_areProblemDocuments() throws Exception {
    try (TestServer s = new TestServer(dir, c -> c.withLimits(4096, 256, 8000), b -> b)) {
      String key = s.key("acme");
      String host = "Host: localhost\r\nConnection: close\r\n";
      assertRawProblem(
          raw(s, "GET /v1/" + "a".repeat(20_000) + " HTTP/1.1\r\n" + host + "\r\n"),
          "414",
          "long URI");
      assertRawProblem(
          raw(
              s,
              "GET /health/live HTTP/1.1\r\n" + host + "X-Big: " + "b".repeat(20_000) + "\r\n\r\n"),
          "431",
          "big header");
      assertRawProblem(
          raw(
              s,
              "GET /v1/owners/%2e%2e/memories HTTP/1.1\r\n"
                  + host
                  + "Authorization: Bearer "
                  + key
                  + "\r\n\r\n"),
          "400",
          "encoded ..");
      assertRawProblem(
          raw(
              s,
              "GET /v1/owners/a%00b/memories HTTP/1.1\r\n"
                  + host
                  + "Authorization: Bearer "
                  + key
                  + "\r\n\r\n"),
          "400",
          "NUL");
      String slashes =
          raw(
              s,
              "GET //v1//owners HTTP/1.1\r\n" + host + "Authorization: Bearer " + key + "\r\n\r\n");
      assertThat(slashes).matches("(?s)HTTP/1.1 4\\d\\d.*");
      assertThat(slashes.toLowerCase(java.util.Locale.ROOT)).contains("application/problem+json");
      StringBuilder chunked =
          new StringBuilder(
              "POST /v1/memories HTTP/1.1\r\n"
                  + host
                  + "Authorization: Bearer "
                  + key
                  + "\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n");
      String chunk = "{\"owner\":\"o\",\"text\":\"" + "z".repeat(8000) + "\"}";
      chunked
          .append(Integer.toHexString(chunk.length()))
          .append("\r\n")
          .append(chunk)
          .append("\r\n0\r\n\r\n");
      assertRawProblem(raw(s, chunked.toString()), "413", "chunked over the limit");
    }
  }

  @Test
  void aClientSendingAByteAtATime_isCutOffAtTheReadTimeout() throws Exception {
    try (TestServer s =
        new TestServer(dir, c -> c.withReadTimeout(Duration.ofSeconds(1)), b -> b)) {
      String key = s.key("acme");
      URI u = URI.create(s.base);
      try (Socket sock = new Socket(u.getHost(), u.getPort())) {
        sock.setSoTimeout(10_000);
        OutputStream out = sock.getOutputStream();
        out.write(
            ("POST /v1/memories HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer "
                    + key
                    + "\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII));
        out.flush();
        long t0 = System.nanoTime();
        String answer = null;
        for (int i = 0; i < 100 && answer == null; i++) {
          try {
            out.write('{');
            out.flush();
          } catch (IOException closed) {
            break; // the server closed the connection
          }
          Thread.sleep(100);
          if (sock.getInputStream().available() > 0) {
            answer =
                new String(
                    sock.getInputStream().readNBytes(sock.getInputStream().available()),
                    StandardCharsets.UTF_8);
          }
        }
        double seconds = (System.nanoTime() - t0) / 1e9;
        assertThat(seconds)
            .as("cut off near the 1 s read timeout, not after 100 bytes")
            .isLessThan(5);
        if (answer != null)
          assertThat(answer).startsWith("HTTP/1.1 408").contains("application/problem+json");
      }
      assertStillWrites(s, key);
    }
  }

  @Test
  void aClientSendingItsHeadersAByteAtATime_isCutOffAtTheReadTimeout() throws Exception {
    try (TestServer s =
        new TestServer(dir, c -> c.withReadTimeout(Duration.ofSeconds(1)), b -> b)) {
      String key = s.key("acme");
      URI u = URI.create(s.base);
      try (Socket sock = new Socket(u.getHost(), u.getPort())) {
        sock.setSoTimeout(200);
        OutputStream out = sock.getOutputStream();
        out.write(
            "GET /health/live HTTP/1.1\r\nHost: localhost\r\nX-Slow: "
                .getBytes(StandardCharsets.US_ASCII));
        out.flush();
        long t0 = System.nanoTime();
        boolean closed = false;
        // a byte every 100 ms: each resets Jetty's idle timeout, and 100 bytes stay far below the
        // header limit
        for (int i = 0; i < 100 && !closed; i++) {
          try {
            out.write('a');
            out.flush();
            closed = sock.getInputStream().read() == -1;
          } catch (java.net.SocketTimeoutException stillOpen) {
            // nothing to read yet: the server is still waiting for the headers
          } catch (IOException reset) {
            closed = true;
          }
        }
        double seconds = (System.nanoTime() - t0) / 1e9;
        assertThat(closed).as("the server closed the connection").isTrue();
        assertThat(seconds)
            .as("cut off near the 1 s read timeout, not after 100 bytes")
            .isBetween(0.9, 5.0);
      }
      // A client that sends its headers at once is not cut, even on a connection kept open longer
      // than the timeout.
      try (Socket sock = new Socket(u.getHost(), u.getPort())) {
        sock.setSoTimeout(5_000);
        OutputStream out = sock.getOutputStream();
        out.write(
            "GET /health/live HTTP/1.1\r\nHost: localhost\r\n\r\n"
                .getBytes(StandardCharsets.US_ASCII));
        out.flush();
        Thread.sleep(700);
        out.write(
            "GET /health/live HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"
                .getBytes(StandardCharsets.US_ASCII));
        out.flush();
        String both = new String(sock.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(both.split("HTTP/1.1 200", -1)).hasSize(3);
      }
      assertStillWrites(s, key);
    }
  }

  @Test
  void mcpAndRestShareTheProblemShape_forJsonThatIsNotAnObject() {
    try (TestServer s = new TestServer(dir)) {
      String key = s.key("acme");
      JsonNode p = s.send("POST", "/v1/memories", key, "[]").json();
      assertThat(p.get("type").asText()).startsWith(Problems.TYPE_PREFIX);
      assertThat(p.get("status").asInt()).isBetween(400, 499);
    }
  }
}

package dev.mnemo.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.mnemo.json.JsonCodec;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every route of the OpenAPI document, enumerated from the document itself (so a new route is
 * covered without editing this test), gets the corpus of hostile values in each of its path and
 * query parameters, with a tenant key and with the admin key; every body-taking route also gets
 * {@link MalformedCorpus#BODIES} and bodies in other encodings; a few hostile headers go to every
 * route. No answer may be a 5xx, and every refusal is a problem document without a stack trace.
 * Sent over a raw socket, so that values no URI class accepts (a lone {@code %}, invalid UTF-8 in a
 * path) reach the server as a client could send them.
 */
class HostileRoutesIT {
  @TempDir static Path dir;
  static TestServer s;
  static JsonNode spec;
  static String key;
  static int port;
  static final Map<String, String> VALID = new LinkedHashMap<>();

  /** Hostile values for a path segment or a query value, already percent-encoded as sent. */
  static final List<String> ENCODED =
      List.of(
          "",
          "%20",
          "%00",
          "a%00b",
          "%E2%80%AE", // right-to-left override
          "%E2%80%8B", // zero-width space
          "%EF%BB%BF", // a byte-order mark as a character
          "%ED%A0%80", // a lone surrogate, encoded (invalid UTF-8)
          "%C0%AF", // an overlong '/'
          "%FF%FE",
          "%",
          "%zz",
          "%2F",
          "..%2F..%2Fetc%2Fpasswd",
          "..",
          "x".repeat(10_000),
          "%E2%82%AC".repeat(3_000),
          "-1",
          "0",
          "99999999999999999999",
          "1e400",
          "NaN",
          "-1000000000-01-01T00:00:00Z",
          "%2B1000000000-12-31T23:59:59Z",
          "-999999999-01-01",
          "9999-12-31T23:59:59.999999999Z",
          "0000-00-00",
          "true",
          "null",
          "%3Cscript%3Ealert(1)%3C%2Fscript%3E",
          "*",
          "owner%3A*",
          "a%20AND%20(",
          "%5C",
          "%0D%0AX-Injected:%201",
          "%7B%22a%22:1%7D");

  @BeforeAll
  static void start() throws Exception {
    s = new TestServer(dir);
    port = s.server.port();
    try (InputStream in = MnemoServer.class.getResourceAsStream("openapi.json")) {
      spec = JsonCodec.READER.readTree(in);
    }
    key = s.key("acme");
    TestServer.Response r =
        s.send("POST", "/v1/memories", key, "{\"owner\":\"o\",\"text\":\"Maya lives in Porto.\"}");
    assertThat(r.status()).as(r.toString()).isEqualTo(201);
    String id = r.json().get("ids").get(0).asText();
    TestServer.Response recall =
        s.send("POST", "/v1/recall", key, "{\"owner\":\"o\",\"text\":\"where does Maya live\"}");
    assertThat(recall.status()).as(recall.toString()).isEqualTo(200);
    JsonNode keys = s.send("GET", "/v1/tenants/acme/keys", TestServer.ADMIN, null).json();
    VALID.put("owner", "o");
    VALID.put("id", id);
    VALID.put("tenant", "acme");
    VALID.put("key_id", keys.path("keys").path(0).path("id").asText("k1"));
    VALID.put("episode", "e1");
    VALID.put("asset", "app.js");
  }

  @AfterAll
  static void stop() {
    s.close();
  }

  record Answer(int status, String contentType, String body) {}

  /** One request over a raw socket: the target and the body go out byte for byte. */
  static Answer raw(
      String method, String target, String auth, Map<String, String> headers, byte[] body)
      throws IOException {
    StringBuilder head = new StringBuilder();
    head.append(method).append(' ').append(target).append(" HTTP/1.1\r\n");
    head.append("Host: 127.0.0.1:").append(port).append("\r\nConnection: close\r\n");
    if (auth != null) head.append("Authorization: ").append(auth).append("\r\n");
    headers.forEach((k, v) -> head.append(k).append(": ").append(v).append("\r\n"));
    if (body != null) head.append("Content-Length: ").append(body.length).append("\r\n");
    head.append("\r\n");
    try (Socket sock = new Socket("127.0.0.1", port)) {
      sock.setSoTimeout(30_000);
      OutputStream out = sock.getOutputStream();
      out.write(head.toString().getBytes(StandardCharsets.ISO_8859_1));
      if (body != null) out.write(body);
      out.flush();
      ByteArrayOutputStream got = new ByteArrayOutputStream();
      InputStream in = sock.getInputStream();
      byte[] buf = new byte[8192];
      for (int n; (n = in.read(buf)) > 0 && got.size() < (4 << 20); ) got.write(buf, 0, n);
      String text = got.toString(StandardCharsets.UTF_8);
      Matcher m = Pattern.compile("^HTTP/1\\.1 (\\d{3})").matcher(text);
      if (!m.find()) return new Answer(-1, "", text);
      int end = text.indexOf("\r\n\r\n");
      String headerText = end < 0 ? text : text.substring(0, end);
      Matcher ct = Pattern.compile("(?im)^content-type:\\s*(.*)$").matcher(headerText);
      return new Answer(
          Integer.parseInt(m.group(1)),
          ct.find() ? ct.group(1).trim() : "",
          end < 0 ? "" : text.substring(end + 4));
    } catch (java.net.SocketException e) {
      // the server may close on a request it refuses mid-body; that is not a 5xx
      return new Answer(0, "", "closed: " + e.getMessage());
    }
  }

  /** A documented operation: method, path template, its path and query parameter names. */
  record Op(
      String method,
      String path,
      List<String> pathParams,
      List<String> queryParams,
      JsonNode body) {}

  static List<Op> operations() {
    List<Op> out = new ArrayList<>();
    for (var p : spec.get("paths").properties()) {
      for (var m : p.getValue().properties()) {
        if (m.getKey().equals("parameters")) continue;
        List<String> path = new ArrayList<>();
        List<String> query = new ArrayList<>();
        List<JsonNode> params = new ArrayList<>();
        p.getValue().path("parameters").forEach(params::add);
        m.getValue().path("parameters").forEach(params::add);
        for (JsonNode param : params) {
          JsonNode resolved = resolve(param);
          String in = resolved.path("in").asText();
          if (in.equals("path")) path.add(resolved.path("name").asText());
          else if (in.equals("query")) query.add(resolved.path("name").asText());
        }
        out.add(
            new Op(
                m.getKey().toUpperCase(Locale.ROOT),
                p.getKey(),
                path,
                query,
                m.getValue().get("requestBody")));
      }
    }
    return out;
  }

  private static JsonNode resolve(JsonNode n) {
    if (!n.has("$ref")) return n;
    JsonNode at = spec;
    for (String part : n.get("$ref").asText().substring(2).split("/")) at = at.path(part);
    return at;
  }

  private static String target(Op op, String hostileParam, String hostile) {
    String t = op.path();
    for (String name : op.pathParams()) {
      String v = name.equals(hostileParam) ? hostile : VALID.getOrDefault(name, "x");
      t = t.replace("{" + name + "}", v);
    }
    return t;
  }

  /** A body the route accepts when the value under test is elsewhere: its first example, or {}. */
  private static byte[] validBody(Op op) {
    if (op.body() == null) return null;
    JsonNode examples = op.body().path("content").path("application/json").path("examples");
    for (JsonNode e : examples) {
      if (e.has("value")) return e.get("value").toString().getBytes(StandardCharsets.UTF_8);
    }
    return "{}".getBytes(StandardCharsets.UTF_8);
  }

  private static final Map<String, String> JSON = Map.of("Content-Type", "application/json");

  private final List<String> failures = new ArrayList<>();
  private int sent;

  private void check(String what, Answer a) {
    sent++;
    if (a.status() >= 500 || a.status() == -1) {
      failures.add(what + " -> " + a.status() + " " + abbreviate(a.body()));
    } else if (a.status() >= 400 && !a.contentType().startsWith(Problems.CONTENT_TYPE)) {
      failures.add(what + " -> " + a.status() + " not a problem document: " + a.contentType());
    } else if (a.body().contains("\tat ") || a.body().contains(".java:")) {
      failures.add(what + " -> " + a.status() + " shows a stack trace");
    }
  }

  private static String abbreviate(String s) {
    return s.length() > 300 ? s.substring(0, 300) + "..." : s;
  }

  private void assertNoFailures() {
    assertThat(failures).as(failures.size() + " of " + sent + " requests").isEmpty();
  }

  @Test
  void everyPathAndQueryParameter_ofEveryRoute_takesTheHostileCorpus_withoutA5xx()
      throws IOException {
    List<Op> ops = operations();
    assertThat(ops).hasSizeGreaterThan(30);
    for (Op op : ops) {
      byte[] body = validBody(op);
      Map<String, String> headers = body == null ? Map.of() : JSON;
      for (String auth : new String[] {"Bearer " + key, "Bearer " + TestServer.ADMIN}) {
        for (String param : op.pathParams()) {
          for (String v : ENCODED) {
            String t = target(op, param, v);
            check(
                op.method() + " " + t + " (" + param + ")",
                raw(op.method(), t, auth, headers, body));
          }
        }
        for (String param : op.queryParams()) {
          for (String v : ENCODED) {
            String t = target(op, null, null) + "?" + param + "=" + v;
            check(op.method() + " " + t, raw(op.method(), t, auth, headers, body));
          }
        }
      }
    }
    assertNoFailures();
    // and the tenant still writes
    assertThat(
            s.send("POST", "/v1/memories", key, "{\"owner\":\"o\",\"text\":\"still writable\"}")
                .status())
        .isEqualTo(201);
  }

  @Test
  void everyBodyTakingRoute_takesTheMalformedCorpus_andOtherEncodings_withoutA5xx()
      throws IOException {
    List<byte[]> bodies = new ArrayList<>();
    for (String b : MalformedCorpus.BODIES) bodies.add(b.getBytes(StandardCharsets.UTF_8));
    String ok = "{\"owner\":\"o\",\"text\":\"caf\u00e9\"}";
    bodies.add(ok.getBytes(StandardCharsets.UTF_16LE));
    bodies.add(ok.getBytes(StandardCharsets.UTF_16));
    bodies.add(("\uFEFF" + ok).getBytes(StandardCharsets.UTF_8));
    bodies.add(ok.getBytes(java.nio.charset.Charset.forName("UTF-32BE")));
    bodies.add(ok.getBytes(StandardCharsets.ISO_8859_1));
    bodies.add(new byte[] {'{', '"', (byte) 0xC0, (byte) 0xAF, '"', ':', '1', '}'});
    int routes = 0;
    for (Op op : operations()) {
      if (op.body() == null) continue;
      routes++;
      String t = target(op, null, null);
      String auth = "Bearer " + (t.startsWith("/v1/tenants") ? TestServer.ADMIN : key);
      for (byte[] b : bodies) {
        check(
            op.method() + " " + t + " body " + abbreviate(new String(b, StandardCharsets.UTF_8)),
            raw(op.method(), t, auth, JSON, b));
      }
    }
    assertThat(routes).isGreaterThanOrEqualTo(8);
    assertNoFailures();
  }

  @Test
  void hostileHeaders_onEveryRoute_getNoA5xx() throws IOException {
    List<String> auths =
        List.of(
            "",
            "Bearer",
            "Bearer ",
            "Basic dXNlcjpwYXNz",
            "Bearer " + "k".repeat(6_000),
            "Bearer \u00e9\u00e9",
            "bearer " + key,
            "Bearer " + key + " " + key);
    List<Map<String, String>> headerSets =
        List.of(
            Map.of("Content-Type", "application/json; charset=utf-16"),
            Map.of("Content-Type", "text/plain"),
            Map.of("Content-Type", "application/json; charset=\u00ff"),
            Map.of("Content-Type", ";;;"),
            Map.of("Accept", "application/xml"),
            Map.of("Mnemo-Principals", "%00,\u00e9," + "p,".repeat(2_000)),
            Map.of("X-Request-Id", "x".repeat(4_000)),
            Map.of("Content-Encoding", "gzip"));
    for (Op op : operations()) {
      String t = target(op, null, null);
      byte[] body = validBody(op);
      for (String a : auths)
        check(
            op.method() + " " + t + " auth " + abbreviate(a),
            raw(op.method(), t, a, body == null ? Map.of() : JSON, body));
      for (Map<String, String> h : headerSets)
        check(
            op.method() + " " + t + " " + h.keySet(),
            raw(op.method(), t, "Bearer " + key, h, body == null ? "{}".getBytes() : body));
    }
    assertNoFailures();
  }

  private static JsonNode refused(TestServer.Response r, int status) {
    assertThat(r.status()).as(r.toString()).isEqualTo(status);
    assertThat(r.contentType()).startsWith(Problems.CONTENT_TYPE);
    return r.json();
  }

  /** The problem document of a POST that must be refused with 422, as text. */
  private static String refusal(String path, String body) {
    return refused(s.send("POST", path, key, body), 422).toString();
  }

  private static String many(String item, int n) {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < n; i++) b.append(i == 0 ? "" : ",").append(item.replace("#", "" + i));
    return b.toString();
  }

  /** What the probe of issue 36 found accepted or answered 500, each refused naming the limit. */
  @Test
  void theProbesOfIssue36_areRefusedNamingTheLimit() {
    // dates on the log's routes
    for (String route : List.of("/v1/recalls", "/v1/recalls/stats")) {
      for (String q :
          List.of(
              "from=-1000000000-01-01T00:00:00Z",
              "to=%2B1000000000-12-31T23:59:59Z",
              "from=-999999999-01-01T00:00:00Z")) {
        JsonNode p = refused(s.send("GET", route + "?" + q, key, null), 422);
        assertThat(p.get("errors").findValuesAsText("field"))
            .as(p.toString())
            .containsExactly(q.substring(0, q.indexOf('=')));
      }
    }
    // collections and sizes
    String meta = "{" + many("\"k#\":\"v\"", 20_000) + "}";
    assertThat(
            refusal("/v1/memories", "{\"owner\":\"o\",\"text\":\"x\",\"metadata\":" + meta + "}"))
        .contains("metadata must hold at most 128 entries, was 20000");
    assertThat(
            refusal(
                "/v1/memories",
                "{\"owner\":\"o\",\"text\":\"x\",\"sources\":[" + many("\"s#\"", 50_000) + "]}"))
        .contains("sources must hold at most 1024 entries, was 50000");
    assertThat(
            refusal(
                "/v1/memories",
                "{\"owner\":\"o\",\"text\":\"x\",\"entities\":[" + many("\"e#\"", 10_000) + "]}"))
        .contains("entities must hold at most 256 entries, was 10000");
    assertThat(refusal("/v1/recall", "{\"owner\":\"o\",\"text\":\"x\",\"metadata\":" + meta + "}"))
        .contains("metadata must hold at most 128 entries");
    assertThat(
            refusal(
                "/v1/ingest",
                "{\"turns\":[{\"id\":\"t1\",\"owner\":\"o\",\"role\":\"user\",\"text\":\""
                    + "word ".repeat(100_000)
                    + "\"}]}"))
        .contains("text must be at most 100000 characters, was 500000");
    assertThat(
            refusal("/v1/recall", "{\"owner\":\"o\",\"text\":\"x\",\"budget_tokens\":1000000000}"))
        .contains("budget_tokens must be between 0 and 1000000");
    // a record of a few dozen metadata entries is fine
    assertThat(
            s.send(
                    "POST",
                    "/v1/memories",
                    key,
                    "{\"owner\":\"o\",\"text\":\"Usual metadata.\",\"metadata\":{"
                        + many("\"k#\":\"v\"", 40)
                        + "}}")
                .status())
        .isEqualTo(201);
    // owners on every route: a zero-width space is no owner to delete
    assertThat(refused(s.send("DELETE", "/v1/owners/%E2%80%8B", key, null), 422).toString())
        .contains("U+200B");
    // unknown ids are named
    JsonNode used =
        s.send(
                "POST",
                "/v1/owners/o/used",
                key,
                "{\"ids\":[\"" + VALID.get("id") + "\",\"no-such-id\",\"no-such-id\"]}")
            .json();
    assertThat(used.get("updated").asInt()).isEqualTo(1);
    assertThat(used.get("used").get(0).asText()).isEqualTo(VALID.get("id"));
    assertThat(used.get("used")).hasSize(1);
    assertThat(used.get("unknown")).hasSize(1);
    assertThat(used.get("unknown").get(0).asText()).isEqualTo("no-such-id");
    // strict encoding
    TestServer.Response bom =
        s.send("POST", "/v1/memories", key, "\uFEFF{\"owner\":\"o\",\"text\":\"x\"}");
    assertThat(refused(bom, 400).toString()).contains("byte-order mark");
  }
}

package dev.mnemo.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import dev.mnemo.InvalidRequestException;
import dev.mnemo.MemoryRecord;
import dev.mnemo.NewMemory;
import dev.mnemo.RecallRequest;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Retries, time-outs and error mapping, against a scripted HTTP server and the real one. */
class MnemoClientIT {
  static final String EMPTY_RECALL =
      "{\"records\":[],\"block\":\"\",\"tokens_used\":0,\"block_tokens\":0}";

  /**
   * Answers each request with the next scripted reply (the last one repeats), counting requests.
   */
  static final class Scripted implements AutoCloseable {
    record Reply(int status, Map<String, String> headers, String body, long delayMs) {}

    final HttpServer server;
    final ConcurrentLinkedQueue<Reply> script = new ConcurrentLinkedQueue<>();
    final AtomicInteger requests = new AtomicInteger();
    volatile Reply last;

    Scripted(Reply... replies) throws IOException {
      script.addAll(List.of(replies));
      server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
      server.createContext(
          "/",
          ex -> {
            requests.incrementAndGet();
            ex.getRequestBody().readAllBytes();
            Reply r = script.poll();
            if (r == null) r = last;
            last = r;
            try {
              Thread.sleep(r.delayMs());
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
            }
            r.headers().forEach(ex.getResponseHeaders()::add);
            byte[] b = r.body().getBytes(StandardCharsets.UTF_8);
            ex.sendResponseHeaders(r.status(), b.length == 0 ? -1 : b.length);
            if (b.length > 0)
              try (OutputStream o = ex.getResponseBody()) {
                o.write(b);
              }
            ex.close();
          });
      server.start();
    }

    String url() {
      return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    @Override
    public void close() {
      server.stop(0);
    }
  }

  static Scripted.Reply reply(int status, String body, String... headers) {
    Map<String, String> h = new java.util.LinkedHashMap<>();
    h.put("Content-Type", status >= 400 ? "application/problem+json" : "application/json");
    for (int i = 0; i < headers.length; i += 2) h.put(headers[i], headers[i + 1]);
    return new Scripted.Reply(status, h, body, 0);
  }

  static String problem(int status, String type, String detail) {
    return "{\"type\":\"urn:mnemo:problem:"
        + type
        + "\",\"title\":\"t\",\"status\":"
        + status
        + ",\"detail\":\""
        + detail
        + "\",\"request_id\":\"req-1\"}";
  }

  final List<Duration> waits = new CopyOnWriteArrayList<>();
  final List<AutoCloseable> open = new ArrayList<>();

  MnemoClient client(String url, int attempts) {
    MnemoClient c =
        MnemoClient.builder()
            .url(url)
            .apiKey("k")
            .maxAttempts(attempts)
            .backoff(Duration.ofMillis(100), Duration.ofMillis(400))
            .timeout(Duration.ofMillis(300))
            .sleeper(waits::add)
            .build();
    open.add(c);
    return c;
  }

  Scripted scripted(Scripted.Reply... replies) throws IOException {
    Scripted s = new Scripted(replies);
    open.add(s);
    return s;
  }

  @AfterEach
  void closeAll() throws Exception {
    for (AutoCloseable c : open) c.close();
  }

  static RecallRequest anyRecall() {
    return RecallRequest.builder("maya", "editor?").build();
  }

  @Test
  void unavailable_withRetryAfter_isRetried_afterTheAskedWait() throws Exception {
    Scripted s =
        scripted(
            reply(503, problem(503, "unavailable", "busy"), "Retry-After", "2"),
            reply(429, problem(429, "too-many", "slow down"), "Retry-After", "0"),
            reply(200, EMPTY_RECALL));
    assertThat(client(s.url(), 4).recall(anyRecall()).selected()).isEmpty();
    assertThat(s.requests.get()).isEqualTo(3);
    assertThat(waits).containsExactly(Duration.ofSeconds(2), Duration.ZERO);
  }

  @Test
  void retriableFailures_backOffExponentially_thenGiveUpRetriable() throws Exception {
    Scripted s = scripted(reply(503, problem(503, "unavailable", "shutting down")));
    assertThatThrownBy(() -> client(s.url(), 4).recall(anyRecall()))
        .isInstanceOfSatisfying(
            MnemoRemoteException.class,
            e -> {
              assertThat(e.retriable()).isTrue();
              assertThat(e.status()).isEqualTo(503);
              assertThat(e.type()).isEqualTo("unavailable");
              assertThat(e.requestId()).isEqualTo("req-1");
              assertThat(e.getMessage())
                  .contains("POST /v1/recall", "shutting down", "after 4 attempts");
            });
    assertThat(s.requests.get()).isEqualTo(4);
    assertThat(waits).hasSize(3);
    // Equal jitter: each wait lies in [step/2, step] with step 100, 200, 400 ms.
    assertThat(waits.get(0).toMillis()).isBetween(50L, 100L);
    assertThat(waits.get(1).toMillis()).isBetween(100L, 200L);
    assertThat(waits.get(2).toMillis()).isBetween(200L, 400L);
  }

  @Test
  void validationErrors_areNeverRetried_andCarryTheServersViolations() throws Exception {
    Scripted s =
        scripted(
            reply(
                422,
                "{\"type\":\"urn:mnemo:problem:invalid-request\",\"status\":422,\"detail\":\"2 invalid\","
                    + "\"errors\":[{\"field\":\"text\",\"value\":9001,\"message\":\"text must be at most 8000 characters, was 9001\"},"
                    + "{\"field\":\"valid_from\",\"value\":\"soon\",\"message\":\"valid_from must be a date\"}]}"));
    assertThatThrownBy(() -> client(s.url(), 4).remember(NewMemory.builder("maya", "x").build()))
        .isInstanceOfSatisfying(
            InvalidRequestException.class,
            e -> {
              assertThat(e.violations())
                  .extracting(InvalidRequestException.Violation::field)
                  .containsExactly("text", "valid_from");
              assertThat(e.violations().get(0).value()).isEqualTo(9001);
              assertThat(e.retriable()).isFalse();
            });
    assertThat(s.requests.get()).isEqualTo(1);
  }

  @Test
  void aWriteThatMayHaveBeenApplied_isNotRepeated_butAReadIs() throws Exception {
    Scripted s = scripted(reply(502, "<html>bad gateway</html>"));
    assertThatThrownBy(() -> client(s.url(), 4).remember(NewMemory.builder("maya", "x").build()))
        .isInstanceOfSatisfying(
            MnemoRemoteException.class,
            e -> {
              assertThat(e.retriable()).isFalse();
              assertThat(e.status()).isEqualTo(502);
            });
    assertThat(s.requests.get()).isEqualTo(1);
    assertThatThrownBy(() -> client(s.url(), 3).recall(anyRecall()))
        .isInstanceOf(MnemoRemoteException.class);
    assertThat(s.requests.get()).isEqualTo(1 + 3);
  }

  @Test
  void internalErrors_areNotRetried() throws Exception {
    Scripted s = scripted(reply(500, problem(500, "internal", "boom")));
    assertThatThrownBy(() -> client(s.url(), 4).recall(anyRecall()))
        .isInstanceOfSatisfying(
            MnemoRemoteException.class, e -> assertThat(e.retriable()).isFalse());
    assertThat(s.requests.get()).isEqualTo(1);
  }

  @Test
  void aRetryAfterLongerThanAllowed_failsAtOnce() throws Exception {
    Scripted s =
        scripted(reply(503, problem(503, "unavailable", "maintenance"), "Retry-After", "3600"));
    assertThatThrownBy(() -> client(s.url(), 4).recall(anyRecall()))
        .isInstanceOfSatisfying(
            MnemoRemoteException.class,
            e -> assertThat(e.getMessage()).contains("retry after 3600 s"));
    assertThat(s.requests.get()).isEqualTo(1);
    assertThat(waits).isEmpty();
  }

  @Test
  void timeouts_retryReads_butNotWrites() throws Exception {
    Scripted s = scripted(new Scripted.Reply(200, Map.of(), EMPTY_RECALL, 1_000));
    assertThatThrownBy(() -> client(s.url(), 2).recall(anyRecall()))
        .isInstanceOfSatisfying(
            MnemoRemoteException.class,
            e -> {
              assertThat(e.retriable()).isTrue();
              assertThat(e.getMessage()).contains("no answer within 300 ms");
            });
    assertThat(waits).hasSize(1);
    assertThatThrownBy(() -> client(s.url(), 2).markUsed("maya", List.of("a")))
        .isInstanceOfSatisfying(
            MnemoRemoteException.class,
            e -> {
              assertThat(e.retriable()).isFalse();
              assertThat(e.getMessage()).contains("may or may not have been applied");
            });
    assertThat(waits).hasSize(1);
  }

  @Test
  void aServerThatIsNotThere_isRetried_thenReportedRetriable() throws Exception {
    Scripted s = scripted();
    String url = s.url();
    s.close();
    assertThatThrownBy(() -> client(url, 3).remember(NewMemory.builder("maya", "x").build()))
        .isInstanceOfSatisfying(
            MnemoRemoteException.class,
            e -> {
              assertThat(e.retriable()).isTrue();
              assertThat(e.status()).isZero();
              assertThat(e.getMessage()).contains("could not connect", "after 3 attempts");
            });
    assertThat(waits).hasSize(2);
  }

  @Test
  void anExportCutShort_deliversWhatCame_thenFails() throws Exception {
    String line =
        dev.mnemo.json.RecordJson.write(
                new MemoryRecord(
                    "r1",
                    "maya",
                    null,
                    dev.mnemo.Category.SEMANTIC,
                    "hi",
                    null,
                    List.of(),
                    null,
                    -1,
                    MnemoBehaviourContract.MARCH,
                    null,
                    MnemoBehaviourContract.MARCH,
                    null,
                    null,
                    0,
                    null,
                    0.5,
                    dev.mnemo.Authority.EXPLICIT,
                    dev.mnemo.ConflictPolicy.values()[0],
                    List.of(),
                    0,
                    null,
                    null,
                    null,
                    Map.of(),
                    java.util.List.of()),
                false)
            .toString();
    Scripted s =
        scripted(
            reply(
                200, line + "\n" + line.substring(0, 20), "Content-Type", "application/x-ndjson"));
    List<MemoryRecord> got = new ArrayList<>();
    assertThatThrownBy(() -> client(s.url(), 1).export("maya", got::add))
        .isInstanceOfSatisfying(
            MnemoRemoteException.class,
            e -> assertThat(e.getMessage()).contains("cut short after 1 records"));
    assertThat(got).extracting(MemoryRecord::id).containsExactly("r1");
  }

  @Test
  void realServer_wrongKey_isUnauthorized_andAnotherTenantSeesNothing(@TempDir Path dir) {
    try (LocalServer server = new LocalServer(dir);
        MnemoClient acme = server.client("acme");
        MnemoClient other = server.client("other");
        MnemoClient wrong =
            MnemoClient.builder()
                .url(server.url)
                .apiKey("mnemo_nope_nope")
                .maxAttempts(3)
                .build()) {
      MemoryRecord r =
          acme.remember(NewMemory.builder("maya", "Maya's locker code is 4312.").build());
      assertThat(other.get("maya", r.id())).isEmpty();
      assertThat(other.recall(RecallRequest.builder("maya", "locker code").build()).selected())
          .isEmpty();
      assertThatThrownBy(() -> wrong.get("maya", r.id()))
          .isInstanceOfSatisfying(
              MnemoRemoteException.class,
              e -> {
                assertThat(e.status()).isEqualTo(401);
                assertThat(e.type()).isEqualTo("unauthorized");
                assertThat(e.retriable()).isFalse();
              });
      assertThatThrownBy(() -> acme.remember(NewMemory.builder("maya", "x".repeat(9_000)).build()))
          .isInstanceOfSatisfying(
              InvalidRequestException.class, e -> assertThat(e.field()).isEqualTo("text"));
    }
  }

  @Test
  void ownersWithSlashesAndSpaces_travelInThePath(@TempDir Path dir) {
    try (LocalServer server = new LocalServer(dir);
        MnemoClient c = server.client("acme")) {
      MemoryRecord r = c.remember(NewMemory.builder("team/a b+c", "Shared note.").build());
      assertThat(c.get("team/a b+c", r.id())).contains(r);
      assertThat(c.forget("team/a b+c")).isEqualTo(1);
    }
  }

  @Test
  void builder_refusesBadSettings() {
    assertThatThrownBy(() -> MnemoClient.builder().build())
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("url");
    assertThatThrownBy(() -> MnemoClient.builder().url("localhost:8080"))
        .hasMessageContaining("http(s) URL");
    assertThatThrownBy(() -> MnemoClient.builder().maxAttempts(0))
        .hasMessageContaining("maxAttempts must be >= 1, was 0");
    assertThat(MnemoClient.retryAfter("Wed, 21 Oct 2015 07:28:00 GMT")).contains(Duration.ZERO);
    assertThat(MnemoClient.retryAfter("12")).contains(Duration.ofSeconds(12));
    assertThat(MnemoClient.retryAfter("soon")).isEmpty();
  }
}

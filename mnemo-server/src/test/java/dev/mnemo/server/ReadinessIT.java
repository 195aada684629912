package dev.mnemo.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.mnemo.MemoryRecord;
import dev.mnemo.Mnemo;
import dev.mnemo.MnemoException;
import dev.mnemo.spi.ForwardingMemoryStore;
import dev.mnemo.spi.MemoryStore;
import dev.mnemo.store.lucene.LuceneMemoryStore;
import dev.mnemo.testkit.HashingEmbedder;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Readiness per tenant, through REST: a tenant whose store refuses writes after a failed commit (as
 * the Lucene store does) or cannot be opened is listed by {@code /health/ready}, which stays 200;
 * the other tenants keep working; the store is reopened by the first request after a back-off or at
 * once by {@code POST /v1/tenants/{tenant}/reopen}. A store whose failure passes is no longer
 * listed after its next durable write; validation errors and no-op writes change nothing.
 */
class ReadinessIT {
  @TempDir Path dir;

  /**
   * The real Lucene store behind a switch: {@code failNext} makes the next apply fail; in {@code
   * sticky} mode every later write is then refused, as {@link LuceneMemoryStore} does after a
   * failed commit (it rolls back and asks to be reopened); otherwise the failure passes.
   */
  static final class FailingStore extends ForwardingMemoryStore {
    volatile boolean failNext;
    volatile boolean sticky = true;
    volatile boolean failed;

    FailingStore(MemoryStore delegate) {
      super(delegate);
    }

    private void check() {
      if (failed) {
        throw new MnemoException(
            "the store was rolled back to its last commit after a failed write; reopen it", false);
      }
      if (failNext) {
        failNext = false;
        failed = sticky;
        throw new MnemoException(
            "write failed, nothing was acknowledged: No space left on device", false);
      }
    }

    @Override
    public void apply(List<MemoryRecord> upserts, Collection<String> deleteIds) {
      check();
      super.apply(upserts, deleteIds);
    }

    @Override
    public Durable applyVisible(List<MemoryRecord> upserts, Collection<String> deleteIds) {
      check();
      return super.applyVisible(upserts, deleteIds);
    }

    @Override
    public int deleteOwner(String owner) {
      check();
      return super.deleteOwner(owner);
    }
  }

  private final Map<String, FailingStore> stores = new ConcurrentHashMap<>();

  /** Tenants whose store cannot be opened now (as a corrupt index or a full disk would make it). */
  private final Set<String> unopenable = ConcurrentHashMap.newKeySet();

  private final AtomicInteger opens = new AtomicInteger();

  private static final Duration NEVER = Duration.ofHours(1);

  private TestServer start(boolean groupCommit, Duration reopenBackoff) {
    ServerConfig c =
        ServerConfig.defaults()
            .withPort(0)
            .withData(dir)
            .withAdminKey(TestServer.ADMIN)
            .withLogRequests(false)
            .withGroupCommit(groupCommit);
    return new TestServer(
        MnemoServer.builder(
                c,
                (tenant, d, maxTextChars) -> {
                  opens.incrementAndGet();
                  if (unopenable.contains(tenant)) {
                    throw new MnemoException(
                        "cannot open the store in " + d + ": read past EOF (corrupt segment)",
                        false);
                  }
                  FailingStore store = new FailingStore(LuceneMemoryStore.open(d));
                  stores.put(tenant, store);
                  return Mnemo.builder()
                      .store(store)
                      .embedder(new HashingEmbedder())
                      .maxTextChars(maxTextChars)
                      .build();
                })
            .reopenBackoff(reopenBackoff)
            .build()
            .start());
  }

  private static String memory(String owner, String text) {
    return "{\"owner\":\"" + owner + "\",\"text\":\"" + text + "\"}";
  }

  /** The readiness answer: always 200 while the server runs, with the failed tenants listed. */
  private static JsonNode ready(TestServer s) {
    TestServer.Response ready = s.send("GET", "/health/ready", TestServer.ADMIN, null);
    assertThat(ready.status()).as(ready.toString()).isEqualTo(200);
    JsonNode body = ready.json();
    assertThat(body.get("status").asText()).isEqualTo("ready");
    assertThat(body.get("tenants_failed").asInt()).isEqualTo(body.get("failed_tenants").size());
    return body;
  }

  private static JsonNode onlyFailed(TestServer s, String tenant, String kind) {
    // without the admin key the answer counts the failed tenants and names none
    TestServer.Response anonymous = s.send("GET", "/health/ready", null, null);
    assertThat(anonymous.status()).isEqualTo(200);
    assertThat(anonymous.json().get("tenants_failed").asInt()).isEqualTo(1);
    assertThat(anonymous.json().has("failed_tenants")).isFalse();
    assertThat(anonymous.body()).doesNotContain(tenant);
    JsonNode list = ready(s).get("failed_tenants");
    assertThat(list).as(list.toString()).hasSize(1);
    JsonNode f = list.get(0);
    assertThat(f.get("tenant").asText()).isEqualTo(tenant);
    assertThat(f.get("failure").asText()).isEqualTo(kind);
    assertThat(f.get("since").asText()).isNotBlank();
    assertThat(f.get("next_attempt").asText()).isNotBlank();
    return f;
  }

  @ParameterizedTest(name = "group commit {0}")
  @ValueSource(booleans = {true, false})
  void aStoreThatRefusesWrites_isListed_theServerStaysReady_andTheAdminReopensIt(
      boolean groupCommit) {
    try (TestServer s = start(groupCommit, NEVER)) {
      String acme = s.key("acme");
      String beta = s.key("beta");
      assertThat(s.send("POST", "/v1/memories", acme, memory("alice", "Alice likes tea.")).status())
          .isEqualTo(201);
      assertThat(s.send("POST", "/v1/memories", beta, memory("bob", "Bob likes coffee.")).status())
          .isEqualTo(201);
      assertThat(ready(s).get("failed_tenants")).isEmpty();

      stores.get("acme").failNext = true;
      TestServer.Response failed =
          s.send("POST", "/v1/memories", acme, memory("alice", "Alice moved to Porto."));
      assertThat(failed.status()).as(failed.toString()).isEqualTo(500);
      assertThat(failed.json().get("type").asText()).isEqualTo("urn:mnemo:problem:store-failure");

      JsonNode f = onlyFailed(s, "acme", "write");
      assertThat(f.get("error").asText()).contains("No space left on device");
      assertThat(s.send("GET", "/health/live", null, null).status()).isEqualTo(200);
      assertThat(s.send("GET", "/metrics", TestServer.ADMIN, null).body())
          .contains("mnemo_tenants_failed 1.0");

      // The other tenant is unaffected; its validation errors do not count as store failures.
      assertThat(
              s.send("POST", "/v1/memories", beta, memory("bob", "Bob drinks espresso.")).status())
          .isEqualTo(201);
      assertThat(s.send("POST", "/v1/memories", beta, "{\"owner\":\"bob\",\"text\":\"\"}").status())
          .isEqualTo(422);
      // Reads of the failed tenant still work (the store kept its last commit).
      TestServer.Response recall =
          s.send(
              "POST",
              "/v1/recall",
              acme,
              "{\"owner\":\"alice\",\"text\":\"What does Alice like?\"}");
      assertThat(recall.status()).isEqualTo(200);
      assertThat(recall.json().get("block").asText())
          .contains("Alice likes tea.")
          .doesNotContain("Porto");

      // The store keeps refusing (as Lucene does until reopened) while its back-off lasts.
      assertThat(
              s.send("POST", "/v1/memories", acme, memory("alice", "Alice moved to Faro."))
                  .status())
          .isEqualTo(500);
      assertThat(s.send("DELETE", "/v1/owners/alice", acme, null).status()).isEqualTo(500);
      assertThat(onlyFailed(s, "acme", "write").get("error").asText()).contains("rolled back");

      // Only the admin reopens a tenant, and only an existing one.
      assertThat(s.send("POST", "/v1/tenants/acme/reopen", acme, null).status()).isEqualTo(403);
      assertThat(s.send("POST", "/v1/tenants/nosuch/reopen", TestServer.ADMIN, null).status())
          .isEqualTo(404);
      TestServer.Response reopened =
          s.send("POST", "/v1/tenants/acme/reopen", TestServer.ADMIN, null);
      assertThat(reopened.status()).as(reopened.toString()).isEqualTo(200);
      assertThat(reopened.json().get("status").asText()).isEqualTo("open");
      assertThat(ready(s).get("failed_tenants")).isEmpty();
      assertThat(
              s.send("POST", "/v1/memories", acme, memory("alice", "Alice moved to Faro."))
                  .status())
          .isEqualTo(201);
      String block =
          s.send(
                  "POST",
                  "/v1/recall",
                  acme,
                  "{\"owner\":\"alice\",\"text\":\"Where did Alice move?\"}")
              .json()
              .get("block")
              .asText();
      assertThat(block).contains("Faro").doesNotContain("Porto");
      assertThat(s.send("GET", "/metrics", TestServer.ADMIN, null).body())
          .contains("mnemo_tenants_failed 0.0");
    }
  }

  @Test
  void aStoreThatRefusesWrites_isReopenedByTheFirstRequestAfterItsBackoff() throws Exception {
    Duration backoff = Duration.ofMillis(300);
    try (TestServer s = start(true, backoff)) {
      String acme = s.key("acme");
      assertThat(s.send("POST", "/v1/memories", acme, memory("alice", "Alice likes tea.")).status())
          .isEqualTo(201);
      stores.get("acme").failNext = true;
      assertThat(
              s.send("POST", "/v1/memories", acme, memory("alice", "Alice moved to Porto."))
                  .status())
          .isEqualTo(500);
      Instant next = Instant.parse(onlyFailed(s, "acme", "write").get("next_attempt").asText());
      Thread.sleep(Math.max(0, Duration.between(Instant.now(), next).toMillis()) + 50);

      int before = opens.get();
      assertThat(
              s.send("POST", "/v1/memories", acme, memory("alice", "Alice moved to Faro."))
                  .status())
          .isEqualTo(201);
      assertThat(opens.get()).as("reopened once").isEqualTo(before + 1);
      assertThat(ready(s).get("failed_tenants")).isEmpty();
      assertThat(
              s.send(
                      "POST",
                      "/v1/recall",
                      acme,
                      "{\"owner\":\"alice\",\"text\":\"Where did Alice move?\"}")
                  .json()
                  .get("block")
                  .asText())
          .contains("Faro")
          .doesNotContain("Porto");
    }
  }

  @Test
  void aStoreThatCannotBeOpened_answers503_isListed_andOpensAfterItsBackoffOrByTheAdmin()
      throws Exception {
    Duration backoff = Duration.ofMillis(400);
    try (TestServer s = start(true, backoff)) {
      String acme = s.key("acme");
      String beta = s.key("beta");
      unopenable.add("acme");

      TestServer.Response refused =
          s.send("POST", "/v1/memories", acme, memory("alice", "Alice likes tea."));
      assertThat(refused.status()).as(refused.toString()).isEqualTo(503);
      assertThat(refused.json().get("detail").asText())
          .contains("'acme'")
          .contains("corrupt segment")
          .contains("POST /v1/tenants/acme/reopen");
      assertThat(refused.headers().firstValue("Retry-After")).isPresent();
      JsonNode f = onlyFailed(s, "acme", "open");
      assertThat(f.get("attempts").asInt()).isEqualTo(1);
      assertThat(f.get("error").asText()).contains("corrupt segment");
      assertThat(s.send("POST", "/v1/memories", beta, memory("bob", "Bob likes coffee.")).status())
          .isEqualTo(201);

      // Within the back-off a request does not try again (no reopen storm on a broken disk).
      int before = opens.get();
      assertThat(s.send("GET", "/v1/owners", acme, null).status()).isEqualTo(503);
      assertThat(opens.get()).isEqualTo(before);

      // After it, the next request tries again; a second failure doubles the wait.
      Instant next = Instant.parse(f.get("next_attempt").asText());
      Thread.sleep(Math.max(0, Duration.between(Instant.now(), next).toMillis()) + 50);
      assertThat(s.send("GET", "/v1/owners", acme, null).status()).isEqualTo(503);
      assertThat(opens.get()).isEqualTo(before + 1);
      JsonNode again = onlyFailed(s, "acme", "open");
      assertThat(again.get("attempts").asInt()).isEqualTo(2);
      assertThat(again.get("since").asText()).isEqualTo(f.get("since").asText());
      assertThat(Duration.between(Instant.now(), Instant.parse(again.get("next_attempt").asText())))
          .isGreaterThan(backoff.plusMillis(100));

      // The admin's reopen tries at once: refused while the store is broken, then open.
      assertThat(s.send("POST", "/v1/tenants/acme/reopen", TestServer.ADMIN, null).status())
          .isEqualTo(503);
      assertThat(onlyFailed(s, "acme", "open").get("attempts").asInt()).isEqualTo(3);
      unopenable.remove("acme");
      assertThat(s.send("POST", "/v1/tenants/acme/reopen", TestServer.ADMIN, null).status())
          .isEqualTo(200);
      assertThat(ready(s).get("failed_tenants")).isEmpty();
      assertThat(s.send("POST", "/v1/memories", acme, memory("alice", "Alice likes tea.")).status())
          .isEqualTo(201);

      // The same after the back-off, without the admin.
      unopenable.add("beta");
      s.send("POST", "/v1/tenants/beta/reopen", TestServer.ADMIN, null);
      onlyFailed(s, "beta", "open");
      unopenable.remove("beta");
      Thread.sleep(backoff.toMillis() + 100);
      TestServer.Response owners = s.send("GET", "/v1/owners", beta, null);
      assertThat(owners.status()).as(owners.toString()).isEqualTo(200);
      assertThat(owners.body()).contains("bob");
      assertThat(ready(s).get("failed_tenants")).isEmpty();
    }
  }

  @Test
  void aFailureThatPasses_clearsWithTheNextDurableWrite_notWithANoOp() {
    try (TestServer s = start(true, NEVER)) {
      String acme = s.key("acme");
      String stored =
          s.send("POST", "/v1/memories", acme, memory("alice", "Alice likes tea."))
              .json()
              .get("ids")
              .get(0)
              .asText();
      FailingStore store = stores.get("acme");
      store.sticky = false;
      store.failNext = true;
      assertThat(
              s.send("POST", "/v1/memories", acme, memory("alice", "Alice moved to Porto."))
                  .status())
          .isEqualTo(500);
      onlyFailed(s, "acme", "write");

      // Calls that changed nothing never reached the store, so they prove nothing.
      assertThat(s.send("DELETE", "/v1/owners/alice/memories/no-such-id", acme, null).status())
          .isEqualTo(404);
      assertThat(
              s.send("POST", "/v1/owners/alice/used", acme, "{\"ids\":[\"no-such-id\"]}").status())
          .isLessThan(300);
      onlyFailed(s, "acme", "write");

      assertThat(
              s.send("POST", "/v1/owners/alice/used", acme, "{\"ids\":[\"" + stored + "\"]}")
                  .status())
          .isLessThan(300);
      assertThat(ready(s).get("failed_tenants")).isEmpty();
      assertThat(s.send("GET", "/metrics", TestServer.ADMIN, null).body())
          .contains("mnemo_tenants_failed 0.0");
    }
  }

  @Test
  void writeHealth_aWriteThatStartedBeforeTheFailure_doesNotClearIt() {
    WriteHealth h = new WriteHealth();
    long early = h.begin();
    h.failed(new MnemoException("write failed", false));
    h.succeeded(early); // committed before the failure: says nothing about the store now
    assertThat(h.failure()).isPresent();
    h.failed(
        new MnemoException("timed out", true)); // retriable: not a store failure, changes nothing
    h.failed(new dev.mnemo.InvalidRequestException("text", "", "text must not be blank"));
    assertThat(h.failure().orElseThrow().message()).isEqualTo("write failed");
    long late = h.begin();
    h.succeeded(late);
    assertThat(h.failure()).isEmpty();
  }

  @Test
  void theBackoffDoublesPerFailedAttempt_upToFiveMinutes() {
    Tenants t =
        new Tenants(
            dir,
            (n, d, m) -> {
              throw new AssertionError();
            },
            ServerConfig.defaults().withTenantIdle(Duration.ZERO),
            null,
            Duration.ofSeconds(1));
    try (t) {
      assertThat(t.backoff(0)).isEqualTo(Duration.ofSeconds(1));
      assertThat(t.backoff(3)).isEqualTo(Duration.ofSeconds(8));
      assertThat(t.backoff(9)).isEqualTo(Tenants.MAX_REOPEN_BACKOFF);
      assertThat(t.backoff(1_000)).isEqualTo(Tenants.MAX_REOPEN_BACKOFF);
    }
  }
}

package dev.mnemo.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.mnemo.MemoryRecord;
import dev.mnemo.Mnemo;
import dev.mnemo.MnemoException;
import dev.mnemo.spi.CandidateQuery;
import dev.mnemo.spi.CandidateSet;
import dev.mnemo.spi.Eligibility;
import dev.mnemo.spi.MemoryStore;
import dev.mnemo.store.lucene.LuceneMemoryStore;
import dev.mnemo.testkit.HashingEmbedder;
import java.nio.file.Path;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/**
 * {@code /health/ready} turns 503 when a tenant's store has failed: a store that refuses writes
 * after a failed commit (as the Lucene store does) is named in the problem until the process
 * restarts; a store whose failure passes is ready again after its next durable write. Other
 * tenants keep working; validation errors and no-op writes change nothing.
 */
class ReadinessIT {
  @TempDir Path dir;

  /**
   * The real Lucene store behind a switch: {@code failNext} makes the next apply fail; in {@code
   * sticky} mode every later write is then refused, as {@link LuceneMemoryStore} does after a failed
   * commit (it rolls back and asks to be reopened); otherwise the failure passes.
   */
  static final class FailingStore implements MemoryStore {
    final MemoryStore delegate;
    volatile boolean failNext;
    volatile boolean sticky = true;
    volatile boolean failed;

    FailingStore(MemoryStore delegate) {
      this.delegate = delegate;
    }

    private void check() {
      if (failed) {
        throw new MnemoException("the store was rolled back to its last commit after a failed write; reopen it", false);
      }
      if (failNext) {
        failNext = false;
        failed = sticky;
        throw new MnemoException("write failed, nothing was acknowledged: No space left on device", false);
      }
    }

    @Override public void apply(List<MemoryRecord> upserts, Collection<String> deleteIds) {
      check();
      delegate.apply(upserts, deleteIds);
    }

    @Override public int deleteOwner(String owner) {
      check();
      return delegate.deleteOwner(owner);
    }

    @Override public Optional<MemoryRecord> get(String owner, String id) { return delegate.get(owner, id); }
    @Override public List<MemoryRecord> versions(String owner, String factKey) { return delegate.versions(owner, factKey); }
    @Override public List<MemoryRecord> lineage(String owner, String id) { return delegate.lineage(owner, id); }
    @Override public CandidateSet candidates(CandidateQuery query) { return delegate.candidates(query); }
    @Override public List<MemoryRecord> latest(Eligibility e, int limit) { return delegate.latest(e, limit); }
    @Override public void export(String owner, Consumer<MemoryRecord> sink) { delegate.export(owner, sink); }
    @Override public long count() { return delegate.count(); }
    @Override public void close() { delegate.close(); }
  }

  private final Map<String, FailingStore> stores = new ConcurrentHashMap<>();

  private TestServer start(boolean groupCommit) {
    ServerConfig c = ServerConfig.defaults().withPort(0).withData(dir).withAdminKey(TestServer.ADMIN)
        .withLogRequests(false).withGroupCommit(groupCommit);
    return new TestServer(MnemoServer.builder(c, (tenant, d, maxTextChars) -> {
      FailingStore store = new FailingStore(LuceneMemoryStore.open(d));
      stores.put(tenant, store);
      return Mnemo.builder().store(store).embedder(new HashingEmbedder()).maxTextChars(maxTextChars).build();
    }).build().start());
  }

  private static String memory(String owner, String text) {
    return "{\"owner\":\"" + owner + "\",\"text\":\"" + text + "\"}";
  }

  @ParameterizedTest(name = "group commit {0}")
  @ValueSource(booleans = {true, false})
  void aStoreThatRefusesWrites_makesTheServerNotReady_namingTheTenant(boolean groupCommit) {
    try (TestServer s = start(groupCommit)) {
      String acme = s.key("acme");
      String beta = s.key("beta");
      assertThat(s.send("POST", "/v1/memories", acme, memory("alice", "Alice likes tea.")).status()).isEqualTo(201);
      assertThat(s.send("POST", "/v1/memories", beta, memory("bob", "Bob likes coffee.")).status()).isEqualTo(201);
      assertThat(s.send("GET", "/health/ready", null, null).status()).isEqualTo(200);

      stores.get("acme").failNext = true;
      TestServer.Response failed = s.send("POST", "/v1/memories", acme, memory("alice", "Alice moved to Porto."));
      assertThat(failed.status()).as(failed.toString()).isEqualTo(500);
      assertThat(failed.json().get("type").asText()).isEqualTo("urn:mnemo:problem:store-failure");

      TestServer.Response ready = s.send("GET", "/health/ready", null, null);
      assertThat(ready.status()).as(ready.toString()).isEqualTo(503);
      assertThat(ready.contentType()).startsWith("application/problem+json");
      JsonNode p = ready.json();
      assertThat(p.get("type").asText()).isEqualTo("urn:mnemo:problem:not-ready");
      assertThat(p.get("detail").asText()).contains("'acme'").contains("No space left on device").doesNotContain("beta");
      assertThat(p.get("failed_tenants")).hasSize(1);
      assertThat(p.get("failed_tenants").get(0).get("tenant").asText()).isEqualTo("acme");
      assertThat(p.get("failed_tenants").get(0).get("since").asText()).isNotBlank();
      assertThat(s.send("GET", "/health/live", null, null).status()).isEqualTo(200);
      assertThat(s.send("GET", "/metrics", TestServer.ADMIN, null).body()).contains("mnemo_tenants_failed 1.0");

      // The other tenant is unaffected; its validation errors do not count as store failures.
      assertThat(s.send("POST", "/v1/memories", beta, memory("bob", "Bob drinks espresso.")).status()).isEqualTo(201);
      assertThat(s.send("POST", "/v1/memories", beta, "{\"owner\":\"bob\",\"text\":\"\"}").status()).isEqualTo(422);
      // Reads of the failed tenant still work (the store kept its last commit).
      TestServer.Response recall = s.send("POST", "/v1/recall", acme, "{\"owner\":\"alice\",\"text\":\"What does Alice like?\"}");
      assertThat(recall.status()).isEqualTo(200);
      assertThat(recall.json().get("block").asText()).contains("Alice likes tea.").doesNotContain("Porto");

      // The store keeps refusing (as Lucene does until reopened): still not ready, now with that error.
      assertThat(s.send("POST", "/v1/memories", acme, memory("alice", "Alice moved to Faro.")).status()).isEqualTo(500);
      assertThat(s.send("DELETE", "/v1/owners/alice", acme, null).status()).isEqualTo(500);
      TestServer.Response still = s.send("GET", "/health/ready", null, null);
      assertThat(still.status()).isEqualTo(503);
      assertThat(still.json().get("detail").asText()).contains("'acme'").contains("rolled back");
    }
  }

  @Test
  void aFailureThatPasses_clearsWithTheNextDurableWrite_notWithANoOp() {
    try (TestServer s = start(true)) {
      String acme = s.key("acme");
      String stored = s.send("POST", "/v1/memories", acme, memory("alice", "Alice likes tea.")).json()
          .get("ids").get(0).asText();
      FailingStore store = stores.get("acme");
      store.sticky = false;
      store.failNext = true;
      assertThat(s.send("POST", "/v1/memories", acme, memory("alice", "Alice moved to Porto.")).status()).isEqualTo(500);
      assertThat(s.send("GET", "/health/ready", null, null).status()).isEqualTo(503);

      // Calls that changed nothing never reached the store, so they prove nothing.
      assertThat(s.send("DELETE", "/v1/owners/alice/memories/no-such-id", acme, null).status()).isEqualTo(404);
      assertThat(s.send("POST", "/v1/owners/alice/used", acme, "{\"ids\":[\"no-such-id\"]}").status()).isLessThan(300);
      assertThat(s.send("GET", "/health/ready", null, null).status()).isEqualTo(503);

      assertThat(s.send("POST", "/v1/owners/alice/used", acme, "{\"ids\":[\"" + stored + "\"]}").status()).isLessThan(300);
      TestServer.Response ready = s.send("GET", "/health/ready", null, null);
      assertThat(ready.status()).as(ready.toString()).isEqualTo(200);
      assertThat(s.send("GET", "/metrics", TestServer.ADMIN, null).body()).contains("mnemo_tenants_failed 0.0");
    }
  }

  @Test
  void writeHealth_aWriteThatStartedBeforeTheFailure_doesNotClearIt() {
    WriteHealth h = new WriteHealth();
    long early = h.begin();
    h.failed(new MnemoException("write failed", false));
    h.succeeded(early); // committed before the failure: says nothing about the store now
    assertThat(h.failure()).isPresent();
    h.failed(new MnemoException("timed out", true)); // retriable: not a store failure, changes nothing
    h.failed(new dev.mnemo.InvalidRequestException("text", "", "text must not be blank"));
    assertThat(h.failure().orElseThrow().message()).isEqualTo("write failed");
    long late = h.begin();
    h.succeeded(late);
    assertThat(h.failure()).isEmpty();
  }
}

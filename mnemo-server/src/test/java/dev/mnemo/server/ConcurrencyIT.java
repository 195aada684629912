package dev.mnemo.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.mnemo.InvalidRequestException.Violation;
import dev.mnemo.MemoryRecord;
import dev.mnemo.Mnemo;
import dev.mnemo.NewMemory;
import dev.mnemo.RecallRequest;
import dev.mnemo.RecallResult;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Group commit, failure isolation inside a shared commit, and readers during supersession. */
class ConcurrencyIT {
  @TempDir Path dir;

  /**
   * Delegates to a real engine; records each rememberAll's size and can hold the first one back.
   */
  static final class Recording implements Mnemo {
    final Mnemo e;
    final List<Integer> batches = new CopyOnWriteArrayList<>();
    volatile CountDownLatch entered = new CountDownLatch(1);
    volatile CountDownLatch release = new CountDownLatch(0);
    volatile long delayMillis;

    Recording(Mnemo e) {
      this.e = e;
    }

    @Override
    public MemoryRecord remember(NewMemory m) {
      return rememberAll(List.of(m)).get(0);
    }

    @Override
    public List<MemoryRecord> rememberAll(List<NewMemory> m) {
      batches.add(m.size());
      entered.countDown();
      try {
        release.await(10, TimeUnit.SECONDS);
        if (delayMillis > 0) Thread.sleep(delayMillis); // a slow fsync
      } catch (InterruptedException x) {
        Thread.currentThread().interrupt();
      }
      return e.rememberAll(m);
    }

    @Override
    public List<Violation> validate(NewMemory m, String p) {
      return e.validate(m, p);
    }

    @Override
    public dev.mnemo.IngestReceipt ingest(List<dev.mnemo.Turn> t) {
      return e.ingest(t);
    }

    @Override
    public List<dev.mnemo.Turn> sources(String o, String id) {
      return e.sources(o, id);
    }

    @Override
    public dev.mnemo.IngestReceipt accept(String o, String id) {
      return e.accept(o, id);
    }

    @Override
    public dev.mnemo.IngestProgress ingestProgress() {
      return e.ingestProgress();
    }

    @Override
    public boolean awaitIngested(java.time.Duration d) {
      return e.awaitIngested(d);
    }

    @Override
    public Optional<dev.mnemo.Maintenance> maintenance() {
      return e.maintenance();
    }

    @Override
    public Optional<dev.mnemo.RetrievalLog> retrievalLog() {
      return e.retrievalLog();
    }

    @Override
    public Optional<MemoryRecord> summarize(String o, String ep) {
      return e.summarize(o, ep);
    }

    @Override
    public MemoryRecord recategorize(String o, String id, dev.mnemo.Category c) {
      return e.recategorize(o, id, c);
    }

    @Override
    public RecallResult recall(RecallRequest r) {
      return e.recall(r);
    }

    @Override
    public List<MemoryRecord> history(String o, String k) {
      return e.history(o, k);
    }

    @Override
    public Optional<MemoryRecord> get(String o, String id) {
      return e.get(o, id);
    }

    @Override
    public int forget(String o) {
      return e.forget(o);
    }

    @Override
    public int forget(String o, String id) {
      return e.forget(o, id);
    }

    @Override
    public int markUsed(String o, Collection<String> ids) {
      return e.markUsed(o, ids);
    }

    @Override
    public void export(String o, Consumer<MemoryRecord> s) {
      e.export(o, s);
    }

    @Override
    public void close() {
      e.close();
    }
  }

  @Test
  void concurrentWriters_shareCommits() throws Exception {
    List<Recording> engines = new CopyOnWriteArrayList<>();
    ServerConfig base =
        ServerConfig.defaults()
            .withPort(0)
            .withData(dir)
            .withAdminKey(TestServer.ADMIN)
            .withLogRequests(false);
    MnemoServer server =
        MnemoServer.builder(
                base,
                (t, d, max) -> {
                  Recording r = new Recording(TestServer.engine(t, d, max));
                  r.delayMillis = 20;
                  engines.add(r);
                  return r;
                })
            .build()
            .start();
    try (TestServer s = new TestServer(server)) {
      String key = s.key("acme");
      int writers = 16;
      int each = 5;
      ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor();
      List<Future<Integer>> results = new ArrayList<>();
      for (int w = 0; w < writers; w++) {
        int ww = w;
        results.add(
            pool.submit(
                () -> {
                  int ok = 0;
                  for (int i = 0; i < each; i++) {
                    TestServer.Response r =
                        s.send(
                            "POST",
                            "/v1/memories",
                            key,
                            "{\"owner\":\"o"
                                + ww
                                + "\",\"text\":\"note "
                                + i
                                + " of writer "
                                + ww
                                + "\"}");
                    if (r.status() == 201) ok++;
                  }
                  return ok;
                }));
      }
      int ok = 0;
      for (Future<Integer> f : results) ok += f.get(60, TimeUnit.SECONDS);
      pool.shutdown();
      assertThat(ok).isEqualTo(writers * each);
      List<Integer> batches = engines.get(0).batches;
      assertThat(batches.stream().mapToInt(Integer::intValue).sum()).isEqualTo(writers * each);
      // 80 requests against a 20 ms commit: they cannot all have committed alone.
      assertThat(batches.size())
          .as("commits for %d requests: %s", writers * each, batches)
          .isLessThan(writers * each / 2);
      String metrics = s.send("GET", "/metrics", TestServer.ADMIN, null).body();
      assertThat(metric(metrics, "mnemo_group_commit_requests_count")).isEqualTo(batches.size());
      assertThat(metric(metrics, "mnemo_group_commit_requests_sum")).isEqualTo(writers * each);
      assertThat(s.send("GET", "/v1/export", key, null).body().lines().count())
          .isEqualTo(writers * each);
    }
  }

  @Test
  void oneInvalidRequestInASharedCommit_failsAloneAndTheOthersAreWritten() throws Exception {
    List<Recording> engines = new CopyOnWriteArrayList<>();
    ServerConfig base =
        ServerConfig.defaults()
            .withPort(0)
            .withData(dir)
            .withAdminKey(TestServer.ADMIN)
            .withLogRequests(false);
    MnemoServer server =
        MnemoServer.builder(
                base,
                (t, d, max) -> {
                  Recording r = new Recording(TestServer.engine(t, d, max));
                  engines.add(r);
                  return r;
                })
            .build()
            .start();
    try (TestServer s = new TestServer(server)) {
      String key = s.key("acme");
      // A fact recorded now (a minute ahead, inside the allowed clock skew): a later write of the
      // same key recorded earlier is refused, which only the store can tell, so it passes
      // validation and reaches the shared commit.
      String now =
          java.time.Instant.now()
              .plusSeconds(60)
              .truncatedTo(java.time.temporal.ChronoUnit.SECONDS)
              .toString();
      assertThat(
              s.send(
                      "POST",
                      "/v1/memories",
                      key,
                      "{\"owner\":\"alice\",\"text\":\"Alice lives in Oslo\",\"fact_key\":\"city\",\"recorded_at\":\""
                          + now
                          + "\"}")
                  .status())
          .isEqualTo(201);
      Recording engine = engines.get(0);
      engine.batches.clear();
      engine.entered = new CountDownLatch(1);
      engine.release = new CountDownLatch(1);
      ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor();
      Future<TestServer.Response> blocker =
          pool.submit(
              () ->
                  s.send(
                      "POST",
                      "/v1/memories",
                      key,
                      "{\"owner\":\"bob\",\"text\":\"Bob holds the first commit\"}"));
      assertThat(engine.entered.await(10, TimeUnit.SECONDS)).isTrue();
      List<Future<TestServer.Response>> good = new ArrayList<>();
      for (int i = 0; i < 4; i++) {
        int ii = i;
        good.add(
            pool.submit(
                () ->
                    s.send(
                        "POST",
                        "/v1/memories",
                        key,
                        "{\"owner\":\"carol\",\"text\":\"good " + ii + "\"}")));
      }
      Future<TestServer.Response> bad =
          pool.submit(
              () ->
                  s.send(
                      "POST",
                      "/v1/memories",
                      key,
                      "{\"owner\":\"alice\",\"text\":\"Alice lives in Rome\",\"fact_key\":\"city\",\"recorded_at\":\"2020-01-01\"}"));
      waitForQueue(s, 5);
      engine.release.countDown();
      assertThat(blocker.get(10, TimeUnit.SECONDS).status()).isEqualTo(201);
      for (Future<TestServer.Response> f : good)
        assertThat(f.get(10, TimeUnit.SECONDS).status()).isEqualTo(201);
      TestServer.Response b = bad.get(10, TimeUnit.SECONDS);
      assertThat(b.status()).as(b.toString()).isEqualTo(422);
      assertThat(b.json().get("errors").get(0).get("field").asText()).isEqualTo("recorded_at");
      pool.shutdown();
      // first the blocker alone, then the five together (refused), then each alone
      assertThat(engine.batches).startsWith(1, 5).hasSize(7);
      String exported = s.send("GET", "/v1/export", key, null).body();
      assertThat(exported.lines().count()).isEqualTo(6);
      assertThat(exported).doesNotContain("Rome");
    }
  }

  static double metric(String scrape, String name) {
    return scrape
        .lines()
        .filter(l -> l.startsWith(name + " "))
        .mapToDouble(l -> Double.parseDouble(l.substring(name.length() + 1)))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no metric " + name));
  }

  private static void waitForQueue(TestServer s, int depth) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (System.nanoTime() < deadline) {
      String m = s.send("GET", "/metrics", TestServer.ADMIN, null).body();
      if (metric(m, "mnemo_group_commit_queue_depth") == depth) return;
      Thread.sleep(10);
    }
    throw new AssertionError("the queue never reached " + depth);
  }

  /**
   * The whole answer, conflict surfacing included: stage 7 reads the fact key's versions with a
   * second store search, which may see a commit made after the candidates' search; it must not then
   * show the superseded version and its successor together as a "conflict".
   */
  @Test
  void readersDuringCorrections_alwaysSeeExactlyOneCurrentVersion() throws Exception {
    hammer(false);
  }

  /**
   * What the store and the server guarantee: the ranked selection (candidates drawn from one
   * snapshot, without the records stage 7 adds) never holds two current versions of a fact.
   */
  @Test
  void readersDuringCorrections_rankedSelectionHasExactlyOneCurrentVersion() throws Exception {
    hammer(true);
  }

  private void hammer(boolean rankedOnly) throws Exception {
    try (TestServer s = new TestServer(dir)) {
      String key = s.key("acme");
      assertThat(
              s.send(
                      "POST",
                      "/v1/memories",
                      key,
                      "{\"owner\":\"alice\",\"text\":\"Alice lives in city0\",\"fact_key\":\"city\"}")
                  .status())
          .isEqualTo(201);
      AtomicBoolean writing = new AtomicBoolean(true);
      AtomicInteger reads = new AtomicInteger();
      List<String> failures = new CopyOnWriteArrayList<>();
      ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor();
      List<Future<?>> readers = new ArrayList<>();
      for (int r = 0; r < 4; r++) {
        readers.add(
            pool.submit(
                () -> {
                  while (writing.get()) {
                    TestServer.Response resp =
                        s.send(
                            "POST",
                            "/v1/recall",
                            key,
                            "{\"owner\":\"alice\",\"text\":\"Alice lives in city\",\"k\":50,\"threshold\":0,\"budget_tokens\":4000,"
                                + "\"explain\":true}");
                    int n = 0;
                    for (JsonNode c : resp.json().get("trace").get("candidates")) {
                      boolean surfaced = c.get("found_by").toString().contains("conflict");
                      if ("selected".equals(c.get("outcome").asText())
                          && "city".equals(c.path("fact_key").asText())
                          && !(rankedOnly && surfaced)) {
                        n++;
                      }
                    }
                    if (n != 1) failures.add(n + " current versions: " + resp.body());
                    reads.incrementAndGet();
                  }
                }));
      }
      List<Future<?>> writers = new ArrayList<>();
      for (int w = 0; w < 4; w++) {
        int ww = w;
        writers.add(
            pool.submit(
                () -> {
                  for (int i = 1; i <= 15; i++) {
                    TestServer.Response resp =
                        s.send(
                            "POST",
                            "/v1/memories",
                            key,
                            "{\"owner\":\"alice\",\"text\":\"Alice lives in city"
                                + ww
                                + "x"
                                + i
                                + "\",\"fact_key\":\"city\"}");
                    if (resp.status() != 201) failures.add("write: " + resp);
                  }
                }));
      }
      for (Future<?> f : writers) f.get(60, TimeUnit.SECONDS);
      writing.set(false);
      for (Future<?> f : readers) f.get(60, TimeUnit.SECONDS);
      pool.shutdown();
      assertThat(failures).isEmpty();
      assertThat(reads.get()).isGreaterThan(10);
      JsonNode h = s.send("GET", "/v1/owners/alice/history?fact_key=city", key, null).json();
      long believedNow = 0;
      for (JsonNode v : h.get("versions"))
        if (v.get("expired_at").isNull() && v.get("valid_to").isNull()) believedNow++;
      assertThat(believedNow).isEqualTo(1);
    }
  }

  @Test
  void withoutGroupCommit_writesStillWork() {
    try (TestServer s = new TestServer(dir, c -> c.withGroupCommit(false), b -> b)) {
      String key = s.key("acme");
      assertThat(
              s.send(
                      "POST",
                      "/v1/memories",
                      key,
                      "{\"records\":[{\"owner\":\"a\",\"text\":\"one\"},{\"owner\":\"a\",\"text\":\"two\"}]}")
                  .status())
          .isEqualTo(201);
      TestServer.Response bad =
          s.send("POST", "/v1/memories", key, "{\"records\":[{\"owner\":\"a\",\"text\":\"\"}]}");
      assertThat(bad.json().get("errors").get(0).get("field").asText())
          .isEqualTo("records[0].text");
      assertThat(s.send("GET", "/v1/export", key, null).body().lines().count()).isEqualTo(2);
    }
  }
}

package dev.mnemo.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.mnemo.RecallRequest;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The bound on open tenant stores ({@code tenants.max_open}) and readiness under descriptor
 * pressure: more tenants than the bound stay served, with at most the bound open, every
 * acknowledged write kept, and a store in use never closed under its request.
 */
class TenantBoundIT {
  static final int BOUND = 8;

  @TempDir Path dir;

  private static TestServer server(Path dir, int bound) {
    return new TestServer(
        dir,
        c ->
            c.withTenantIdle(Duration.ZERO) // no idle close: only the bound closes stores
                .withCapacity(
                    new ServerConfig.Capacity(
                        bound, 0, ServerConfig.Capacity.DERIVED.idleTimeout())),
        b -> b);
  }

  private static JsonNode ready(TestServer s) {
    TestServer.Response r = s.send("GET", "/health/ready", TestServer.ADMIN, null);
    assertThat(r.status()).as(r.toString()).isEqualTo(200);
    return r.json();
  }

  @Test
  void tenantsPastTheBound_areServed_withAtMostTheBoundOpen_andNoWriteLost() {
    int tenants = BOUND + 50;
    try (TestServer s = server(dir, BOUND)) {
      List<String> keys = new ArrayList<>();
      long fds0 = Descriptors.open();
      long peakFds = fds0;
      int peakOpen = 0;
      for (int i = 0; i < tenants; i++) {
        String key = s.key("t" + i);
        keys.add(key);
        TestServer.Response w =
            s.send(
                "POST",
                "/v1/memories",
                key,
                "{\"owner\":\"o\",\"text\":\"tenant " + i + " keeps the number " + i + "\"}");
        assertThat(w.status()).as(w.toString()).isEqualTo(201);
        TestServer.Response r =
            s.send("POST", "/v1/recall", key, "{\"owner\":\"o\",\"text\":\"which number\"}");
        assertThat(r.status()).as(r.toString()).isEqualTo(200);
        JsonNode ready = ready(s);
        peakOpen = Math.max(peakOpen, ready.get("tenants_open").asInt());
        peakFds = Math.max(peakFds, Descriptors.open());
      }
      JsonNode ready = ready(s);
      System.out.printf(
          "tenant bound: %d tenants with tenants.max_open %d: peak open %d, closed for room %d;"
              + " descriptors %d before, peak %d (%.1f per open tenant)%n",
          tenants,
          BOUND,
          peakOpen,
          ready.get("tenants_closed_for_room").asLong(),
          fds0,
          peakFds,
          (peakFds - fds0) / (double) BOUND);
      assertThat(peakOpen).isLessThanOrEqualTo(BOUND);
      assertThat(ready.get("tenants_max_open").asInt()).isEqualTo(BOUND);
      assertThat(ready.get("tenants_closed_for_room").asLong())
          .isGreaterThanOrEqualTo(tenants - BOUND);
      if (fds0 >= 0) {
        assertThat((peakFds - fds0) / (double) BOUND)
            .as("descriptors per open tenant within the budget")
            .isLessThanOrEqualTo(Descriptors.PER_TENANT);
      }
      // every tenant reopens with its acknowledged write (its store was closed for room)
      for (int i = 0; i < tenants; i++) {
        JsonNode got =
            s.send(
                    "POST",
                    "/v1/recall",
                    keys.get(i),
                    "{\"owner\":\"o\",\"text\":\"which number\",\"threshold\":0}")
                .json();
        assertThat(got.toString()).contains("the number " + i + "\"");
      }
      assertThat(ready(s).get("tenants_open").asInt()).isLessThanOrEqualTo(BOUND);
    }
  }

  /**
   * Four clients at once over 30 tenants with a bound of 6: stores close for room while other
   * requests open, use and release theirs, and every request succeeds (fewer clients than the
   * bound, so a closable store always exists) with every acknowledged write found afterwards.
   */
  @Test
  void concurrentClientsOverMoreTenantsThanTheBound_allSucceed_andLoseNoWrite() throws Exception {
    int bound = 6;
    int tenants = 30;
    int perClient = 60;
    try (TestServer s = server(dir, bound)) {
      List<String> keys = new ArrayList<>();
      for (int i = 0; i < tenants; i++) keys.add(s.key("c" + i));
      java.util.concurrent.ConcurrentLinkedQueue<String> failures =
          new java.util.concurrent.ConcurrentLinkedQueue<>();
      java.util.concurrent.ConcurrentHashMap<Integer, java.util.Set<String>> written =
          new java.util.concurrent.ConcurrentHashMap<>();
      java.util.concurrent.atomic.AtomicInteger peakOpen =
          new java.util.concurrent.atomic.AtomicInteger();
      List<Thread> clients = new ArrayList<>();
      for (int c = 0; c < 4; c++) {
        long seed = 37L * (c + 1);
        clients.add(
            Thread.ofPlatform()
                .start(
                    () -> {
                      java.util.Random random = new java.util.Random(seed);
                      for (int n = 0; n < perClient; n++) {
                        int t = random.nextInt(tenants);
                        String text = "client seed " + seed + " wrote item " + n;
                        TestServer.Response r =
                            n % 2 == 0
                                ? s.send(
                                    "POST",
                                    "/v1/memories",
                                    keys.get(t),
                                    "{\"owner\":\"o\",\"text\":\"" + text + "\"}")
                                : s.send(
                                    "POST",
                                    "/v1/recall",
                                    keys.get(t),
                                    "{\"owner\":\"o\",\"text\":\"which item\"}");
                        if (r.status() / 100 != 2) failures.add(t + ": " + r);
                        else if (n % 2 == 0)
                          written
                              .computeIfAbsent(
                                  t, k -> java.util.concurrent.ConcurrentHashMap.newKeySet())
                              .add(r.json().get("ids").get(0).asText());
                        peakOpen.accumulateAndGet(s.server.openTenantsForTest(), Math::max);
                      }
                    }));
      }
      for (Thread t : clients) t.join(120_000);
      assertThat(failures).isEmpty();
      assertThat(peakOpen.get()).isLessThanOrEqualTo(bound);
      for (var e : written.entrySet()) {
        for (String id : e.getValue()) {
          assertThat(
                  s.send("GET", "/v1/owners/o/memories/" + id, keys.get(e.getKey()), null).status())
              .as("acknowledged write " + id + " of tenant c" + e.getKey())
              .isEqualTo(200);
        }
      }
      System.out.printf(
          "tenant bound: 4 clients, %d requests over %d tenants, bound %d: peak open %d, closed for"
              + " room %d%n",
          4 * perClient,
          tenants,
          bound,
          peakOpen.get(),
          ready(s).get("tenants_closed_for_room").asLong());
    }
  }

  @Test
  void aStoreInUse_isNeverClosedForRoom_andWhenAllAreInUseAnotherTenantGets503() {
    int bound = 3;
    try (TestServer s = server(dir, bound)) {
      List<Tenants.Lease> held = new ArrayList<>();
      try {
        for (int i = 0; i < bound; i++) {
          Tenants.Lease l = s.server.leaseFor(new KeyStore.Principal("k" + i, "held" + i));
          l.memory().remember(dev.mnemo.NewMemory.builder("o", "held " + i + " writes").build());
          held.add(l);
        }
        // every open store is in use: a fourth tenant waits, then gets a retriable refusal
        String key = s.key("other");
        long t0 = System.nanoTime();
        TestServer.Response refused = s.send("GET", "/v1/owners", key, null);
        long waitedMs = (System.nanoTime() - t0) / 1_000_000;
        assertThat(refused.status()).as(refused.toString()).isEqualTo(503);
        assertThat(refused.body()).contains("tenants.max_open = " + bound);
        assertThat(refused.headers().firstValue("Retry-After")).isPresent();
        assertThat(waitedMs).isGreaterThanOrEqualTo(Tenants.CAPACITY_WAIT.toMillis() - 100);
        assertThat(ready(s).get("status").asText()).isEqualTo("ready");
        // the held stores still work under their leases
        for (int i = 0; i < bound; i++) {
          assertThat(
                  held.get(i)
                      .memory()
                      .recall(RecallRequest.builder("o", "writes").threshold(0).build())
                      .ids())
              .hasSize(1);
        }
        // one lease ends: its store is the one closed for the newcomer
        held.remove(0).close();
        assertThat(s.send("GET", "/v1/owners", key, null).status()).isEqualTo(200);
        for (Tenants.Lease l : held) {
          assertThat(
                  l.memory()
                      .recall(RecallRequest.builder("o", "writes").threshold(0).build())
                      .ids())
              .hasSize(1);
        }
      } finally {
        held.forEach(Tenants.Lease::close);
      }
    }
  }

  /**
   * Readiness turns not-ready before the descriptors run out: the test's own JVM (the server's)
   * opens files up to 90% of its limit. Skipped where the limit is too high to reach quickly.
   */
  @Test
  void readiness_turnsNotReady_nearTheDescriptorLimit_andBackOnceTheyAreFreed() throws Exception {
    long limit = Descriptors.limit();
    org.junit.jupiter.api.Assumptions.assumeTrue(
        Descriptors.open() >= 0 && limit <= 100_000, "limit " + limit + " too high to reach");
    try (TestServer s = server(dir, BOUND)) {
      assertThat(s.send("GET", "/health/ready", null, null).status()).isEqualTo(200);
      List<FileChannel> files = new ArrayList<>();
      Path f = dir.resolve("held");
      java.nio.file.Files.writeString(f, "x");
      try {
        long target = (long) Math.ceil(limit * Descriptors.NOT_READY_SHARE);
        while (Descriptors.open() < target) {
          long missing = target - Descriptors.open();
          for (long i = 0; i < missing; i++)
            files.add(FileChannel.open(f, StandardOpenOption.READ));
        }
        TestServer.Response r = s.send("GET", "/health/ready", null, null);
        assertThat(r.status()).as(r.toString()).isEqualTo(503);
        assertThat(r.body()).contains("open file descriptors").contains("ulimit -n");
      } finally {
        for (FileChannel c : files) c.close();
      }
      assertThat(s.send("GET", "/health/ready", null, null).status()).isEqualTo(200);
    }
  }
}

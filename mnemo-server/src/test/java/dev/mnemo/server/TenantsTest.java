package dev.mnemo.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.MemoryRecord;
import dev.mnemo.Mnemo;
import dev.mnemo.NewMemory;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Opening and idle-closing tenant stores: concurrent first requests open a store once, a slow open
 * delays only its own tenant, and the idle close never closes a store while a request uses it (the
 * race a request lost between taking the tenant's memory and recalling from it).
 */
class TenantsTest {
  @TempDir Path dir;

  private final Map<String, AtomicInteger> opens = new ConcurrentHashMap<>();

  private Tenants tenants(EngineFactory factory, Duration idle) {
    ServerConfig c = ServerConfig.defaults().withTenantIdle(idle);
    Metrics metrics = new Metrics(() -> 0, () -> 0, () -> 0, () -> 0);
    return new Tenants(dir, factory, c, metrics, Duration.ofSeconds(1));
  }

  private Mnemo counted(String tenant, Path d, int max) {
    opens.computeIfAbsent(tenant, k -> new AtomicInteger()).incrementAndGet();
    return TestServer.engine(tenant, d, max);
  }

  @Test
  void concurrentFirstRequests_openTheStoreOnce_whileAnotherTenantOpensUnhindered()
      throws Exception {
    CountDownLatch slowEntered = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    EngineFactory factory =
        (tenant, d, max) -> {
          if (tenant.equals("slow")) {
            slowEntered.countDown();
            try {
              if (!release.await(60, TimeUnit.SECONDS)) throw new AssertionError("never released");
            } catch (InterruptedException e) {
              throw new AssertionError(e);
            }
          }
          return counted(tenant, d, max);
        };
    // idle 0: no reaper
    try (Tenants t = tenants(factory, Duration.ZERO)) {
      List<CompletableFuture<TenantMemory>> first = new ArrayList<>();
      for (int i = 0; i < 8; i++) {
        first.add(
            CompletableFuture.supplyAsync(
                () -> {
                  try (Tenants.Lease l = t.lease("slow")) {
                    return l.memory();
                  }
                },
                runnable -> Thread.ofPlatform().start(runnable)));
      }
      assertThat(slowEntered.await(60, TimeUnit.SECONDS)).isTrue();
      // the slow store is still opening (its factory waits for release): another tenant opens
      // meanwhile
      TenantMemory fast =
          CompletableFuture.supplyAsync(
                  () -> {
                    try (Tenants.Lease l = t.lease("fast")) {
                      return l.memory();
                    }
                  },
                  runnable -> Thread.ofPlatform().start(runnable))
              .get(60, TimeUnit.SECONDS);
      assertThat(fast.tenant()).isEqualTo("fast");
      assertThat(release.getCount()).as("the slow open was still under way").isEqualTo(1);
      release.countDown();
      List<TenantMemory> got = new ArrayList<>();
      for (CompletableFuture<TenantMemory> f : first) got.add(f.get(60, TimeUnit.SECONDS));
      assertThat(got).allSatisfy(m -> assertThat(m).isSameAs(got.get(0)));
      assertThat(opens.get("slow").get())
          .as("one store opened for eight first requests")
          .isEqualTo(1);
      assertThat(t.openCount()).isEqualTo(2);
    }
  }

  @Test
  void idleClose_leavesAStoreInUse_andAClosedTenantReopensOnItsNextCall() throws Exception {
    // idle 1 ns: every store without a lease is idle; no reaper thread (under a millisecond),
    // closeIdle() is called here
    try (Tenants t = tenants(this::counted, Duration.ofNanos(1))) {
      MemoryRecord kept;
      try (Tenants.Lease lease = t.lease("a")) {
        kept =
            lease
                .memory()
                .remember(NewMemory.builder("o", "Maya's dog is called Biscuit.").build());
        t.closeIdle();
        assertThat(t.openCount()).as("leased: not closed").isEqualTo(1);
        assertThat(lease.memory().get("o", kept.id()))
            .isPresent(); // the store under the lease still answers
      }
      t.closeIdle();
      assertThat(t.openCount()).as("lease closed: closed idle").isZero();
      assertThat(opens.get("a").get()).isEqualTo(1);

      // an in-process caller keeps its Mnemo across idle closes: each call leases (and reopens) the
      // store
      Mnemo m = t.memory("a");
      assertThat(opens.get("a").get()).isEqualTo(2);
      t.closeIdle();
      assertThat(t.openCount()).isZero();
      assertThat(m.get("o", kept.id())).isPresent();
      assertThat(opens.get("a").get()).as("reopened by the call").isEqualTo(3);

      // a call in flight holds its lease: the idle close inside it leaves the store open
      List<String> exported = new ArrayList<>();
      m.export(
          "o",
          r -> {
            t.closeIdle();
            exported.add(r.id() + " open=" + t.openCount());
          });
      assertThat(exported).containsExactly(kept.id() + " open=1");
      t.closeIdle();
      assertThat(t.openCount()).isZero();
    }
  }

  @Test
  void aFacetKeptAcrossAnIdleClose_leasesAndReopensTheStoreForEachCall() throws Exception {
    try (Tenants t = tenants(this::counted, Duration.ofNanos(1))) {
      Mnemo m = t.memory("a");
      MemoryRecord kept =
          m.remember(NewMemory.builder("o", "Maya's dog is called Biscuit.").build());
      dev.mnemo.Maintenance maintenance = m.maintenance().orElseThrow();
      t.closeIdle();
      assertThat(t.openCount()).as("the facet holds no lease between calls").isZero();
      int before = opens.get("a").get();

      // the facet works on the reopened store, not the closed one it came from
      assertThat(maintenance.restore(List.of(kept))).isEqualTo(1);
      assertThat(opens.get("a").get()).as("reopened by the facet's call").isEqualTo(before + 1);
      t.closeIdle();
      assertThat(t.openCount()).isZero();

      assertThat(m.get("o", kept.id())).isPresent();
      assertThat(maintenance.toString()).isEqualTo("Maintenance of tenant a");
    }
  }
}

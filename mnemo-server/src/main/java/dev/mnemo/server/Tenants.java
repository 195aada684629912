package dev.mnemo.server;

import dev.mnemo.Mnemo;
import dev.mnemo.MnemoException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The tenants' engines: one store per tenant in {@code <data>/tenants/<name>/}, opened on first
 * use and closed again once unused for {@code tenants.idle_close_seconds} (default 10 minutes)
 * with nothing queued for a commit and nothing waiting for extraction. So a server holds file
 * handles and memory for the tenants in use, not for every tenant on disk: ten thousand tenants
 * do not exhaust the process's file handles (measured in docs/security.md).
 *
 * <p>Thread-safe. Tenant names are validated by the caller ({@link KeyStore#TENANT}).
 */
final class Tenants implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(Tenants.class);

  /** One open tenant; {@code lastUsed} is {@link System#nanoTime()} of its latest request. */
  record Tenant(String name, Mnemo engine, GroupCommitter committer, TenantMemory memory,
      java.util.concurrent.atomic.AtomicLong lastUsed) {
    boolean idle(long now, long idleNanos) {
      // a store that refused a write (Lucene rolled it back) is reopened from its last commit once
      // the failure is FAILED_REOPEN_AFTER old, even while in use: the next request reopens it
      boolean failedLongAgo = memory.health().failure()
          .map(f -> java.time.Duration.between(f.at(), java.time.Instant.now()).compareTo(FAILED_REOPEN_AFTER) >= 0)
          .orElse(false);
      if (!failedLongAgo && now - lastUsed.get() < idleNanos) return false;
      if (committer != null && committer.depth() > 0) return false;
      try {
        return engine.ingestProgress().pending() == 0;
      } catch (RuntimeException e) {
        return false;
      }
    }

    void close() {
      try {
        if (committer != null) committer.close();
      } finally {
        engine.close();
      }
    }
  }

  /** How long a tenant whose store refused a write stays failed (and listed by readiness) before it is reopened. */
  static final java.time.Duration FAILED_REOPEN_AFTER = java.time.Duration.ofSeconds(30);

  private final Path root;
  private final EngineFactory factory;
  private final ServerConfig config;
  private final Metrics metrics;
  private final ConcurrentHashMap<String, Tenant> open = new ConcurrentHashMap<>();
  private volatile boolean closed;
  private final java.util.concurrent.ScheduledExecutorService reaper;

  Tenants(Path root, EngineFactory factory, ServerConfig config, Metrics metrics) {
    this.root = root;
    this.factory = factory;
    this.config = config;
    this.metrics = metrics;
    long idle = config.tenantIdle().toMillis();
    if (idle > 0) {
      reaper = java.util.concurrent.Executors.newSingleThreadScheduledExecutor(
          r -> Thread.ofPlatform().daemon().name("mnemo-tenant-reaper").unstarted(r));
      long period = Math.max(50, Math.min(30_000, idle / 4));
      reaper.scheduleWithFixedDelay(this::closeIdle, period, period, java.util.concurrent.TimeUnit.MILLISECONDS);
    } else {
      reaper = null;
    }
  }

  /** Closes the tenants unused for the idle time; they reopen on their next request. */
  void closeIdle() {
    long now = System.nanoTime();
    long idleNanos = config.tenantIdle().toNanos();
    for (String name : List.copyOf(open.keySet())) {
      if (closed) return;
      Tenant[] removed = new Tenant[1];
      // atomic with get(): a request either touched the tenant first (then it stays) or reopens it
      open.computeIfPresent(name, (k, t) -> {
        if (!t.idle(now, idleNanos)) return t;
        removed[0] = t;
        return null;
      });
      if (removed[0] != null) {
        try {
          removed[0].close();
          LOG.debug("closed idle tenant store tenant={}", name);
        } catch (RuntimeException e) {
          LOG.warn("closing the idle store of tenant {} failed: {}", name, e.toString());
        }
      }
    }
  }

  /** The tenant's memory, opening its store on first use. */
  TenantMemory memory(String tenant) {
    return get(tenant).memory();
  }

  private Tenant get(String tenant) {
    if (closed) throw new MnemoException("the server is shutting down", true);
    return open.compute(tenant, (k, t) -> {
      Tenant out = t != null ? t : openTenant(k);
      out.lastUsed().set(System.nanoTime());
      return out;
    });
  }

  private Tenant openTenant(String name) {
    Path dir = root.resolve(name);
    Mnemo engine = factory.open(name, dir, config.maxTextChars());
    GroupCommitter committer = config.groupCommit()
        ? new GroupCommitter(name, engine, config.groupCommitMaxRecords(), config.groupCommitMaxWait(), metrics::committed)
        : null;
    TenantMemory memory = new TenantMemory(name, engine, committer, metrics, config.traceTenants().contains(name));
    LOG.info("opened tenant store tenant={} dir={}", name, dir);
    return new Tenant(name, engine, committer, memory, new java.util.concurrent.atomic.AtomicLong(System.nanoTime()));
  }

  /** Closes the tenant's store (if open) and deletes its directory; true when there was one. */
  boolean delete(String tenant) {
    Tenant t = open.remove(tenant);
    if (t != null) t.close();
    Path dir = root.resolve(tenant);
    if (!Files.exists(dir)) return t != null;
    try (Stream<Path> walk = Files.walk(dir)) {
      for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) Files.delete(p);
    } catch (IOException e) {
      throw new MnemoException("cannot delete the store of tenant '" + tenant + "': " + e.getMessage(), true, e);
    }
    return true;
  }

  /** Tenants with a store directory. */
  java.util.Set<String> onDisk() {
    java.util.Set<String> out = new java.util.TreeSet<>();
    if (!Files.isDirectory(root)) return out;
    try (Stream<Path> dirs = Files.list(root)) {
      dirs.filter(Files::isDirectory).map(d -> d.getFileName().toString())
          .filter(n -> KeyStore.TENANT.matcher(n).matches()).forEach(out::add);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list the tenant stores in " + root, e);
    }
    return out;
  }

  /** The open tenants whose store refused a write and has not taken one since, by name. */
  java.util.SortedMap<String, WriteHealth.Failure> failures() {
    java.util.SortedMap<String, WriteHealth.Failure> out = new java.util.TreeMap<>();
    for (Tenant t : open.values()) t.memory().health().failure().ifPresent(f -> out.put(t.name(), f));
    return out;
  }

  int openCount() {
    return open.size();
  }

  /** The retrieval log's rates of each open tenant (tenants whose store keeps no log are left out). */
  java.util.SortedMap<String, dev.mnemo.RecallStats> recallStats() {
    java.util.SortedMap<String, dev.mnemo.RecallStats> out = new java.util.TreeMap<>();
    for (Tenant t : open.values()) {
      try {
        out.put(t.name(), t.memory().recallStats(dev.mnemo.RecallLogQuery.all(1)));
      } catch (UnsupportedOperationException noLog) {
        // a store without a retrieval log (SolrCloud): no rates
      } catch (RuntimeException e) {
        // a scrape must not fail for one tenant's unreadable log; its rates are missing from this scrape
      }
    }
    return out;
  }

  int queueDepth() {
    int n = 0;
    for (Tenant t : open.values()) if (t.committer() != null) n += t.committer().depth();
    return n;
  }

  /** Bytes of every tenant store on disk (what Prometheus shows as the index size). */
  long diskBytes() {
    if (!Files.isDirectory(root)) return 0;
    try (Stream<Path> walk = Files.walk(root)) {
      return walk.filter(Files::isRegularFile).mapToLong(p -> {
        try {
          return Files.size(p);
        } catch (IOException e) {
          return 0; // a Lucene file merged away between listing and sizing
        }
      }).sum();
    } catch (IOException | UncheckedIOException e) {
      return -1;
    }
  }

  boolean closed() {
    return closed;
  }

  @Override
  public void close() {
    closed = true;
    if (reaper != null) reaper.shutdownNow();
    List<RuntimeException> errors = new ArrayList<>();
    for (Tenant t : List.copyOf(open.values())) {
      try {
        t.close();
      } catch (RuntimeException e) {
        errors.add(e);
      }
    }
    open.clear();
    if (!errors.isEmpty()) {
      RuntimeException first = errors.get(0);
      errors.stream().skip(1).forEach(first::addSuppressed);
      throw first;
    }
  }
}

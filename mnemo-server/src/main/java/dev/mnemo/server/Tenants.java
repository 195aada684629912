package dev.mnemo.server;

import dev.mnemo.Mnemo;
import dev.mnemo.MnemoException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
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
 * <p>One tenant's broken store concerns that tenant only ({@link #failures()}, which readiness
 * lists). A store that refused a write keeps serving reads from its last commit and is reopened
 * by the first request after a back-off; a store that cannot be opened answers 503 until the
 * back-off has passed and the next request tries again. The back-off starts at {@code
 * reopenBackoff} (1 s by default) and doubles with each failed attempt, up to {@link
 * #MAX_REOPEN_BACKOFF}; {@link #reopen} tries at once.
 *
 * <p>Thread-safe. Tenant names are validated by the caller ({@link KeyStore#TENANT}).
 */
final class Tenants implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(Tenants.class);

  /**
   * One open tenant; {@code lastUsed} is {@link System#nanoTime()} of its latest request; {@code
   * reopens} counts the reopenings since its store last took a write (the back-off grows with it).
   */
  record Tenant(String name, Mnemo engine, GroupCommitter committer, TenantMemory memory,
      java.util.concurrent.atomic.AtomicLong lastUsed, java.util.concurrent.atomic.AtomicInteger reopens) {
    boolean idle(long now, long idleNanos) {
      if (now - lastUsed.get() < idleNanos) return false;
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

  /**
   * A tenant whose store is unusable: {@code kind} {@code "open"} (it could not be opened) or
   * {@code "write"} (it refused a write and keeps its last commit until reopened); the next
   * attempt to reopen it is due at {@code nextAttempt}.
   */
  record Trouble(String tenant, String kind, Instant since, String error, int attempts, Instant nextAttempt) {}

  /** The longest wait between two attempts to reopen a failed tenant store. */
  static final Duration MAX_REOPEN_BACKOFF = Duration.ofMinutes(5);

  private final Path root;
  private final EngineFactory factory;
  private final ServerConfig config;
  private final Metrics metrics;
  private final ConcurrentHashMap<String, Tenant> open = new ConcurrentHashMap<>();
  /** Tenants whose store could not be opened, until it opens. */
  private final ConcurrentHashMap<String, Trouble> unopened = new ConcurrentHashMap<>();
  private final Duration reopenBackoff;
  private volatile boolean closed;
  private final java.util.concurrent.ScheduledExecutorService reaper;

  /**
   * @param reopenBackoff the wait before the first attempt to reopen a failed store; it doubles
   *     with each failed attempt, up to {@link #MAX_REOPEN_BACKOFF}
   */
  Tenants(Path root, EngineFactory factory, ServerConfig config, Metrics metrics, Duration reopenBackoff) {
    this.root = root;
    this.reopenBackoff = reopenBackoff;
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
    Instant now = Instant.now();
    RuntimeException[] failed = new RuntimeException[1];
    Tenant got = open.compute(tenant, (k, t) -> {
      Tenant out;
      if (t == null) {
        Trouble trouble = unopened.get(k);
        if (trouble != null && now.isBefore(trouble.nextAttempt())) throw unavailable(trouble, now);
        out = openOrRecord(k, trouble == null ? 0 : trouble.attempts(), 0);
      } else {
        out = t;
        var failure = t.memory().health().failure();
        if (failure.isPresent()) {
          // The store refused a write (Lucene rolled it back and refuses the next ones): once the
          // back-off has passed, the next request reopens it from its last commit.
          if (!now.isBefore(failure.get().at().plus(backoff(t.reopens().get())))) {
            closeQuietly(t, "failed");
            try {
              out = openOrRecord(k, 0, t.reopens().get() + 1);
            } catch (RuntimeException e) {
              failed[0] = e; // the closed store leaves the map
              return null;
            }
          }
        } else if (t.reopens().get() > 0 && t.memory().health().tookAWrite()) {
          t.reopens().set(0);
        }
      }
      out.lastUsed().set(System.nanoTime());
      return out;
    });
    if (failed[0] != null) throw failed[0];
    return got;
  }

  /** Opens the tenant's store, or records why it could not be opened and throws 503. */
  private Tenant openOrRecord(String name, int openAttempts, int reopens) {
    try {
      Tenant t = openTenant(name, reopens);
      if (unopened.remove(name) != null || reopens > 0) LOG.info("reopened the store of tenant {}", name);
      return t;
    } catch (RuntimeException e) {
      Instant now = Instant.now();
      Trouble before = unopened.get(name);
      Trouble trouble = new Trouble(name, "open", before == null ? now : before.since(), String.valueOf(e.getMessage()),
          openAttempts + 1, now.plus(backoff(openAttempts)));
      unopened.put(name, trouble);
      LOG.warn("cannot open the store of tenant {} (attempt {}; next after {}): {}", name, trouble.attempts(),
          trouble.nextAttempt(), e.toString());
      throw unavailable(trouble, now);
    }
  }

  private static MnemoException unavailable(Trouble t, Instant now) {
    long wait = Math.max(1, Duration.between(now, t.nextAttempt()).toSeconds());
    return new MnemoException("the store of tenant '" + t.tenant() + "' cannot be opened (" + t.error()
        + "); it is tried again on a request after " + wait + " s, or at once by POST /v1/tenants/" + t.tenant()
        + "/reopen", true);
  }

  Duration backoff(int attempts) {
    Duration d = reopenBackoff;
    for (int i = 0; i < attempts && d.compareTo(MAX_REOPEN_BACKOFF) < 0; i++) d = d.multipliedBy(2);
    return d.compareTo(MAX_REOPEN_BACKOFF) > 0 ? MAX_REOPEN_BACKOFF : d;
  }

  private static void closeQuietly(Tenant t, String why) {
    try {
      t.close();
    } catch (RuntimeException e) {
      LOG.warn("closing the {} store of tenant {} failed: {}", why, t.name(), e.toString());
    }
  }

  /**
   * Closes the tenant's store (when open) and opens it again now, whatever the back-off says (the
   * admin's {@code POST /v1/tenants/{tenant}/reopen}).
   *
   * @throws MnemoException (retriable) when it cannot be opened; the failure is recorded
   */
  void reopen(String tenant) {
    if (closed) throw new MnemoException("the server is shutting down", true);
    RuntimeException[] failed = new RuntimeException[1];
    open.compute(tenant, (k, t) -> {
      if (t != null) closeQuietly(t, "reopened");
      Trouble trouble = unopened.get(k);
      try {
        Tenant out = openOrRecord(k, trouble == null ? 0 : trouble.attempts(), 0);
        out.lastUsed().set(System.nanoTime());
        return out;
      } catch (RuntimeException e) {
        failed[0] = e; // a closed store leaves the map
        return null;
      }
    });
    if (failed[0] != null) throw failed[0];
  }

  /** Whether the tenant is open, has a store directory or failed to open. */
  boolean known(String tenant) {
    return open.containsKey(tenant) || unopened.containsKey(tenant) || Files.isDirectory(root.resolve(tenant));
  }

  private Tenant openTenant(String name, int reopens) {
    Path dir = root.resolve(name);
    Mnemo engine = factory.open(name, dir, config.maxTextChars());
    GroupCommitter committer = config.groupCommit()
        ? new GroupCommitter(name, engine, config.groupCommitMaxRecords(), config.groupCommitMaxWait(), metrics::committed)
        : null;
    TenantMemory memory = new TenantMemory(name, engine, committer, metrics, config.traceTenants().contains(name));
    LOG.info("opened tenant store tenant={} dir={}", name, dir);
    return new Tenant(name, engine, committer, memory, new java.util.concurrent.atomic.AtomicLong(System.nanoTime()),
        new java.util.concurrent.atomic.AtomicInteger(reopens));
  }

  /** Closes the tenant's store (if open) and deletes its directory; true when there was one. */
  boolean delete(String tenant) {
    unopened.remove(tenant);
    Tenant t = open.remove(tenant);
    if (t != null) t.close();
    Path dir = root.resolve(tenant);
    if (!Files.exists(dir)) return t != null;
    factory.purge(tenant, dir); // data kept elsewhere (Solr) first: a failure keeps the directory, and the tenant

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

  /**
   * The tenants whose store is unusable, by name: open ones whose store refused a write and has not
   * taken one since, and ones whose store could not be opened.
   */
  java.util.SortedMap<String, Trouble> failures() {
    java.util.SortedMap<String, Trouble> out = new java.util.TreeMap<>(unopened);
    for (Tenant t : open.values()) {
      t.memory().health().failure().ifPresent(f -> out.put(t.name(), new Trouble(t.name(), "write", f.at(),
          f.message(), t.reopens().get(), f.at().plus(backoff(t.reopens().get())))));
    }
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
        // a store without a retrieval log (SolrCloud): no rates
        t.memory().retrievalLog().ifPresent(log -> out.put(t.name(), log.recallStats(dev.mnemo.RecallLogQuery.all(1))));
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

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
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The tenants' engines: one store per tenant in {@code <data>/tenants/<name>/}, opened on first use
 * and closed again once unused for {@code tenants.idle_close_seconds} (default 10 minutes) with
 * nothing queued for a commit and nothing waiting for extraction. So a server holds file handles
 * and memory for the tenants in use, not for every tenant on disk: ten thousand tenants do not
 * exhaust the process's file handles (measured in docs/security.md).
 *
 * <p>One tenant's broken store concerns that tenant only ({@link #failures()}, which readiness
 * lists). A store that refused a write keeps serving reads from its last commit and is reopened by
 * the first request after a back-off; a store that cannot be opened answers 503 until the back-off
 * has passed and the next request tries again. The back-off starts at {@code reopenBackoff} (1 s by
 * default) and doubles with each failed attempt, up to {@link #MAX_REOPEN_BACKOFF}; {@link #reopen}
 * tries at once.
 *
 * <p>Opening and closing: each tenant has a {@link Slot} with a lock of its own, taken outside the
 * map's lock, so a store that takes seconds to open delays that tenant's first requests only, and
 * concurrent first requests to one tenant open its store once. A request holds a {@link Lease}
 * while it uses the store; the idle reaper closes a store only when no lease is held, so an idle
 * close never pulls a store from under a running recall or export.
 *
 * <p>Bounded: at most {@code maxOpen} stores are open at once ({@code tenants.max_open}, by default
 * derived from the open-file limit, {@link Descriptors}). Opening one more first closes the least
 * recently used store that is safe to close: no lease held (no request in flight), nothing queued
 * for a commit, nothing waiting for extraction, so no acknowledged write and no running request is
 * touched; it reopens on its next request. When every open store is in use, the opening request
 * waits up to {@link #CAPACITY_WAIT} for one to become free, then gets a retriable error (503).
 * Hand-written rather than a Caffeine cache bounded by size: eviction must skip stores in use, and
 * Caffeine's size eviction evicts whatever its policy picks (weights are fixed when an entry is
 * written, so an in-use store cannot be pinned by weight).
 *
 * <p>Thread-safe. Tenant names are validated by the caller ({@link KeyStore#TENANT}).
 */
final class Tenants implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(Tenants.class);

  /**
   * One open tenant; {@code lastUsed} is {@link System#nanoTime()} of its latest request; {@code
   * reopens} counts the reopenings since its store last took a write (the back-off grows with it).
   */
  record Tenant(
      String name,
      Mnemo engine,
      GroupCommitter committer,
      TenantMemory memory,
      AtomicLong lastUsed,
      AtomicInteger reopens,
      AtomicInteger leases) {
    boolean idle(long now, long idleNanos) {
      return leases.get() == 0 && now - lastUsed.get() >= idleNanos && closable();
    }

    /** No request in flight, nothing queued for a commit, nothing waiting for extraction. */
    boolean closable() {
      if (leases.get() > 0) return false;
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
   * Where one tenant's store is held. {@code tenant} is null while the store is closed; it changes
   * only under {@code lock}, which is held while the store opens or closes (blocking I/O that must
   * not run inside the map's own lock). A retired slot (closed idle, for room, or deleted) leaves
   * the map once its store has closed, still under its lock, and is never used again: a caller that
   * finds it retired takes the map's current slot, so a store is never open twice.
   */
  private static final class Slot {
    final ReentrantLock lock = new ReentrantLock();
    volatile Tenant tenant;
    boolean retired; // guarded by lock
  }

  /**
   * One use of a tenant's store: while any lease is open, the idle reaper leaves the store open.
   * Closed by the request that took it (idempotent).
   */
  final class Lease implements AutoCloseable {
    private final Tenant tenant;
    private final java.util.concurrent.atomic.AtomicBoolean closed =
        new java.util.concurrent.atomic.AtomicBoolean();

    private Lease(Tenant tenant) {
      this.tenant = tenant;
    }

    TenantMemory memory() {
      return tenant.memory();
    }

    @Override
    public void close() {
      if (closed.compareAndSet(false, true)) {
        tenant.lastUsed().set(System.nanoTime());
        tenant.leases().decrementAndGet();
        if (waiting.get() > 0) {
          synchronized (capacity) {
            capacity.notifyAll();
          }
        }
      }
    }
  }

  /**
   * A tenant whose store is unusable: {@code kind} {@code "open"} (it could not be opened) or
   * {@code "write"} (it refused a write and keeps its last commit until reopened); the next attempt
   * to reopen it is due at {@code nextAttempt}.
   */
  record Trouble(
      String tenant, String kind, Instant since, String error, int attempts, Instant nextAttempt) {}

  /** How long opening a store waits for an open one to become closable when all are in use. */
  static final Duration CAPACITY_WAIT = Duration.ofSeconds(2);

  /** The longest wait between two attempts to reopen a failed tenant store. */
  static final Duration MAX_REOPEN_BACKOFF = Duration.ofMinutes(5);

  private final Path root;
  private final EngineFactory factory;
  private final ServerConfig config;
  private final Metrics metrics;

  /** Every tenant whose store is open or being opened (a closed tenant's slot leaves the map). */
  private final ConcurrentHashMap<String, Slot> slots = new ConcurrentHashMap<>();

  /** Tenants whose store could not be opened, until it opens. */
  private final ConcurrentHashMap<String, Trouble> unopened = new ConcurrentHashMap<>();

  private final Duration reopenBackoff;
  private final int maxOpen;

  /** Stores open or being opened: at most {@link #maxOpen}. */
  private final AtomicInteger open = new AtomicInteger();

  /** Notified when a lease closes while someone waits for a closable store. */
  private final Object capacity = new Object();

  private final AtomicInteger waiting = new AtomicInteger();

  /** Stores closed to make room for another (least recently used first). */
  private final AtomicLong evictions = new AtomicLong();

  private volatile boolean closed;
  private final java.util.concurrent.ScheduledExecutorService reaper;

  /**
   * @param reopenBackoff the wait before the first attempt to reopen a failed store; it doubles
   *     with each failed attempt, up to {@link #MAX_REOPEN_BACKOFF}
   */
  Tenants(
      Path root,
      EngineFactory factory,
      ServerConfig config,
      Metrics metrics,
      Duration reopenBackoff) {
    this.root = root;
    this.reopenBackoff = reopenBackoff;
    this.factory = factory;
    this.config = config;
    this.metrics = metrics;
    this.maxOpen =
        Descriptors.maxOpenTenants(config.capacity().maxOpenTenants(), Descriptors.limit());
    long idle = config.tenantIdle().toMillis();
    if (idle > 0) {
      reaper =
          java.util.concurrent.Executors.newSingleThreadScheduledExecutor(
              r -> Thread.ofPlatform().daemon().name("mnemo-tenant-reaper").unstarted(r));
      long period = Math.max(50, Math.min(30_000, idle / 4));
      reaper.scheduleWithFixedDelay(
          this::closeIdle, period, period, java.util.concurrent.TimeUnit.MILLISECONDS);
    } else {
      reaper = null;
    }
  }

  /**
   * Closes the tenants unused for the idle time and not leased; they reopen on their next request.
   * A tenant busy opening or closing is left for the next round.
   */
  void closeIdle() {
    long now = System.nanoTime();
    long idleNanos = config.tenantIdle().toNanos();
    for (var e : List.copyOf(slots.entrySet())) {
      if (closed) return;
      Slot slot = e.getValue();
      if (!slot.lock.tryLock()) continue;
      try {
        Tenant t = slot.tenant;
        // under the slot's lock, so no lease starts between the check and the close
        if (!slot.retired && t != null && t.idle(now, idleNanos)) {
          slot.tenant = null;
          slot.retired = true;
          closeQuietly(t, "idle");
          // only once closed: a request arriving meanwhile waits on this slot's lock, then opens
          // a new slot, so the store is never opened twice (Lucene's lock: "held by this VM")
          slots.remove(e.getKey(), slot);
          LOG.debug("closed idle tenant store tenant={}", e.getKey());
        }
      } finally {
        slot.lock.unlock();
      }
    }
  }

  /**
   * The tenant's memory, opening its store on first use, for a caller that keeps it: every call
   * through it holds a lease for the call's duration, and reopens the store when it was closed idle
   * in between (the in-process transports of {@link MnemoServer#memory}). A facet it hands out
   * ({@code maintenance()}, {@code retrievalLog()}, {@code diagnostics()}: an {@code Optional} of
   * an interface) is kept the same way: each call on it leases the store and asks the open engine
   * for the facet again, so a facet kept across an idle close neither works on a closed store nor
   * keeps it open.
   */
  Mnemo memory(String tenant) {
    lease(tenant)
        .close(); // opens it now: a store that cannot open fails here, not on the first call
    return leased(tenant, Mnemo.class, "Mnemo of tenant " + tenant, Mnemo.class::cast);
  }

  /**
   * A {@code type} whose every call leases the tenant's store and runs on what {@code target} gets
   * from the leased engine; a method that returns an {@code Optional} of an interface returns it
   * leased in turn (empty when the engine has no such facet now).
   */
  private <T> T leased(
      String tenant, Class<T> type, String name, java.util.function.Function<Mnemo, ?> target) {
    return type.cast(
        java.lang.reflect.Proxy.newProxyInstance(
            type.getClassLoader(),
            new Class<?>[] {type},
            (proxy, method, args) -> {
              if (method.getDeclaringClass() == Object.class) {
                return switch (method.getName()) {
                  case "equals" -> proxy == args[0];
                  case "hashCode" -> System.identityHashCode(proxy);
                  default -> name;
                };
              }
              Object result;
              try (Lease l = lease(tenant)) {
                Object on = target.apply(l.memory());
                result = method.invoke(on, args);
              } catch (java.lang.reflect.InvocationTargetException x) {
                throw x.getCause();
              }
              Class<?> facet = optionalOfInterface(method);
              if (facet == null || !(result instanceof java.util.Optional<?> o) || o.isEmpty()) {
                return result;
              }
              return java.util.Optional.of(
                  leased(
                      tenant,
                      facet,
                      facet.getSimpleName() + " of tenant " + tenant,
                      m -> facetOf(m, target, method, args, tenant)));
            }));
  }

  /** {@code X} when {@code method} returns {@code Optional<X>} and X is an interface, else null. */
  private static Class<?> optionalOfInterface(java.lang.reflect.Method method) {
    if (method.getReturnType() != java.util.Optional.class) return null;
    if (!(method.getGenericReturnType() instanceof java.lang.reflect.ParameterizedType p)) {
      return null;
    }
    return p.getActualTypeArguments()[0] instanceof Class<?> c && c.isInterface() ? c : null;
  }

  /** The facet {@code method} returns now, from the engine under the current lease. */
  private static Object facetOf(
      Mnemo m,
      java.util.function.Function<Mnemo, ?> target,
      java.lang.reflect.Method method,
      Object[] args,
      String tenant) {
    try {
      return ((java.util.Optional<?>) method.invoke(target.apply(m), args))
          .orElseThrow(
              () ->
                  new MnemoException(
                      method.getName() + "() of tenant " + tenant + " is no longer available",
                      false));
    } catch (IllegalAccessException e) {
      throw new IllegalStateException(e);
    } catch (java.lang.reflect.InvocationTargetException e) {
      if (e.getCause() instanceof RuntimeException r) throw r;
      throw new IllegalStateException(e.getCause());
    }
  }

  /**
   * A lease on the tenant's store, opening it on first use (or reopening it after an idle close or
   * a failed write's back-off); close it when the request is done.
   */
  Lease lease(String tenant) {
    return new Lease(get(tenant));
  }

  /**
   * Takes the tenant's slot's lock, opens the store when needed and counts a lease, which the
   * caller closes.
   */
  private Tenant get(String tenant) {
    while (true) {
      if (closed) throw new MnemoException("the server is shutting down", true);
      Slot slot =
          slots.computeIfAbsent(
              tenant, k -> new Slot()); // cheap: the store opens below, outside the map's lock
      slot.lock.lock();
      try {
        if (slot.retired)
          continue; // closed idle or deleted since it was looked up: take the current slot
        Tenant got;
        try {
          got = use(tenant, slot);
        } catch (RuntimeException e) {
          if (slot.tenant
              == null) { // nothing open: the slot leaves the map (the failure is in unopened)
            slot.retired = true;
            slots.remove(tenant, slot);
          }
          throw e;
        }
        got.leases().incrementAndGet();
        got.lastUsed().set(System.nanoTime());
        return got;
      } finally {
        slot.lock.unlock();
      }
    }
  }

  /**
   * The slot's open tenant, opening or reopening its store as needed; called under the slot's lock.
   */
  private Tenant use(String k, Slot slot) {
    Instant now = Instant.now();
    Tenant t = slot.tenant;
    if (t == null) {
      Trouble trouble = unopened.get(k);
      if (trouble != null && now.isBefore(trouble.nextAttempt())) throw unavailable(trouble, now);
      slot.tenant = openOrRecord(k, trouble == null ? 0 : trouble.attempts(), 0);
      return slot.tenant;
    }
    var failure = t.memory().health().failure();
    if (failure.isPresent()) {
      // The store refused a write (Lucene rolled it back and refuses the next ones): once the
      // back-off has passed, the next request reopens it from its last commit.
      if (!now.isBefore(failure.get().at().plus(backoff(t.reopens().get())))) {
        slot.tenant = null;
        closeQuietly(t, "failed");
        slot.tenant = openOrRecord(k, 0, t.reopens().get() + 1);
        return slot.tenant;
      }
    } else if (t.reopens().get() > 0 && t.memory().health().tookAWrite()) {
      t.reopens().set(0);
    }
    return t;
  }

  /** Opens the tenant's store, or records why it could not be opened and throws 503. */
  private Tenant openOrRecord(String name, int openAttempts, int reopens) {
    reserve(name);
    try {
      Tenant t;
      try {
        t = openTenant(name, reopens);
      } catch (RuntimeException e) {
        release();
        throw e;
      }
      if (unopened.remove(name) != null || reopens > 0)
        LOG.info("reopened the store of tenant {}", name);
      return t;
    } catch (RuntimeException e) {
      Instant now = Instant.now();
      Trouble before = unopened.get(name);
      Trouble trouble =
          new Trouble(
              name,
              "open",
              before == null ? now : before.since(),
              String.valueOf(e.getMessage()),
              openAttempts + 1,
              now.plus(backoff(openAttempts)));
      unopened.put(name, trouble);
      LOG.warn(
          "cannot open the store of tenant {} (attempt {}; next after {}): {}",
          name,
          trouble.attempts(),
          trouble.nextAttempt(),
          e.toString());
      throw unavailable(trouble, now);
    }
  }

  private static MnemoException unavailable(Trouble t, Instant now) {
    long wait = Math.max(1, Duration.between(now, t.nextAttempt()).toSeconds());
    return new MnemoException(
        "the store of tenant '"
            + t.tenant()
            + "' cannot be opened ("
            + t.error()
            + "); it is tried again on a request after "
            + wait
            + " s, or at once by POST /v1/tenants/"
            + t.tenant()
            + "/reopen",
        true);
  }

  Duration backoff(int attempts) {
    Duration d = reopenBackoff;
    for (int i = 0; i < attempts && d.compareTo(MAX_REOPEN_BACKOFF) < 0; i++) d = d.multipliedBy(2);
    return d.compareTo(MAX_REOPEN_BACKOFF) > 0 ? MAX_REOPEN_BACKOFF : d;
  }

  private void closeQuietly(Tenant t, String why) {
    try {
      closeCounted(t);
    } catch (RuntimeException e) {
      LOG.warn("closing the {} store of tenant {} failed: {}", why, t.name(), e.toString());
    }
  }

  /** Closes an open store and gives its place back, also when closing fails. */
  private void closeCounted(Tenant t) {
    try {
      t.close();
    } finally {
      release();
    }
  }

  private void release() {
    open.decrementAndGet();
    if (waiting.get() > 0) {
      synchronized (capacity) {
        capacity.notifyAll();
      }
    }
  }

  /**
   * Takes a place for one more open store (the store of {@code tenant}, whose slot's lock the
   * caller holds): at the bound, closes the least recently used closable store first; when none is
   * closable, waits up to {@link #CAPACITY_WAIT} for one.
   *
   * @throws MnemoException (retriable: 503) when every open store stayed in use
   */
  private void reserve(String tenant) {
    long deadline = System.nanoTime() + CAPACITY_WAIT.toNanos();
    while (true) {
      int n = open.get();
      if (n < maxOpen) {
        if (open.compareAndSet(n, n + 1)) return;
        continue;
      }
      if (closeLeastRecentlyUsed(tenant)) continue;
      long left = deadline - System.nanoTime();
      if (closed || left <= 0) {
        throw new MnemoException(
            "all "
                + maxOpen
                + " open tenant stores are in use by requests in flight (tenants.max_open = "
                + maxOpen
                + "); retry shortly",
            true);
      }
      waiting.incrementAndGet();
      try {
        synchronized (capacity) {
          // a short slice: a store also becomes closable when its commit queue or extraction
          // drains, which notifies no one
          capacity.wait(Math.max(1, Math.min(20, left / 1_000_000)));
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new MnemoException("interrupted while waiting for an open tenant store", true, e);
      } finally {
        waiting.decrementAndGet();
      }
    }
  }

  /**
   * Closes the least recently used open store that is closable now, other than {@code except}'s;
   * false when there is none. A store whose slot is busy (opening, closing, taking a lease) is
   * skipped: its lock is only tried, so two tenants opening at once never wait on each other.
   */
  private boolean closeLeastRecentlyUsed(String except) {
    List<java.util.Map.Entry<String, Slot>> open = new ArrayList<>();
    for (var e : slots.entrySet()) {
      Tenant t = e.getValue().tenant;
      if (t != null && !e.getKey().equals(except) && t.leases().get() == 0) open.add(e);
    }
    open.sort(
        Comparator.comparingLong(
            e -> {
              Tenant t = e.getValue().tenant;
              return t == null ? Long.MIN_VALUE : t.lastUsed().get();
            }));
    for (var e : open) {
      Slot slot = e.getValue();
      if (!slot.lock.tryLock()) continue;
      try {
        Tenant t = slot.tenant;
        // under the slot's lock, so no lease starts between the check and the close
        if (slot.retired || t == null || !t.closable()) continue;
        slot.tenant = null;
        slot.retired = true;
        closeQuietly(t, "least recently used");
        slots.remove(e.getKey(), slot); // once closed, as in closeIdle
        evictions.incrementAndGet();
        LOG.debug(
            "closed the least recently used tenant store tenant={} (tenants.max_open = {})",
            e.getKey(),
            maxOpen);
        return true;
      } finally {
        slot.lock.unlock();
      }
    }
    return false;
  }

  /** The bound on open stores. */
  int maxOpen() {
    return maxOpen;
  }

  /** Stores closed so far to make room for another. */
  long evictions() {
    return evictions.get();
  }

  /**
   * Closes the tenant's store (when open) and opens it again now, whatever the back-off says (the
   * admin's {@code POST /v1/tenants/{tenant}/reopen}).
   *
   * @throws MnemoException (retriable) when it cannot be opened; the failure is recorded
   */
  void reopen(String tenant) {
    while (true) {
      if (closed) throw new MnemoException("the server is shutting down", true);
      Slot slot = slots.computeIfAbsent(tenant, k -> new Slot());
      slot.lock.lock();
      try {
        if (slot.retired) continue;
        Tenant t = slot.tenant;
        slot.tenant = null;
        if (t != null) closeQuietly(t, "reopened");
        Trouble trouble = unopened.get(tenant);
        try {
          slot.tenant = openOrRecord(tenant, trouble == null ? 0 : trouble.attempts(), 0);
          slot.tenant.lastUsed().set(System.nanoTime());
          return;
        } catch (RuntimeException e) {
          slot.retired = true; // a closed store leaves the map
          slots.remove(tenant, slot);
          throw e;
        }
      } finally {
        slot.lock.unlock();
      }
    }
  }

  /** Whether the tenant is open, has a store directory or failed to open. */
  boolean known(String tenant) {
    return slots.containsKey(tenant)
        || unopened.containsKey(tenant)
        || Files.isDirectory(root.resolve(tenant));
  }

  private Tenant openTenant(String name, int reopens) {
    Path dir = root.resolve(name);
    Mnemo engine = factory.open(name, dir, config.maxTextChars());
    GroupCommitter committer =
        config.groupCommit()
            ? new GroupCommitter(
                name,
                engine,
                config.groupCommitMaxRecords(),
                config.groupCommitMaxWait(),
                metrics::committed)
            : null;
    TenantMemory memory =
        new TenantMemory(name, engine, committer, metrics, config.traceTenants().contains(name));
    LOG.info("opened tenant store tenant={} dir={}", name, dir);
    return new Tenant(
        name,
        engine,
        committer,
        memory,
        new AtomicLong(System.nanoTime()),
        new AtomicInteger(reopens),
        new AtomicInteger());
  }

  /** Closes the tenant's store (if open) and deletes its directory; true when there was one. */
  boolean delete(String tenant) {
    unopened.remove(tenant);
    Tenant t = null;
    Slot slot = slots.get(tenant);
    if (slot != null) {
      slot.lock.lock();
      try {
        t = slot.tenant;
        slot.tenant = null;
        slot.retired = true;
        try {
          if (t != null) closeCounted(t);
        } finally {
          slots.remove(tenant, slot); // once closed, as in closeIdle
        }
      } finally {
        slot.lock.unlock();
      }
    }
    Path dir = root.resolve(tenant);
    if (!Files.exists(dir)) return t != null;
    factory.purge(
        tenant,
        dir); // data kept elsewhere (Solr) first: a failure keeps the directory, and the tenant

    try (Stream<Path> walk = Files.walk(dir)) {
      for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) Files.delete(p);
    } catch (IOException e) {
      throw new MnemoException(
          "cannot delete the store of tenant '" + tenant + "': " + e.getMessage(), true, e);
    }
    return true;
  }

  /** Tenants with a store directory. */
  java.util.Set<String> onDisk() {
    java.util.Set<String> out = new java.util.TreeSet<>();
    if (!Files.isDirectory(root)) return out;
    try (Stream<Path> dirs = Files.list(root)) {
      dirs.filter(Files::isDirectory)
          .map(d -> d.getFileName().toString())
          .filter(n -> KeyStore.TENANT.matcher(n).matches())
          .forEach(out::add);
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
    for (Tenant t : openTenants()) {
      t.memory()
          .health()
          .failure()
          .ifPresent(
              f ->
                  out.put(
                      t.name(),
                      new Trouble(
                          t.name(),
                          "write",
                          f.at(),
                          f.message(),
                          t.reopens().get(),
                          f.at().plus(backoff(t.reopens().get())))));
    }
    return out;
  }

  /** The tenants whose store is open now (a snapshot). */
  private List<Tenant> openTenants() {
    List<Tenant> out = new ArrayList<>();
    for (Slot slot : slots.values()) {
      Tenant t = slot.tenant;
      if (t != null) out.add(t);
    }
    return out;
  }

  int openCount() {
    return openTenants().size();
  }

  /**
   * The retrieval log's rates of each open tenant (tenants whose store keeps no log are left out).
   */
  java.util.SortedMap<String, dev.mnemo.RecallStats> recallStats() {
    java.util.SortedMap<String, dev.mnemo.RecallStats> out = new java.util.TreeMap<>();
    for (Tenant t : openTenants()) {
      try {
        // a store without a retrieval log (SolrCloud): no rates
        t.memory()
            .retrievalLog()
            .ifPresent(log -> out.put(t.name(), log.recallStats(dev.mnemo.RecallLogQuery.all(1))));
      } catch (RuntimeException e) {
        // a scrape must not fail for one tenant's unreadable log; its rates are missing from this
        // scrape
      }
    }
    return out;
  }

  int queueDepth() {
    int n = 0;
    for (Tenant t : openTenants()) if (t.committer() != null) n += t.committer().depth();
    return n;
  }

  /** Bytes of every tenant store on disk (what Prometheus shows as the index size). */
  long diskBytes() {
    if (!Files.isDirectory(root)) return 0;
    try (Stream<Path> walk = Files.walk(root)) {
      return walk.filter(Files::isRegularFile)
          .mapToLong(
              p -> {
                try {
                  return Files.size(p);
                } catch (IOException e) {
                  return 0; // a Lucene file merged away between listing and sizing
                }
              })
          .sum();
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
    for (Slot slot : List.copyOf(slots.values())) {
      slot.lock.lock();
      try {
        Tenant t = slot.tenant;
        slot.tenant = null;
        slot.retired = true;
        if (t != null) closeCounted(t);
      } catch (RuntimeException e) {
        errors.add(e);
      } finally {
        slot.lock.unlock();
      }
    }
    slots.clear();
    if (!errors.isEmpty()) {
      RuntimeException first = errors.get(0);
      errors.stream().skip(1).forEach(first::addSuppressed);
      throw first;
    }
  }
}

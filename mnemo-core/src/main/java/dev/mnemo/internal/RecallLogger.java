package dev.mnemo.internal;

import dev.mnemo.LoggedRecall;
import dev.mnemo.RecallLogOptions;
import dev.mnemo.RecallRequest;
import dev.mnemo.RecallResult;
import dev.mnemo.spi.Eligibility;
import dev.mnemo.spi.MemoryStore;
import dev.mnemo.spi.RecallLog;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Writes the retrieval log off the recall's thread: a recall offers its raw data to a bounded queue
 * ({@link #offer}, never blocking; a full queue drops the entry and counts it) and returns; one
 * daemon thread turns the data into {@link LoggedRecall}s (resolving the request, counting what
 * eligibility removed with a few count queries) and stores them in batches, one durable commit per
 * batch. Usage feedback travels through the same queue, so it always lands after the recall it
 * refers to. Retention runs on the same thread every {@link #RETENTION_EVERY}.
 *
 * <p>A hand-written queue and thread rather than an executor: the writer must batch what is queued
 * (one commit per batch) and keep feedback in order behind recalls, which a plain executor does
 * not.
 */
final class RecallLogger implements AutoCloseable {
  private static final System.Logger LOG = System.getLogger("mnemo.recall-log");

  /** Entries stored per commit at most. */
  static final int BATCH = 256;

  static final Duration RETENTION_EVERY = Duration.ofMinutes(10);

  /** How long the writer waits for more entries before it commits a batch. */
  static final Duration LINGER = Duration.ofSeconds(1);

  private static final long POLL_SLICE_NANOS = 10_000_000;

  private sealed interface Task {}

  private record Recalled(
      String id, Instant loggedAt, RecallRequest request, RecallResult result, String state)
      implements Task {}

  private record Used(String owner, List<String> ids, Instant at) implements Task {}

  /** Wakes the writer at close, so that closing an engine does not wait for a poll to time out. */
  private record Stop() implements Task {}

  private final RecallLog log;
  private final MemoryStore store;
  private final RecallLogOptions options;
  private final InstantSource clock;
  private final Map<String, String> engine;
  private final BlockingQueue<Task> queue;
  private final AtomicLong offered = new AtomicLong();
  private final AtomicLong done = new AtomicLong();
  private final AtomicLong dropped = new AtomicLong();
  private final AtomicLong failed = new AtomicLong();

  /** CPU time the writer spent building and storing entries (what logging costs the machine). */
  private final AtomicLong writerCpuNanos = new AtomicLong();

  private static final java.lang.management.ThreadMXBean THREADS =
      java.lang.management.ManagementFactory.getThreadMXBean();
  private final Object progress = new Object();
  private final Thread writer;
  private volatile boolean closing;

  /** Someone waits in {@link #flush}: commit what is there without lingering. */
  private final java.util.concurrent.atomic.AtomicInteger flushing =
      new java.util.concurrent.atomic.AtomicInteger();

  private Instant lastRetention = Instant.MIN;

  RecallLogger(
      RecallLog log,
      MemoryStore store,
      RecallLogOptions options,
      InstantSource clock,
      Map<String, String> engine) {
    this.log = log;
    this.store = store;
    this.options = options;
    this.clock = clock;
    this.engine = Map.copyOf(engine);
    this.queue = new ArrayBlockingQueue<>(options.queue());
    // A virtual thread, started on the first recall logged: a server holds thousands of tenants'
    // engines, and an engine never recalled from (or idle) must cost no platform thread.
    this.writer = Thread.ofVirtual().name("mnemo-recall-log").unstarted(this::run);
  }

  private final java.util.concurrent.atomic.AtomicBoolean started =
      new java.util.concurrent.atomic.AtomicBoolean();

  private void startWriter() {
    if (started.compareAndSet(false, true)) writer.start();
  }

  RecallLog log() {
    return log;
  }

  Map<String, String> engine() {
    return engine;
  }

  /** Whether this recall is one of the sampled ones. */
  boolean sampled() {
    return options.sample() >= 1 || ThreadLocalRandom.current().nextDouble() < options.sample();
  }

  /**
   * Hands a recall to the writer; never blocks. Returns the entry's id, or null when it was
   * dropped.
   */
  String offer(RecallRequest request, RecallResult result, String storeState) {
    Instant now = clock.instant();
    String id = newId(now);
    return enqueue(new Recalled(id, now, request, result, storeState)) ? id : null;
  }

  /** Usage feedback, stored behind every recall offered before it. */
  void used(String owner, Collection<String> ids) {
    enqueue(new Used(owner, List.copyOf(ids), clock.instant()));
  }

  private boolean enqueue(Task t) {
    if (closing) return false;
    startWriter();
    offered.incrementAndGet();
    if (queue.offer(t)) return true;
    offered.decrementAndGet();
    dropped.incrementAndGet();
    return false;
  }

  long dropped() {
    return dropped.get();
  }

  /** CPU nanoseconds the writer thread spent writing so far. */
  long writerCpuNanos() {
    return writerCpuNanos.get();
  }

  long failed() {
    return failed.get();
  }

  /** Entries waiting to be written. */
  int pending() {
    return queue.size();
  }

  /**
   * Waits until everything offered so far is written (or failed); false when {@code timeout} passed
   * first.
   */
  boolean flush(Duration timeout) {
    long target = offered.get();
    long deadline = System.nanoTime() + timeout.toNanos();
    flushing.incrementAndGet();
    try {
      synchronized (progress) {
        while (done.get() < target) {
          long left = deadline - System.nanoTime();
          if (left <= 0) return false;
          try {
            TimeUnit.NANOSECONDS.timedWait(progress, left);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
          }
        }
      }
      return true;
    } finally {
      flushing.decrementAndGet();
    }
  }

  /** Random start, so two engines (or runs) logging in the same millisecond do not collide. */
  private static final AtomicLong SEQUENCE =
      new AtomicLong(ThreadLocalRandom.current().nextLong() >>> 24);

  /**
   * Logged millisecond, then a sequence: ids sort as the recalls were logged, also within a
   * millisecond.
   */
  static String newId(Instant at) {
    return String.format(
        Locale.ROOT, "%012x%010x", at.toEpochMilli(), SEQUENCE.getAndIncrement() & 0xff_ffff_ffffL);
  }

  private void run() {
    List<Task> batch = new ArrayList<>(BATCH);
    while (!closing || !queue.isEmpty()) {
      try {
        Task first = queue.poll(100, TimeUnit.MILLISECONDS);
        if (first != null) {
          batch.add(first);
          // Gather company for one commit: a commit (fsync) per recall would cost the machine more
          // than the recalls themselves; an entry waits at most LINGER before it is durable.
          long deadline = System.nanoTime() + LINGER.toNanos();
          while (batch.size() < BATCH && !closing && flushing.get() == 0) {
            queue.drainTo(batch, BATCH - batch.size());
            long left = deadline - System.nanoTime();
            if (left <= 0 || batch.size() >= BATCH) break;
            // short polls, so a flush or a close is noticed soon (never an interrupt: an
            // interrupt during Lucene's file IO closes the index's channels)
            Task next = queue.poll(Math.min(left, POLL_SLICE_NANOS), TimeUnit.NANOSECONDS);
            if (next != null) batch.add(next);
          }
          queue.drainTo(batch, BATCH - batch.size());
          long cpu0 = THREADS.getCurrentThreadCpuTime();
          write(batch);
          writerCpuNanos.addAndGet(THREADS.getCurrentThreadCpuTime() - cpu0);
        }
        retain();
      } catch (InterruptedException e) {
        if (!closing) continue;
      } catch (RuntimeException e) {
        failed.addAndGet(batch.size());
        LOG.log(
            System.Logger.Level.WARNING,
            "retrieval log: " + batch.size() + " entries not written: " + e.getMessage(),
            e);
      } finally {
        if (!batch.isEmpty()) {
          synchronized (progress) {
            done.addAndGet(batch.size());
            progress.notifyAll();
          }
          batch.clear();
        }
      }
    }
  }

  private void write(List<Task> batch) {
    List<LoggedRecall> entries = new ArrayList<>();
    for (Task t : batch) {
      switch (t) {
        case Recalled r -> entries.add(entry(r));
        case Stop stop -> {}
        case Used u -> {
          if (!entries.isEmpty()) {
            log.append(entries);
            entries = new ArrayList<>();
          }
          log.markUsed(u.owner(), u.ids(), u.at());
        }
      }
    }
    if (!entries.isEmpty()) log.append(entries);
  }

  private LoggedRecall entry(Recalled r) {
    var t = r.result().trace();
    RecallRequest req = r.request().toBuilder().askedAt(t.askedAt()).build();
    List<String> selected = r.result().ids();
    return new LoggedRecall(
        r.id(),
        r.loggedAt(),
        req,
        t,
        selected,
        r.result().renderedTokens(),
        engine,
        r.state(),
        ineligible(req, t.validTime(), t.knownTime(), EngineRetrievalLog.eligibilityOf(req, t)),
        List.of());
  }

  /**
   * The owner's records eligibility removed, by reason: counts of nested filters, each adding one
   * rule, so each difference is what that rule removed. Counts only: nothing of any record, and
   * nothing of another owner (every count is within the owner).
   */
  private Map<String, Long> ineligible(
      RecallRequest req, Instant valid, Instant known, Eligibility eligible) {
    String owner = req.owner();
    long all = store.count(Eligibility.allOf(owner));
    long believed = store.count(new Eligibility(owner, null, null, null, null, known, null));
    long validThen = store.count(new Eligibility(owner, null, null, null, valid, known, null));
    long inScope =
        req.scope() == null
            ? validThen
            : store.count(new Eligibility(owner, req.scope(), null, null, valid, known, null));
    long admitted =
        eligible.equals(new Eligibility(owner, req.scope(), null, null, valid, known, null))
            ? inScope
            : store.count(eligible);
    Map<String, Long> out = new LinkedHashMap<>();
    out.put(LoggedRecall.NOT_KNOWN, Math.max(0, all - believed));
    out.put(LoggedRecall.NOT_VALID, Math.max(0, believed - validThen));
    out.put(LoggedRecall.OTHER_SCOPE, Math.max(0, validThen - inScope));
    out.put(LoggedRecall.FILTERED, Math.max(0, inScope - admitted));
    out.put("eligible", admitted);
    return out;
  }

  private void retain() {
    if (options.retention() == null) return;
    Instant now = clock.instant();
    if (Duration.between(lastRetention, now).compareTo(RETENTION_EVERY) < 0
        && lastRetention != Instant.MIN) return;
    lastRetention = now;
    log.deleteBefore(now.minus(options.retention()));
  }

  /** Writes what is queued, then stops the writer. The log itself is closed by its owner. */
  @Override
  public void close() {
    if (!started.get()) {
      closing = true;
      return;
    }
    flush(Duration.ofSeconds(30));
    closing = true;
    queue.offer(new Stop());
    try {
      writer.join(30_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}

package dev.mnemo.internal;

import dev.mnemo.MnemoException;
import java.time.Duration;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * The work queue of one {@link IngestPipeline}: how many turns wait for extraction (back-pressure
 * on the callers) and when a pass of the pipeline runs (on threads every queue of the process
 * shares).
 *
 * <p><b>Accounting.</b> A caller {@linkplain #reserve reserves} room for the turns it is about to
 * append (blocking while the queue is full, up to {@code wait}, then failing with a retriable
 * {@link MnemoException}), reports the append's end with {@link #appended} whether it committed or
 * not, and the pass {@linkplain #release releases} the room once the turns are extracted. A batch
 * larger than the whole capacity still goes through once the queue is empty. The turn log, not this
 * count, is the truth: a pass that finds nothing pending calls {@link #drained}, which clears the
 * count unless an append is on its way (turns forgotten while queued leave no phantom count).
 *
 * <p><b>Passes.</b> {@link #signal} (or {@link #add}) queues a pass, which runs {@code step}: its
 * result is when to pass again in milliseconds (0: at once, more may be pending), or -1 to idle
 * until the next signal. A queue holds no thread while idle, a pass of one queue never runs twice
 * at once, and a signal that arrives while a pass is ending is never lost. A pass that throws is
 * reported to {@code onFailure} and retried after a second.
 *
 * <p>An {@linkplain #inline() inline} queue (synchronous extraction, inside the caller) counts
 * nothing, never blocks and never schedules a pass. Thread-safe.
 */
final class IngestQueue {
  /** How long {@link #close} waits for a running pass. */
  static final Duration CLOSE_WAIT = Duration.ofSeconds(30);

  /** When a pass that threw runs again. */
  static final long FAILED_PASS_DELAY_MS = 1000;

  /**
   * The threads every queue of the process shares: as many as there are cores (at least two),
   * daemon. A queue holds no thread while it has nothing to do, so ten thousand tenants cost no
   * more threads than one.
   */
  private static final ScheduledExecutorService SHARED = sharedExecutor();

  private static ScheduledExecutorService sharedExecutor() {
    AtomicInteger n = new AtomicInteger();
    ScheduledThreadPoolExecutor pool =
        new ScheduledThreadPoolExecutor(
            Math.max(2, Runtime.getRuntime().availableProcessors()),
            r ->
                Thread.ofPlatform()
                    .daemon()
                    .name("mnemo-ingest-" + n.incrementAndGet())
                    .unstarted(r));
    pool.setRemoveOnCancelPolicy(true);
    return pool;
  }

  private final boolean inline;
  private final long capacity;
  private final Duration wait;
  private final LongSupplier step;
  private final Consumer<RuntimeException> onFailure;

  private final Object lock = new Object();

  /** Turns waiting for extraction (reserved or added, not yet released). Guarded by lock. */
  private long queued;

  /** Callers between reserving room and their append's end. Guarded by lock. */
  private int appending;

  /** A pass is working on pending turns (await waits for it). Guarded by lock. */
  private boolean busy;

  /** A pass is running (close waits for it). Guarded by lock. */
  private boolean running;

  private volatile boolean closing;

  /** A pass is queued on, or running in, the shared executor. */
  private final AtomicBoolean scheduled = new AtomicBoolean();

  /** Set by every wake-up, cleared when a pass starts. */
  private volatile boolean woken;

  private IngestQueue(
      boolean inline,
      long capacity,
      Duration wait,
      LongSupplier step,
      Consumer<RuntimeException> onFailure) {
    this.inline = inline;
    this.capacity = capacity;
    this.wait = wait;
    this.step = step;
    this.onFailure = onFailure;
  }

  /**
   * A queue of at most {@code capacity} turns whose callers wait up to {@code wait} for room, and
   * whose passes run {@code step} on the shared threads.
   */
  static IngestQueue scheduled(
      long capacity, Duration wait, LongSupplier step, Consumer<RuntimeException> onFailure) {
    return new IngestQueue(false, capacity, wait, step, onFailure);
  }

  /**
   * The queue of a synchronous pipeline: no accounting, no passes; only {@link #closing()} is kept.
   */
  static IngestQueue inline() {
    return new IngestQueue(true, Long.MAX_VALUE, Duration.ZERO, () -> -1, e -> {});
  }

  /**
   * Waits for room for {@code n} turns, then holds it; the caller then appends and calls {@link
   * #appended}.
   */
  void reserve(long n) {
    if (inline) return;
    long deadline = System.nanoTime() + wait.toNanos();
    synchronized (lock) {
      // a batch larger than the whole capacity still goes through once the queue is empty
      while (queued > 0 && queued + n > capacity) {
        long left = deadline - System.nanoTime();
        if (left <= 0 || closing) {
          throw new MnemoException(
              "ingest queue full: "
                  + queued
                  + " turns wait for extraction (capacity "
                  + capacity
                  + "); nothing was stored, retry later",
              true);
        }
        try {
          lock.wait(Math.max(1, left / 1_000_000));
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new MnemoException(
              "interrupted while the ingest queue was full; nothing was stored", true, e);
        }
      }
      queued += n;
      appending++;
    }
  }

  /** The append after a {@link #reserve} ended (committed or not). */
  void appended() {
    if (inline) return;
    synchronized (lock) {
      if (appending > 0) appending--;
    }
  }

  /**
   * {@code n} turns no longer wait (extracted, refused, found already stored): their room is free.
   */
  void release(long n) {
    if (inline || n == 0) return;
    synchronized (lock) {
      queued = Math.max(0, queued - n);
      lock.notifyAll();
    }
  }

  /**
   * {@code n} turns arrived without a reservation (found pending at start, imported): counts them
   * and wakes a pass.
   */
  void add(long n) {
    if (inline) return;
    synchronized (lock) {
      queued += n;
      lock.notifyAll();
    }
    kick(0);
  }

  /** Work arrived: wakes waiters and queues a pass. */
  void signal() {
    if (inline) return;
    synchronized (lock) {
      lock.notifyAll();
    }
    kick(0);
  }

  /**
   * Called by a pass that found nothing pending: the count is cleared unless an append is on its
   * way.
   */
  void drained() {
    synchronized (lock) {
      if (appending == 0) queued = 0; // the log is the truth: nothing pending, nothing on its way
      lock.notifyAll();
    }
  }

  /** A pass works on pending turns ({@code true}) or stopped working ({@code false}). */
  void busy(boolean b) {
    synchronized (lock) {
      busy = b;
      lock.notifyAll();
    }
  }

  /** Turns counted as waiting for extraction. */
  long queued() {
    synchronized (lock) {
      return queued;
    }
  }

  /** {@link #close} was called. */
  boolean closing() {
    return closing;
  }

  /** Waits until no turn waits and no pass is busy; false when {@code timeout} passed first. */
  boolean await(Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    synchronized (lock) {
      while (queued > 0 || busy) {
        long left = deadline - System.nanoTime();
        if (left <= 0) return false;
        // a pass re-reads the log, the truth: turns forgotten while queued leave no phantom count
        kick(0);
        try {
          lock.wait(Math.max(1, Math.min(200, left / 1_000_000)));
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return false;
        }
      }
      return true;
    }
  }

  /** No pass starts any more; waits up to {@link #CLOSE_WAIT} for the running one. */
  void close() {
    closing = true;
    if (inline) return;
    long deadline = System.nanoTime() + CLOSE_WAIT.toNanos();
    synchronized (lock) {
      lock.notifyAll();
      while (running) {
        long left = deadline - System.nanoTime();
        if (left <= 0) return;
        try {
          lock.wait(Math.max(1, left / 1_000_000));
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return;
        }
      }
    }
  }

  /** Queues a pass on the shared executor in {@code delayMs}, unless one is queued or running. */
  private void kick(long delayMs) {
    if (inline || closing) return;
    if (delayMs == 0) woken = true; // a pass that is finishing sees it and passes once more
    if (scheduled.compareAndSet(false, true)) {
      try {
        SHARED.schedule(this::pass, delayMs, TimeUnit.MILLISECONDS);
      } catch (RejectedExecutionException e) {
        scheduled.set(false);
      }
    }
  }

  /** One pass on a shared thread: runs the step, then queues the next pass if there is more. */
  private void pass() {
    synchronized (lock) {
      if (closing) {
        scheduled.set(false);
        return;
      }
      running = true;
    }
    long next;
    woken = false;
    try {
      next = step.getAsLong();
    } catch (RuntimeException e) {
      onFailure.accept(e);
      next = FAILED_PASS_DELAY_MS;
    } finally {
      synchronized (lock) {
        running = false;
        lock.notifyAll();
      }
      scheduled.set(false);
    }
    if (next >= 0) kick(next);
    else if (woken) kick(0); // work arrived while this pass was ending: no lost wake-up
  }
}

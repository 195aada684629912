package dev.mnemo.server;

import dev.mnemo.InvalidRequestException;
import dev.mnemo.MemoryRecord;
import dev.mnemo.Mnemo;
import dev.mnemo.MnemoException;
import dev.mnemo.NewMemory;
import dev.mnemo.json.BatchPath;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Group commit for one tenant's engine: concurrent write requests share one {@link
 * Mnemo#rememberAll} call, so one fsync serves them all.
 *
 * <p>One committer thread takes whatever is queued when the previous commit has finished (at most
 * {@code maxRecords} records, optionally lingering {@code maxWait} for more), commits it as one
 * batch and only then completes each request: a request is acknowledged exactly when the commit
 * holding it is durable. No request waits for a timer under load: the batch forms while the
 * previous commit runs.
 *
 * <p>Isolation of failures: callers validate each request before queueing it ({@link
 * Mnemo#validate}); a batch can still be refused for a reason that needs the store (a fact key's
 * recorded times must not go backwards). Then nothing of the batch was written (a batch is atomic),
 * and its requests are committed again one by one in arrival order, so only the offending request
 * fails. A store failure fails every request of the batch: none of them was acknowledged.
 *
 * <p>Thread-safe. {@link #close()} commits what is queued and stops.
 */
final class GroupCommitter implements AutoCloseable {

  /** Counts for metrics; one per server, shared by the tenants' committers. */
  interface Listener {
    void committed(int requests, int records, long nanos);
  }

  private record Pending(
      List<NewMemory> memories, boolean single, CompletableFuture<List<MemoryRecord>> done) {}

  private static final Pending STOP = new Pending(List.of(), false, null);

  private final Mnemo engine;
  private final int maxRecords;
  private final Duration maxWait;
  private final Listener listener;
  private final LinkedBlockingQueue<Pending> queue = new LinkedBlockingQueue<>();
  private final AtomicInteger queuedRequests = new AtomicInteger();
  private final Thread thread;
  private volatile boolean closed;

  GroupCommitter(String name, Mnemo engine, int maxRecords, Duration maxWait, Listener listener) {
    this.engine = engine;
    this.maxRecords = maxRecords;
    this.maxWait = maxWait;
    this.listener = listener;
    this.thread = Thread.ofVirtual().name("mnemo-commit-" + name).start(this::run);
  }

  /**
   * Queues already-validated memories and blocks until their commit is durable; returns the stored
   * records in order. {@code single}: name violations as one record ({@code text}) rather than as
   * items of a batch ({@code records[0].text}).
   */
  List<MemoryRecord> write(List<NewMemory> memories, boolean single) {
    if (memories.isEmpty()) return List.of();
    CompletableFuture<List<MemoryRecord>> done = new CompletableFuture<>();
    synchronized (this) {
      if (closed)
        throw new MnemoException("the server is shutting down; nothing was written", true);
      queuedRequests.incrementAndGet();
      queue.add(new Pending(List.copyOf(memories), single, done));
    }
    try {
      return done.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      // Too late to withdraw: the write may still commit. The caller does not acknowledge it.
      throw new MnemoException(
          "interrupted while waiting for the commit; the write may or may not be durable", true, e);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException re) throw re;
      throw new MnemoException("commit failed: " + e.getCause(), false, e.getCause());
    }
  }

  /** Requests waiting for a commit (not counting the one being committed). */
  int depth() {
    return queuedRequests.get();
  }

  private void run() {
    List<Pending> batch = new ArrayList<>();
    Pending carry = null; // taken from the queue but too large for the batch it was taken for
    try {
      while (true) {
        Pending first = carry != null ? carry : queue.take();
        carry = null;
        if (first == STOP) return;
        batch.clear();
        batch.add(first);
        int records = first.memories().size();
        boolean stop = false;
        long deadline = System.nanoTime() + maxWait.toNanos();
        while (records < maxRecords) {
          Pending next = queue.poll();
          if (next == null && !maxWait.isZero()) {
            long left = deadline - System.nanoTime();
            if (left > 0) next = queue.poll(left, TimeUnit.NANOSECONDS);
          }
          if (next == null) break;
          if (next == STOP) {
            stop = true;
            break;
          }
          if (records + next.memories().size() > maxRecords) {
            carry = next;
            break;
          }
          batch.add(next);
          records += next.memories().size();
        }
        commit(batch);
        if (stop) return;
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      MnemoException stopped =
          new MnemoException("the committer was interrupted; nothing was written", true);
      if (carry != null && carry != STOP) carry.done().completeExceptionally(stopped);
      for (Pending p; (p = queue.poll()) != null; )
        if (p != STOP) p.done().completeExceptionally(stopped);
    }
  }

  private void commit(List<Pending> batch) {
    queuedRequests.addAndGet(-batch.size());
    long t0 = System.nanoTime();
    int records = 0;
    for (Pending p : batch) records += p.memories().size();
    if (batch.size() == 1) {
      commitAlone(batch.get(0));
    } else {
      List<NewMemory> all = new ArrayList<>(records);
      for (Pending p : batch) all.addAll(p.memories());
      try {
        List<MemoryRecord> stored = engine.rememberAll(all);
        int i = 0;
        for (Pending p : batch) {
          p.done().complete(List.copyOf(stored.subList(i, i + p.memories().size())));
          i += p.memories().size();
        }
      } catch (InvalidRequestException e) {
        // Nothing was written; find the culprit by committing each request on its own, in order.
        for (Pending p : batch) commitAlone(p);
      } catch (RuntimeException | Error e) {
        for (Pending p : batch) p.done().completeExceptionally(e);
      }
    }
    listener.committed(batch.size(), records, System.nanoTime() - t0);
  }

  private void commitAlone(Pending p) {
    try {
      p.done().complete(engine.rememberAll(p.memories()));
    } catch (InvalidRequestException e) {
      p.done().completeExceptionally(renamed(e, p.single()));
    } catch (RuntimeException | Error e) {
      p.done().completeExceptionally(e);
    }
  }

  /**
   * The engine names batch items {@code memories[i].}; the wire calls them {@code records[i].} (a
   * single write: {@code text}).
   */
  static InvalidRequestException renamed(InvalidRequestException e, boolean single) {
    return single
        ? BatchPath.MEMORIES.unbatched(e)
        : BatchPath.MEMORIES.renamed(e, BatchPath.RECORDS);
  }

  @Override
  public void close() {
    synchronized (this) {
      if (closed) return;
      closed = true;
      queue.add(STOP);
    }
    try {
      thread.join(Duration.ofSeconds(30));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}

package dev.mnemo.server;

import dev.mnemo.InvalidRequestException;
import dev.mnemo.MnemoException;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Whether one tenant's store still takes writes, as its writes show: the readiness check reads it.
 *
 * <p>A write that fails with a store failure (a {@link MnemoException} that is not retriable and
 * not an {@link InvalidRequestException}, which the server answers with 500 {@code store-failure})
 * marks the store failed. The Lucene store refuses every later write once a commit failed (it rolls
 * back to its last commit and asks to be reopened), so the mark stays until {@link Tenants} reopens
 * the store (on a request after a back-off, or by the admin's reopen call). A store whose failures
 * pass clears the mark with its next successful write, but only with a write that <em>started</em>
 * after the failure was recorded: a write that was already under way may have committed before the
 * failure and proves nothing. That ordering is kept with one ticket counter, lock-free.
 *
 * <p>Validation errors, retriable errors (time-outs, shutting down) and reads do not count.
 * Thread-safe.
 */
final class WriteHealth {

  /** A recorded store failure: the tenant's store refused a write. */
  record Failure(long ticket, Instant at, String message) {}

  private final AtomicLong tickets = new AtomicLong();
  private final AtomicReference<Failure> failure = new AtomicReference<>();
  private volatile boolean tookAWrite;

  /** Call before a write; pass the ticket to {@link #succeeded} or {@link #failed}. */
  long begin() {
    return tickets.incrementAndGet();
  }

  /**
   * The write that took {@code ticket} was durable: clears a failure recorded before it started.
   */
  void succeeded(long ticket) {
    tookAWrite = true;
    if (failure.get() == null) return;
    failure.updateAndGet(f -> f != null && f.ticket() < ticket ? null : f);
  }

  /**
   * The write failed with {@code e}; records it when it is a store failure. A store that has
   * already failed keeps the time and message of its first failure: the refusals that follow (a
   * failed Lucene store refuses every write) neither restart the reopen's back-off, which counts
   * from the failure, nor hide its cause; only the ticket moves on, so a write that started before
   * this refusal does not clear it.
   */
  void failed(RuntimeException e) {
    if (isStoreFailure(e)) {
      long ticket = tickets.incrementAndGet();
      Instant now = Instant.now();
      String message = String.valueOf(e.getMessage());
      failure.updateAndGet(
          f ->
              f == null
                  ? new Failure(ticket, now, message)
                  : new Failure(ticket, f.at(), f.message()));
    }
  }

  /** Whether any write succeeded since this store was opened. */
  boolean tookAWrite() {
    return tookAWrite;
  }

  /** The last store failure not cleared by a later write, if any. */
  Optional<Failure> failure() {
    return Optional.ofNullable(failure.get());
  }

  static boolean isStoreFailure(Throwable e) {
    return e instanceof MnemoException m
        && !m.retriable()
        && !(e instanceof InvalidRequestException);
  }
}

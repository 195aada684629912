package dev.mnemo.store.lucene;

import java.io.IOException;
import java.io.InterruptedIOException;

/**
 * Group commit for one index: writers that have added their changes wait here until a commit covers
 * them, and one of them runs that commit for all who are waiting.
 *
 * <p>Each change is given a ticket ({@link #issue}) once the writer has completed it; a commit run
 * after a ticket was issued covers it (Lucene commits every completed operation). {@link #await}
 * returns when a commit that started after the ticket was issued has finished: the first waiter to
 * find no commit running runs one (reading the highest ticket issued just before it starts), the
 * others wait and usually find themselves covered by it, so N concurrent writers pay for about two
 * fsyncs, not N. No thread of its own. A failed commit fails every waiter not yet covered, and
 * every later {@link #await}: the index has been rolled back and the store must be reopened.
 *
 * <p>Thread-safe.
 */
final class GroupCommit {
  /** Commits the index (everything completed so far), durably. */
  interface Commit {
    void run() throws IOException;
  }

  private final Commit commit;
  private long issued;
  private long durable;
  private boolean running;
  private Throwable failure;

  GroupCommit(Commit commit) {
    this.commit = commit;
  }

  /** A ticket for changes the caller has completed: a commit started from now on covers them. */
  synchronized long issue() {
    return ++issued;
  }

  /** Whether every ticket issued so far is durable. */
  synchronized boolean idle() {
    return durable == issued && !running;
  }

  /**
   * Returns once the ticket's changes are durable, running the commit when none is running.
   *
   * @throws IOException the commit that should have covered the ticket failed (now or earlier)
   */
  void await(long ticket) throws IOException {
    long upTo;
    synchronized (this) {
      while (true) {
        if (durable >= ticket) return;
        if (failure != null) throw new IOException("an earlier commit failed", failure);
        if (!running) break;
        try {
          wait();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new InterruptedIOException("interrupted waiting for a commit");
        }
      }
      running = true;
      upTo = issued;
    }
    Throwable failed = null;
    try {
      commit.run();
    } catch (IOException | RuntimeException | Error e) {
      failed = e;
      throw e;
    } finally {
      synchronized (this) {
        running = false;
        if (failed != null) failure = failed;
        else durable = Math.max(durable, upTo);
        notifyAll();
      }
    }
  }

  /** Commits now, for a caller holding changes of its own (moves, forgets, repairs). */
  void commitNow() throws IOException {
    await(issue());
  }
}

package dev.mnemo.internal;

import java.util.Collection;
import java.util.TreeSet;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The engine's write locks. A write plans against the owner's current records (supersession,
 * same-fact matching), so two writes of one owner must not plan at once; writes of different owners
 * never read each other's records (every store call is scoped to one owner), so they may. Each
 * owner maps to one of {@link #STRIPES} reentrant locks (owners sharing a stripe just take turns; a
 * lock per owner would grow with the owners). A batch across owners (rememberAll, a restore) takes
 * its owners' stripes in index order, so two such batches cannot deadlock; a thread holding some
 * stripes must not ask for others (nested writes stay within the owners they hold).
 */
final class WriteLocks {
  /** Stripes: enough that 2-16 concurrent writers of different owners rarely share one. */
  static final int STRIPES = 64;

  /**
   * A held lock set; {@link #release} releases it, in a {@code finally} (not try-with-resources:
   * the body never names the resource, which the compiler's lint reports).
   */
  interface Held {
    void release();
  }

  private final ReentrantLock[] stripes = new ReentrantLock[STRIPES];

  WriteLocks() {
    for (int i = 0; i < STRIPES; i++) stripes[i] = new ReentrantLock();
  }

  /** The lock of one owner's writes. */
  Held owner(String owner) {
    return owners(java.util.List.of(owner == null ? "" : owner));
  }

  /** The locks of every owner in {@code owners} (a batch across owners), taken in stripe order. */
  Held owners(Collection<String> owners) {
    TreeSet<Integer> held = new TreeSet<>();
    for (String o : owners) held.add(stripe(o == null ? "" : o));
    int taken = 0;
    try {
      for (int i : held) {
        stripes[i].lock();
        taken++;
      }
    } catch (RuntimeException | Error e) {
      release(held, taken);
      throw e;
    }
    return () -> release(held, held.size());
  }

  private void release(TreeSet<Integer> held, int taken) {
    int i = 0;
    for (int s : held) {
      if (i++ >= taken) break;
      stripes[s].unlock();
    }
  }

  private static int stripe(String owner) {
    return Math.floorMod(owner.hashCode() * 0x9E3779B9, STRIPES);
  }
}

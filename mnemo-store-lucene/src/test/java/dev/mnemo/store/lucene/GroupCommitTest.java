package dev.mnemo.store.lucene;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Group commit: writers waiting while a commit runs are covered by one commit after it, nobody
 * returns before a commit that started after their ticket, and a failed commit fails every waiter
 * it should have covered. Commits are held with latches (no timing).
 */
class GroupCommitTest {

  @Test
  void writersWaitingDuringACommit_shareTheNextOne() throws Exception {
    AtomicInteger commits = new AtomicInteger();
    CountDownLatch firstStarted = new CountDownLatch(1);
    CountDownLatch releaseFirst = new CountDownLatch(1);
    GroupCommit group =
        new GroupCommit(
            () -> {
              if (commits.incrementAndGet() == 1) {
                firstStarted.countDown();
                try {
                  releaseFirst.await();
                } catch (InterruptedException e) {
                  throw new IOException(e);
                }
              }
            });
    ExecutorService pool = Executors.newFixedThreadPool(6);
    try {
      long first = group.issue();
      Future<?> leader =
          pool.submit(
              () -> {
                group.await(first);
                return null;
              });
      assertThat(firstStarted.await(1, TimeUnit.MINUTES)).isTrue();
      // five writers complete their changes while the first commit runs
      List<Future<?>> waiting = new ArrayList<>();
      for (int i = 0; i < 5; i++) {
        long t = group.issue();
        waiting.add(
            pool.submit(
                () -> {
                  group.await(t);
                  return null;
                }));
      }
      assertThat(group.idle()).isFalse();
      releaseFirst.countDown();
      leader.get(1, TimeUnit.MINUTES);
      for (Future<?> f : waiting) f.get(1, TimeUnit.MINUTES);
      assertThat(commits.get()).isEqualTo(2);
      assertThat(group.idle()).isTrue();
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void aFailedCommit_failsItsWaiters_andEveryLaterOne() {
    AtomicInteger commits = new AtomicInteger();
    GroupCommit group =
        new GroupCommit(
            () -> {
              if (commits.incrementAndGet() == 2) throw new IOException("disk full");
            });
    long ok = group.issue();
    org.junit.jupiter.api.Assertions.assertDoesNotThrow(() -> group.await(ok));
    long lost = group.issue();
    assertThatThrownBy(() -> group.await(lost)).hasMessageContaining("disk full");
    long later = group.issue();
    assertThatThrownBy(() -> group.await(later)).hasMessageContaining("an earlier commit failed");
    assertThat(commits.get()).isEqualTo(2);
    // a ticket already covered stays acknowledged
    org.junit.jupiter.api.Assertions.assertDoesNotThrow(() -> group.await(ok));
  }
}

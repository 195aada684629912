package dev.mnemo.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mnemo.MnemoException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import org.junit.jupiter.api.Test;

/**
 * The ingest work queue on its own: back-pressure accounting, passes on the shared threads, no lost
 * wake-up, close. Waits are bounded by latches with generous time-outs, never by sleeping for a
 * result.
 */
class IngestQueueTest {
  private static final Duration LONG = Duration.ofSeconds(20);

  private static IngestQueue queue(long capacity, Duration wait, LongSupplier step) {
    return IngestQueue.scheduled(capacity, wait, step, e -> {});
  }

  @Test
  void reserve_holdsRoomUntilReleased_andAFullQueueRefusesAfterItsWait_retriably() {
    IngestQueue q = queue(10, Duration.ofMillis(50), () -> -1);
    q.reserve(6);
    q.appended();
    q.reserve(4);
    q.appended();
    assertThat(q.queued()).isEqualTo(10);
    assertThatThrownBy(() -> q.reserve(1))
        .isInstanceOfSatisfying(MnemoException.class, e -> assertThat(e.retriable()).isTrue())
        .hasMessageContaining("ingest queue full: 10 turns wait for extraction (capacity 10)")
        .hasMessageContaining("nothing was stored");
    assertThat(q.queued()).isEqualTo(10); // the refused call holds nothing
    q.release(4);
    q.reserve(4);
    assertThat(q.queued()).isEqualTo(10);
  }

  @Test
  void aBatchLargerThanTheCapacity_goesThroughOnceTheQueueIsEmpty() {
    IngestQueue q = queue(3, Duration.ofMillis(10), () -> -1);
    q.reserve(50);
    q.appended();
    assertThat(q.queued()).isEqualTo(50);
    assertThatThrownBy(() -> q.reserve(1)).isInstanceOf(MnemoException.class);
    q.release(50);
    q.reserve(50);
    assertThat(q.queued()).isEqualTo(50);
  }

  @Test
  void aBlockedReserve_proceedsWhenAnotherThreadReleasesRoom() throws Exception {
    IngestQueue q = queue(2, LONG, () -> -1);
    q.reserve(2);
    q.appended();
    CountDownLatch reserved = new CountDownLatch(1);
    Thread waiter =
        Thread.ofPlatform()
            .start(
                () -> {
                  q.reserve(1);
                  reserved.countDown();
                });
    assertThat(reserved.await(100, TimeUnit.MILLISECONDS)).isFalse(); // blocked: the queue is full
    q.release(1);
    assertThat(reserved.await(LONG.toSeconds(), TimeUnit.SECONDS)).isTrue();
    waiter.join();
    assertThat(q.queued()).isEqualTo(2);
  }

  @Test
  void release_neverCountsBelowZero() {
    IngestQueue q = queue(5, Duration.ZERO, () -> -1);
    q.reserve(1);
    q.release(3);
    assertThat(q.queued()).isZero();
  }

  @Test
  void add_runsAPass_thatDrainsTheQueue_andAwaitReturnsOnceItIsEmpty() {
    AtomicInteger passes = new AtomicInteger();
    IngestQueue[] box = new IngestQueue[1];
    AtomicLong pending = new AtomicLong(7);
    box[0] =
        queue(
            100,
            LONG,
            () -> {
              passes.incrementAndGet();
              long n = pending.getAndSet(0);
              if (n == 0) {
                box[0].drained();
                return -1;
              }
              box[0].busy(true);
              box[0].release(n);
              box[0].busy(false);
              return 0; // more may be pending: pass again
            });
    box[0].add(7);
    assertThat(box[0].await(LONG)).isTrue();
    assertThat(box[0].queued()).isZero();
    assertThat(passes.get()).isGreaterThanOrEqualTo(1);
    box[0].close();
  }

  @Test
  void await_timesOut_whileTurnsWaitAndNoPassReleasesThem() {
    IngestQueue q = queue(100, LONG, () -> -1); // a pass that never finds the counted turns
    q.reserve(3); // an append still on its way: a pass may not clear the count
    assertThat(q.await(Duration.ofMillis(100))).isFalse();
    q.appended();
    q.release(3);
    assertThat(q.await(Duration.ofMillis(100))).isTrue();
    q.close();
  }

  @Test
  void drained_clearsAPhantomCount_butNotWhileAnAppendIsOnItsWay() {
    IngestQueue q = queue(100, LONG, () -> -1);
    q.reserve(4);
    q.drained(); // the append has not ended: its turns may not be in the log yet
    assertThat(q.queued()).isEqualTo(4);
    q.appended();
    q.drained(); // now the log is the truth
    assertThat(q.queued()).isZero();
  }

  @Test
  void aSignalDuringAPass_isNotLost_andPassesOfOneQueueNeverOverlap() throws Exception {
    AtomicInteger concurrent = new AtomicInteger();
    AtomicInteger maxConcurrent = new AtomicInteger();
    AtomicInteger passes = new AtomicInteger();
    CountDownLatch firstPassStarted = new CountDownLatch(1);
    CountDownLatch releaseFirstPass = new CountDownLatch(1);
    CountDownLatch secondPass = new CountDownLatch(1);
    IngestQueue q =
        queue(
            100,
            LONG,
            () -> {
              int now = concurrent.incrementAndGet();
              maxConcurrent.accumulateAndGet(now, Math::max);
              try {
                if (passes.incrementAndGet() == 1) {
                  firstPassStarted.countDown();
                  await(releaseFirstPass);
                } else {
                  secondPass.countDown();
                }
                return -1; // idle: only a signal brings another pass
              } finally {
                concurrent.decrementAndGet();
              }
            });
    q.signal();
    assertThat(firstPassStarted.await(LONG.toSeconds(), TimeUnit.SECONDS)).isTrue();
    for (int i = 0; i < 20; i++)
      q.signal(); // arrive while the first pass runs and is about to idle
    releaseFirstPass.countDown();
    assertThat(secondPass.await(LONG.toSeconds(), TimeUnit.SECONDS)).isTrue();
    q.close();
    assertThat(maxConcurrent.get()).isEqualTo(1);
  }

  @Test
  void aStepsDelay_schedulesTheNextPass_andMinusOneIdles() throws Exception {
    List<Long> starts = new CopyOnWriteArrayList<>();
    CountDownLatch two = new CountDownLatch(2);
    IngestQueue q =
        queue(
            100,
            LONG,
            () -> {
              starts.add(System.nanoTime());
              two.countDown();
              return starts.size() == 1 ? 150 : -1;
            });
    q.signal();
    assertThat(two.await(LONG.toSeconds(), TimeUnit.SECONDS)).isTrue();
    assertThat(TimeUnit.NANOSECONDS.toMillis(starts.get(1) - starts.get(0)))
        .isGreaterThanOrEqualTo(140);
    q.close();
    assertThat(starts).hasSize(2); // idle after -1, and closed: no pass without a signal
  }

  @Test
  void aPassThatThrows_isReported_andRetried() throws Exception {
    List<RuntimeException> failures = new CopyOnWriteArrayList<>();
    CountDownLatch retried = new CountDownLatch(1);
    AtomicInteger passes = new AtomicInteger();
    IngestQueue q =
        IngestQueue.scheduled(
            100,
            LONG,
            () -> {
              if (passes.incrementAndGet() == 1) throw new IllegalStateException("boom");
              retried.countDown();
              return -1;
            },
            failures::add);
    q.signal();
    assertThat(retried.await(LONG.toSeconds(), TimeUnit.SECONDS)).isTrue();
    assertThat(failures).singleElement().satisfies(e -> assertThat(e).hasMessage("boom"));
    q.close();
  }

  @Test
  void close_waitsForTheRunningPass_andNoPassStartsAfterIt() throws Exception {
    CountDownLatch started = new CountDownLatch(1);
    CountDownLatch finish = new CountDownLatch(1);
    AtomicInteger passes = new AtomicInteger();
    AtomicInteger finished = new AtomicInteger();
    IngestQueue q =
        queue(
            100,
            LONG,
            () -> {
              passes.incrementAndGet();
              started.countDown();
              await(finish);
              finished.incrementAndGet();
              return 0; // would pass again at once
            });
    q.signal();
    assertThat(started.await(LONG.toSeconds(), TimeUnit.SECONDS)).isTrue();
    Thread closer = Thread.ofPlatform().start(q::close);
    closer.join(100);
    assertThat(closer.isAlive()).isTrue(); // close waits for the pass
    finish.countDown();
    closer.join(LONG.toMillis());
    assertThat(closer.isAlive()).isFalse();
    assertThat(finished.get()).isEqualTo(1);
    assertThat(q.closing()).isTrue();
    q.signal();
    q.add(5);
    assertThat(q.await(Duration.ofMillis(50))).isFalse(); // counted, but nothing runs any more
    assertThat(passes.get()).isEqualTo(1);
  }

  @Test
  void aClosedFullQueue_refusesAtOnce() {
    IngestQueue q = queue(1, LONG, () -> -1);
    q.reserve(1);
    q.close();
    long t0 = System.nanoTime();
    assertThatThrownBy(() -> q.reserve(1))
        .isInstanceOf(MnemoException.class)
        .hasMessageContaining("ingest queue full");
    assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(LONG);
  }

  @Test
  void anInlineQueue_countsNothing_neverBlocks_andRunsNoPass() {
    IngestQueue q = IngestQueue.inline();
    for (int i = 0; i < 5; i++) q.reserve(Long.MAX_VALUE / 10);
    q.add(3);
    q.signal();
    assertThat(q.queued()).isZero();
    assertThat(q.await(Duration.ZERO)).isTrue();
    assertThat(q.closing()).isFalse();
    q.close();
    assertThat(q.closing()).isTrue();
  }

  private static void await(CountDownLatch latch) {
    try {
      if (!latch.await(LONG.toSeconds(), TimeUnit.SECONDS))
        throw new IllegalStateException("latch timed out");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}

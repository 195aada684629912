package dev.mnemo.eval;

import dev.mnemo.Diagnostics;
import dev.mnemo.LoggedRecall;
import dev.mnemo.Mnemo;
import dev.mnemo.RecallLogQuery;
import dev.mnemo.RecallRequest;
import dev.mnemo.RecallStats;
import dev.mnemo.Replay;
import dev.mnemo.RetrievalLog;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Measures the retrieval log (BENCHMARKS.md, "Retrieval log"): recall latency with the log on and
 * off, alternating in one run on one store; the log's size per 1,000 recalls; and replay agreement,
 * the share of logged recalls whose replay selects exactly what was selected then, over the dev
 * scenarios and LoCoMo conversations, with the cost of a replay.
 *
 * <p>Every store is fresh, in a temporary directory, opened by the caller's factory (which decides
 * the embedder). Measures only; nothing here compares a time with a target.
 */
public final class RecallLogBench {
  private RecallLogBench() {}

  /**
   * Replays of one suite.
   *
   * @param suite what ran
   * @param recalls recalls made (all logged: the log's queue is never full here)
   * @param logged entries found in the logs
   * @param identical replays that selected the same records in the same order
   * @param differing ids (with the store's name) of the replays that did not
   * @param replayMeanMs mean wall time of one replay (the log read, the recall, the diff)
   * @param replayP50Ms median of the same
   * @param recallMeanMs mean wall time of the original recalls
   */
  public record Agreement(
      String suite,
      int recalls,
      int logged,
      int identical,
      List<String> differing,
      double replayMeanMs,
      double replayP50Ms,
      double recallMeanMs) {
    public double share() {
      return logged == 0 ? Double.NaN : (double) identical / logged;
    }
  }

  /**
   * Latency with the log on and off, one pair of calls per request, their order alternating.
   *
   * @param pairs requests measured
   * @param on wall times (ms) of the logged calls, sorted
   * @param off wall times (ms) of the calls with {@code log(false)}, sorted
   * @param logged entries the log holds at the end
   * @param dropped entries the logger dropped
   * @param logBytes bytes of the log's files at the end (after the writer drained)
   * @param onCpuMs mean CPU time of the recalling thread, log on (machine load does not inflate it)
   * @param offCpuMs the same, log off
   * @param writerCpuMsPerRecall CPU time the log's writer thread spent per logged recall
   */
  public record Latency(
      int pairs,
      List<Double> on,
      List<Double> off,
      long logged,
      long dropped,
      long logBytes,
      double onCpuMs,
      double offCpuMs,
      double writerCpuMsPerRecall) {
    public double bytesPer1000() {
      return logged == 0 ? Double.NaN : logBytes * 1000.0 / logged;
    }

    public static double percentile(List<Double> sorted, double p) {
      return sorted.isEmpty()
          ? Double.NaN
          : sorted.get(Math.min(sorted.size() - 1, (int) Math.floor(p * sorted.size())));
    }

    public static double mean(List<Double> xs) {
      return xs.stream().mapToDouble(Double::doubleValue).average().orElse(Double.NaN);
    }
  }

  /**
   * Each scenario on a fresh store: its writes, its queries (logged), then every logged recall
   * replayed.
   */
  public static Agreement scenarios(
      List<Scenario> scenarios, Function<Path, Mnemo> engines, Consumer<String> progress) {
    Tally t = new Tally();
    for (Scenario s : scenarios) {
      Path dir = TempDirs.create("mnemo-logbench-", "scenario " + s.id());
      try (Mnemo m = engines.apply(dir)) {
        if (!s.writes().isEmpty()) m.rememberAll(s.writes());
        for (ScenarioQuery q : s.queries())
          t.recall(m, ScenarioRunner.request(q).explain(false).build());
        t.replayAll(m, s.id());
      } finally {
        TempDirs.delete(dir);
      }
      progress.accept(
          "scenario " + s.id() + ": " + t.identical + "/" + t.logged + " identical so far");
    }
    return t.agreement("scenarios");
  }

  /**
   * Each conversation on a fresh store (every turn a record, as {@code eval locomo} writes them),
   * every question of categories 1 to 4 asked with the engine's default settings an hour after the
   * last session, logged, then every logged recall replayed. With {@code latency} non-null, the
   * questions are first asked in pairs, log on and off alternating, into it (the first conversation
   * only).
   */
  public static Agreement locomo(
      List<LocomoConversation> conversations,
      Function<Path, Mnemo> engines,
      List<Latency> latency,
      Consumer<String> progress) {
    Tally t = new Tally();
    boolean first = true;
    for (LocomoConversation c : conversations) {
      Path dir = TempDirs.create("mnemo-logbench-", "conversation " + c.name());
      try (Mnemo m = engines.apply(dir)) {
        m.rememberAll(LocomoRunner.memories(c, true));
        List<RecallRequest> requests = new ArrayList<>();
        for (LocomoConversation.Question q : c.questions()) {
          if (q.category() < 1 || q.category() > 4 || q.evidence().isEmpty()) continue;
          requests.add(
              RecallRequest.builder(c.name(), q.text())
                  .askedAt(c.lastSessionAt().plus(Duration.ofHours(LocomoRunner.ASK_AFTER_HOURS)))
                  .build());
        }
        if (first && latency != null) {
          latency.add(latency(m, requests));
          // the agreement below replays only what it logs itself
          first = false;
          t.skipBefore(m);
        }
        for (RecallRequest r : requests) t.recall(m, r);
        t.replayAll(m, c.name());
      } finally {
        TempDirs.delete(dir);
      }
      progress.accept(
          "conversation " + c.name() + ": " + t.identical + "/" + t.logged + " identical so far");
    }
    return t.agreement("locomo");
  }

  /**
   * Every request twice, logged and not, the order alternating from one request to the next; a
   * warm-up pass first.
   */
  public static Latency latency(Mnemo m, List<RecallRequest> requests) {
    for (RecallRequest r : requests) m.recall(r.toBuilder().log(false).build());
    List<Double> on = new ArrayList<>();
    List<Double> off = new ArrayList<>();
    double[] cpu = new double[2];
    long writer0 = m.diagnostics().map(Diagnostics::recallLogWriterCpuNanos).orElse(0L);
    for (int i = 0; i < requests.size(); i++) {
      RecallRequest logged = requests.get(i).toBuilder().log(true).build();
      RecallRequest unlogged = requests.get(i).toBuilder().log(false).build();
      if (i % 2 == 0) {
        on.add(time(m, logged, cpu, 0));
        off.add(time(m, unlogged, cpu, 1));
      } else {
        off.add(time(m, unlogged, cpu, 1));
        on.add(time(m, logged, cpu, 0));
      }
    }
    flush(m);
    on.sort(Double::compare);
    off.sort(Double::compare);
    RecallStats s = log(m).recallStats(RecallLogQuery.all(1));
    long bytes = m.diagnostics().map(Diagnostics::recallLogBytes).orElse(-1L);
    double writerMs =
        m.diagnostics().map(d -> (d.recallLogWriterCpuNanos() - writer0) / 1e6).orElse(Double.NaN);
    int n = requests.size();
    return new Latency(
        n,
        on,
        off,
        s.recalls(),
        s.dropped(),
        bytes,
        cpu[0] / n,
        cpu[1] / n,
        s.recalls() == 0 ? Double.NaN : writerMs / s.recalls());
  }

  /** The retrieval log this benchmark measures. */
  private static RetrievalLog log(Mnemo m) {
    return m.retrievalLog()
        .orElseThrow(
            () ->
                new IllegalStateException(
                    "the retrieval log benchmark needs a Mnemo that keeps a retrieval log (the Lucene store keeps one)"));
  }

  /**
   * Waits until every recall logged so far is stored (an engine's log is written in the
   * background).
   */
  private static void flush(Mnemo m) {
    m.diagnostics().ifPresent(d -> d.flushRecallLog(Duration.ofMinutes(5)));
  }

  private static final java.lang.management.ThreadMXBean THREADS =
      java.lang.management.ManagementFactory.getThreadMXBean();

  /** Wall ms of one recall; its thread's CPU ms added to {@code cpu[slot]}. */
  private static double time(Mnemo m, RecallRequest r, double[] cpu, int slot) {
    long c0 = THREADS.getCurrentThreadCpuTime();
    long t0 = System.nanoTime();
    m.recall(r);
    long t1 = System.nanoTime();
    cpu[slot] += (THREADS.getCurrentThreadCpuTime() - c0) / 1e6;
    return (t1 - t0) / 1e6;
  }

  private static double time(Mnemo m, RecallRequest r) {
    long t0 = System.nanoTime();
    m.recall(r);
    return (System.nanoTime() - t0) / 1e6;
  }

  /** Counts over every store of a suite. */
  private static final class Tally {
    int recalls;
    int logged;
    int identical;
    final List<String> differing = new ArrayList<>();
    final List<Double> replayMs = new ArrayList<>();
    final List<Double> recallMs = new ArrayList<>();
    private String after;

    void recall(Mnemo m, RecallRequest r) {
      recallMs.add(time(m, r));
      recalls++;
    }

    /** Entries logged so far in {@code m} are not this tally's (the latency run's). */
    void skipBefore(Mnemo m) {
      flush(m);
      List<LoggedRecall> all = log(m).recalls(RecallLogQuery.all(1));
      after = all.isEmpty() ? null : all.get(0).id();
    }

    void replayAll(Mnemo m, String store) {
      flush(m);
      List<LoggedRecall> entries = log(m).recalls(RecallLogQuery.all(100_000));
      for (LoggedRecall e : entries) {
        if (after != null && e.id().compareTo(after) <= 0) continue;
        long t0 = System.nanoTime();
        Replay r = log(m).replay(e.id(), null).orElseThrow();
        replayMs.add((System.nanoTime() - t0) / 1e6);
        logged++;
        if (r.identical()) identical++;
        else differing.add(store + "/" + e.id());
      }
      after = null;
    }

    Agreement agreement(String suite) {
      List<Double> sorted = new ArrayList<>(replayMs);
      sorted.sort(Double::compare);
      return new Agreement(
          suite,
          recalls,
          logged,
          identical,
          differing,
          Latency.mean(replayMs),
          Latency.percentile(sorted, 0.5),
          Latency.mean(recallMs));
    }
  }
}

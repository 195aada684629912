package dev.mnemo.bench.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mnemo.cli.EngineOptions;
import dev.mnemo.eval.LocomoLoader;
import dev.mnemo.eval.RecallLogBench;
import dev.mnemo.eval.ScenarioReader;
import dev.mnemo.json.JsonCodec;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code mnemo bench log}: the retrieval log's cost and replay agreement ({@link RecallLogBench}).
 */
@Command(
    name = "log",
    mixinStandardHelpOptions = true,
    description = {
      "Measure the retrieval log: recall latency with the log on and off (alternating, one store), "
          + "the log's size per 1,000 recalls, replay agreement (share of replays identical to the logged selection) "
          + "over scenario files and LoCoMo conversations, and the cost of a replay.",
      "Each store is fresh and temporary; the engine options (--embedder...) apply. Measures only: the exit code "
          + "does not depend on any time."
    })
final class BenchLogCommand implements Callable<Integer> {
  @Mixin EngineOptions engine;

  @Option(
      names = "--scenarios",
      paramLabel = "FILE",
      split = ",",
      description = "Scenario files to log and replay.")
  List<Path> scenarios;

  @Option(
      names = "--locomo",
      paramLabel = "DIR",
      description = "LoCoMo conversations to log and replay; the first also measures latency.")
  Path locomo;

  @Option(names = "--json", description = "The results as JSON on stdout (progress on stderr).")
  boolean json;

  @Override
  public Integer call() throws Exception {
    if (scenarios == null && locomo == null) {
      throw new dev.mnemo.InvalidRequestException(
          "scenarios", null, "give --scenarios FILE and/or --locomo DIR");
    }
    PrintStream say = json ? System.err : System.out;
    ObjectNode out = JsonCodec.object();
    try {
      if (scenarios != null) {
        var a = RecallLogBench.scenarios(ScenarioReader.read(scenarios), engine::open, line -> {});
        report(say, out, a);
      }
      if (locomo != null) {
        List<RecallLogBench.Latency> lat = new ArrayList<>();
        var a =
            RecallLogBench.locomo(
                LocomoLoader.loadDir(locomo), engine::open, lat, System.err::println);
        for (RecallLogBench.Latency l : lat) {
          ObjectNode o = out.putObject("latency");
          o.put("pairs", l.pairs());
          put(o, "on_p50_ms", RecallLogBench.Latency.percentile(l.on(), 0.5));
          put(o, "off_p50_ms", RecallLogBench.Latency.percentile(l.off(), 0.5));
          put(o, "on_p99_ms", RecallLogBench.Latency.percentile(l.on(), 0.99));
          put(o, "off_p99_ms", RecallLogBench.Latency.percentile(l.off(), 0.99));
          put(o, "on_mean_ms", RecallLogBench.Latency.mean(l.on()));
          put(o, "off_mean_ms", RecallLogBench.Latency.mean(l.off()));
          o.put("logged", l.logged());
          o.put("dropped", l.dropped());
          o.put("log_bytes", l.logBytes());
          put(o, "bytes_per_1000_recalls", l.bytesPer1000());
          put(o, "on_cpu_mean_ms", l.onCpuMs());
          put(o, "off_cpu_mean_ms", l.offCpuMs());
          put(o, "writer_cpu_ms_per_recall", l.writerCpuMsPerRecall());
          say.printf(
              Locale.ROOT,
              "latency (%d pairs, alternating): log on p50 %.2f ms, p99 %.2f ms, mean %.2f ms | "
                  + "off p50 %.2f ms, p99 %.2f ms, mean %.2f ms | logged %d, dropped %d, %.0f KiB per 1,000 recalls%n",
              l.pairs(),
              RecallLogBench.Latency.percentile(l.on(), 0.5),
              RecallLogBench.Latency.percentile(l.on(), 0.99),
              RecallLogBench.Latency.mean(l.on()),
              RecallLogBench.Latency.percentile(l.off(), 0.5),
              RecallLogBench.Latency.percentile(l.off(), 0.99),
              RecallLogBench.Latency.mean(l.off()),
              l.logged(),
              l.dropped(),
              l.bytesPer1000() / 1024);
          say.printf(
              Locale.ROOT,
              "cpu of the recalling thread: log on %.2f ms, off %.2f ms; the log writer's cpu: %.2f ms per recall%n",
              l.onCpuMs(),
              l.offCpuMs(),
              l.writerCpuMsPerRecall());
        }
        report(say, out, a);
      }
    } finally {
      engine.closeEmbedder();
    }
    if (json) System.out.println(JsonCodec.WRITER.writeValueAsString(out));
    return 0;
  }

  private static void report(PrintStream say, ObjectNode out, RecallLogBench.Agreement a) {
    ObjectNode o = out.putObject(a.suite());
    o.put("recalls", a.recalls());
    o.put("logged", a.logged());
    o.put("identical", a.identical());
    put(o, "share_identical", a.share());
    a.differing().forEach(o.putArray("differing")::add);
    put(o, "replay_mean_ms", a.replayMeanMs());
    put(o, "replay_p50_ms", a.replayP50Ms());
    put(o, "recall_mean_ms", a.recallMeanMs());
    say.printf(
        Locale.ROOT,
        "%s: %d recalls, %d logged, %d replays identical (%.1f %%); replay mean %.2f ms (p50 %.2f), "
            + "recall mean %.2f ms%s%n",
        a.suite(),
        a.recalls(),
        a.logged(),
        a.identical(),
        100 * a.share(),
        a.replayMeanMs(),
        a.replayP50Ms(),
        a.recallMeanMs(),
        a.differing().isEmpty() ? "" : "; differing: " + a.differing());
  }

  private static void put(ObjectNode o, String k, double v) {
    if (Double.isNaN(v)) o.putNull(k);
    else o.put(k, Math.round(v * 1000) / 1000.0);
  }
}

package dev.mnemo.cli;

import dev.mnemo.Mnemo;
import dev.mnemo.RecallRequest;
import dev.mnemo.Replay;
import dev.mnemo.json.JsonCodec;
import dev.mnemo.json.RecallLogJson;
import dev.mnemo.json.RequestJson;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** Runs a logged recall again and prints how the selection differs. */
@Command(
    name = "replay",
    mixinStandardHelpOptions = true,
    description = {
      "Re-run a logged recall with its logged settings against the store as known then, and print the difference.",
      "Exit 0 whenever the replay ran, identical or not; 1 when there is no such recall."
    })
final class ReplayCommand implements Callable<Integer> {
  @Mixin EngineOptions engine;

  @Parameters(
      index = "0",
      paramLabel = "ID",
      description = "The logged recall's id (see ./mnemo log).")
  String id;

  @Option(
      names = "--weight",
      paramLabel = "NAME=VALUE",
      description =
          "Replay with this weight changed (e.g. dense=0.5), to see what it would select.")
  Map<String, Double> weights;

  @Option(
      names = "--threshold",
      description = "Replay with this threshold instead of the logged one.")
  Double threshold;

  @Option(
      names = "--json",
      description =
          "One JSON object: identical, selected_then, selected_now, added, removed, changes, engine_changes.")
  boolean json;

  @Override
  public Integer call() throws Exception {
    Args.id("ID", id);
    try (Mnemo m = engine.open()) {
      Optional<Replay> found = engine.retrievalLog(m).replay(id, this::change);
      if (found.isEmpty()) {
        System.err.println(
            "no logged recall '"
                + Args.shown(id)
                + "' in "
                + engine.data
                + " (./mnemo log lists them)");
        return 1;
      }
      Replay r = found.get();
      if (json) {
        System.out.println(JsonCodec.WRITER.writeValueAsString(RecallLogJson.replay(r, false)));
        return 0;
      }
      System.out.println(
          (r.identical() ? "identical" : "DIFFERENT")
              + ": selected then "
              + r.selectedThen()
              + ", now "
              + r.selectedNow());
      if (!r.added().isEmpty()) System.out.println("  added:   " + r.added());
      if (!r.removed().isEmpty()) System.out.println("  removed: " + r.removed());
      for (Replay.Change c : r.changes()) {
        System.out.printf(
            Locale.ROOT,
            "  %s: %s -> %s, score %.4f -> %.4f%s%n",
            c.id(),
            c.outcomeThen(),
            c.outcomeNow(),
            c.scoreThen(),
            c.scoreNow(),
            c.reasonNow() == null || c.outcomeNow().equals(c.outcomeThen())
                ? ""
                : " (" + c.reasonNow() + ")");
      }
      r.engineChanges()
          .forEach(
              (k, v) -> System.out.println("  engine " + k + ": " + v.get(0) + " -> " + v.get(1)));
      System.out.printf(Locale.ROOT, "replayed in %.1f ms%n", r.nanos() / 1e6);
    }
    return 0;
  }

  private RecallRequest.Builder change(RecallRequest.Builder b) {
    if (threshold != null) b.threshold(threshold);
    if (weights != null && !weights.isEmpty()) {
      var node = JsonCodec.object();
      weights.forEach(node::put);
      // the logged weights, with these changed
      var logged =
          ((com.fasterxml.jackson.databind.node.ObjectNode)
                  RequestJson.write(b.build()).get("weights"))
              .deepCopy();
      logged.setAll(node);
      b.weights(RequestJson.weights(logged, "weight."));
    }
    return b;
  }
}

package dev.mnemo.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mnemo.Mnemo;
import dev.mnemo.json.JsonCodec;
import dev.mnemo.json.RecordJson;
import dev.mnemo.json.TurnJson;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * Writes everything of an owner (or of every owner) as JSONL: every record version ({@code {"kind":
 * "record", ...}}, without vectors, which {@code import} computes again), then every turn of the
 * turn log with its state ({@code {"kind": "turn", ...}}). {@code ./mnemo import} restores such a
 * file as it was.
 */
@Command(
    name = "export",
    mixinStandardHelpOptions = true,
    description =
        "Write an owner's records (all versions) and turns as JSONL; 'mnemo import' restores them.")
final class ExportCommand implements Callable<Integer> {
  @Mixin EngineOptions engine;

  @Option(names = "--owner", description = "Only this owner (default: every owner).")
  String owner;

  @Option(
      names = "--out",
      paramLabel = "FILE.jsonl",
      description = "Write here (default: standard output).")
  Path out;

  @Override
  public Integer call() throws IOException {
    engine.embedder = "none";
    long[] n = new long[2];
    try (Mnemo m = engine.open();
        Writer w =
            out == null
                ? new BufferedWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8))
                : Files.newBufferedWriter(out, StandardCharsets.UTF_8)) {
      m.export(
          owner,
          r -> {
            ObjectNode o = JsonCodec.object().put("kind", "record");
            o.setAll(RecordJson.write(r, false));
            line(w, o);
            n[0]++;
          });
      EngineOptions.maintenance(m)
          .exportTurns(
              owner,
              t -> {
                ObjectNode o = JsonCodec.object().put("kind", "turn");
                o.setAll(TurnJson.writeStored(t));
                line(w, o);
                n[1]++;
              });
    }
    // The owner rules, except for an owner the store holds (written before them): it stays
    // exportable, as it stays erasable.
    String problem = owner == null ? null : dev.mnemo.InputRules.ownerProblem("--owner", owner);
    if (problem != null && n[0] == 0 && n[1] == 0) {
      System.err.println("error: " + Args.shown(problem));
      return 2;
    }
    System.err.println("exported " + n[0] + " records and " + n[1] + " turns");
    return 0;
  }

  private static void line(Writer w, ObjectNode o) {
    try {
      w.write(o.toString());
      w.write('\n');
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}

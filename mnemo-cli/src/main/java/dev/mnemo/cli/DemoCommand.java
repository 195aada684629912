package dev.mnemo.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mnemo.MemoryRecord;
import dev.mnemo.Mnemo;
import dev.mnemo.NewMemory;
import dev.mnemo.RecallRequest;
import dev.mnemo.RecallResult;
import dev.mnemo.TemporalMode;
import dev.mnemo.json.JsonCodec;
import dev.mnemo.json.MemoryJson;
import dev.mnemo.json.RecordJson;
import dev.mnemo.json.ResultJson;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * The main job on the embedded default, without interaction: writes a small bundled history (two
 * owners who share a name, a correction, an episode, small talk), then recalls with the trace.
 */
@Command(
    name = "demo",
    mixinStandardHelpOptions = true,
    description =
        "Write a small bundled history with a correction and two owners, then recall with --explain.")
final class DemoCommand implements Callable<Integer> {
  @Mixin EngineOptions engine;

  @Option(
      names = "--keep",
      paramLabel = "DIR",
      description = "Keep the demo store in DIR (default: a temporary directory, deleted).")
  Path keep;

  @Option(
      names = "--json",
      description =
          "Print the tour as one JSON object: written records, the fact's history, "
              + "and each recall with its step, request and result (trace included).")
  boolean json;

  /** The JSON form being collected (with --json), else null. */
  private ObjectNode report;

  private static final Instant ASKED = Instant.parse("2026-07-01T09:00:00Z");

  @Override
  public Integer call() throws Exception {
    PrintStream out =
        json
            ? new PrintStream(OutputStream.nullOutputStream(), false, StandardCharsets.UTF_8)
            : System.out;
    report = json ? JsonCodec.object() : null;
    Path dir = keep != null ? keep : Files.createTempDirectory("mnemo-demo");
    try (Mnemo m = engine.open(dir)) {
      List<NewMemory> history = history();
      banner(
          out,
          "1. Writing "
              + history.size()
              + " memories of two owners named Maya (u-maya, u-maya-lee), durably");
      for (NewMemory n : history) {
        MemoryRecord r = m.remember(n);
        if (report != null) report.withArray("written").add(RecordJson.write(r, false));
        out.printf(
            Locale.ROOT,
            "  %-11s %s  %-10s %s%n",
            r.owner(),
            r.recordedAt().toString().substring(0, 10),
            r.factKey() == null ? "" : r.factKey(),
            r.text());
      }
      banner(
          out,
          "2. history(u-maya, editor): the correction expired the Vim record and kept its March-May part");
      for (MemoryRecord r : m.history("u-maya", "editor")) {
        if (report != null) report.withArray("history").add(RecordJson.write(r, false));
        out.printf(
            Locale.ROOT,
            "  v%d valid [%s, %s) recorded %s expired %s  %s%n",
            r.version(),
            day(r.validFrom()),
            r.validTo() == null ? "open" : day(r.validTo()),
            day(r.recordedAt()),
            r.expiredAt() == null ? "-" : day(r.expiredAt()),
            r.text());
      }
      ask(
          m,
          out,
          "3. What is true now: which editor should the setup guide assume?",
          "u-maya",
          "Which editor should the setup guide assume for Maya?",
          TemporalMode.current());
      ask(
          m,
          out,
          "4. What was true in April (as we know it today)?",
          "u-maya",
          "Which editor did Maya use in April?",
          TemporalMode.validAt(Instant.parse("2026-04-15T00:00:00Z")));
      ask(
          m,
          out,
          "5. What did we believe on May 20?",
          "u-maya",
          "What did we believe Maya's editor was?",
          TemporalMode.knownAt(Instant.parse("2026-05-20T00:00:00Z")));
      ask(
          m,
          out,
          "6. Same name, other owner: u-maya-lee's records are never candidates for u-maya",
          "u-maya",
          "What should I avoid cooking for Maya? Any allergy?",
          TemporalMode.current());
      ask(
          m,
          out,
          "7. Time words: 'last week' becomes a date range; only records inside it get recency and the time boost",
          "u-maya",
          "What did Maya do last week?",
          TemporalMode.current());
      ask(
          m,
          out,
          "8. Nothing relevant: the correct answer is nothing",
          "u-maya",
          "Convert 30 degrees Celsius to Fahrenheit",
          TemporalMode.current());
      ask(
          m,
          out,
          "9. About Maya, but not in her memory: every record names her, none answers (the fetch gate)",
          "u-maya",
          "What is Maya's favourite colour?",
          TemporalMode.current());
      ask(
          m,
          out,
          "10. Small talk needs no memory: not searched at all",
          "u-maya",
          "Thanks Maya, that was helpful!",
          TemporalMode.current());
    } finally {
      engine.closeEmbedder();
      if (keep == null) deleteTree(dir);
    }
    if (report != null) System.out.println(JsonCodec.PRETTY.writeValueAsString(report));
    return 0;
  }

  private void ask(
      Mnemo m, PrintStream out, String title, String owner, String query, TemporalMode mode) {
    banner(out, title);
    out.println(
        "  recall(owner="
            + owner
            + ", \""
            + query
            + "\", mode="
            + mode.code()
            + (mode instanceof TemporalMode.Current ? "" : " " + mode.validTime(ASKED))
            + ", asked_at="
            + ASKED
            + ")");
    out.println();
    RecallResult result =
        m.recall(
            RecallRequest.builder(owner, query).mode(mode).askedAt(ASKED).explain(true).build());
    if (report != null) {
      ObjectNode o = report.withArray("recalls").addObject();
      o.put("step", title)
          .put("owner", owner)
          .put("query", query)
          .put("mode", mode.code())
          .put("asked_at", ASKED.toString());
      if (!(mode instanceof TemporalMode.Current)) o.put("at", mode.validTime(ASKED).toString());
      o.set("result", ResultJson.write(result));
    }
    ExplainPrinter.print(result, out);
  }

  private static void banner(PrintStream out, String title) {
    out.println();
    out.println("== " + title);
  }

  private static String day(Instant t) {
    return t.toString().substring(0, 10);
  }

  static List<NewMemory> history() throws IOException {
    List<NewMemory> out = new ArrayList<>();
    try (InputStream in = DemoCommand.class.getResourceAsStream("demo-history.jsonl");
        BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
      int n = 0;
      for (String line; (line = r.readLine()) != null; ) {
        n++;
        if (line.isBlank()) continue;
        JsonNode node = JsonCodec.READER.readTree(line);
        out.add(MemoryJson.read(node, "demo-history.jsonl:" + n + ": "));
      }
    }
    return out;
  }

  private static void deleteTree(Path dir) throws IOException {
    try (Stream<Path> files = Files.walk(dir)) {
      files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    }
  }
}

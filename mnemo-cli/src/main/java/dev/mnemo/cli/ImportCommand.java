package dev.mnemo.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mnemo.InvalidRequestException;
import dev.mnemo.InvalidRequestException.Violation;
import dev.mnemo.Mnemo;
import dev.mnemo.NewMemory;
import dev.mnemo.json.JsonCodec;
import dev.mnemo.json.MemoryJson;
import dev.mnemo.json.RecordJson;
import dev.mnemo.json.TurnJson;
import java.io.BufferedReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * Imports a JSONL file of records (the write fields of {@code remember}, snake_case, one per line),
 * or restores an {@code export}: lines with {@code "kind": "record"} are stored records restored as
 * they were (ids, versions, expiry), lines with {@code "kind": "turn"} are turns of the turn log
 * with their state (pending ones are extracted). Every line is validated first: with any invalid
 * line nothing is written and every problem is listed by line, unless {@code --skip-invalid}, which
 * writes the valid lines and lists the others. Valid lines are written in batches, each durable
 * before the next, with {@link Progress} on stderr. {@code --json} prints the outcome as one object
 * on stdout: {@code imported} (records written), {@code invalid} (each problem's {@code field} and
 * {@code message}), {@code written} (whether anything was), {@code refused_batch} (null, or the
 * batch the store refused).
 */
@Command(
    name = "import",
    mixinStandardHelpOptions = true,
    description = "Import records from a JSONL file.")
final class ImportCommand implements Callable<Integer> {
  @Mixin EngineOptions engine;

  @Parameters(
      index = "0",
      paramLabel = "FILE.jsonl",
      description =
          "One record per line (docs/scenarios.md, \"Import files\"), or a file 'mnemo export' wrote.")
  Path file;

  @Option(
      names = "--batch",
      description = "Records per durable batch (default ${DEFAULT-VALUE}).",
      defaultValue = "256")
  int batch;

  @Option(
      names = "--skip-invalid",
      description =
          "Write the valid lines and report the invalid ones instead of refusing the file.")
  boolean skipInvalid;

  @Option(names = "--json", description = "Print the outcome as JSON on stdout.")
  boolean json;

  @Mixin Progress.Options progress;

  @Override
  public Integer call() throws Exception {
    if (batch < 1)
      throw new InvalidRequestException("batch", batch, "batch must be >= 1, was " + batch);
    try (Mnemo m = engine.open()) {
      return importInto(m);
    } finally {
      engine.closeEmbedder();
    }
  }

  private int importInto(Mnemo m) throws Exception {
    List<NewMemory> valid = new ArrayList<>();
    List<dev.mnemo.MemoryRecord> records = new ArrayList<>();
    List<dev.mnemo.StoredTurn> turns = new ArrayList<>();
    List<Violation> problems = new ArrayList<>();
    int lineNo = 0;
    try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      for (String line; (line = in.readLine()) != null; ) {
        lineNo++;
        if (line.isBlank()) continue;
        String where = file.getFileName() + ":" + lineNo + ": ";
        try {
          JsonNode n = JsonCodec.READER.readTree(line);
          String kind = n.path("kind").asText(null);
          if (kind != null) {
            com.fasterxml.jackson.databind.node.ObjectNode body =
                ((com.fasterxml.jackson.databind.node.ObjectNode) n).deepCopy();
            body.remove("kind");
            switch (kind) {
              case "record" -> records.add(RecordJson.readInput(body, where));
              case "turn" -> turns.add(TurnJson.readStored(body, where));
              default ->
                  problems.add(
                      new Violation(
                          where + "kind",
                          kind,
                          where + "kind must be record or turn, was '" + kind + "'"));
            }
            continue;
          }
          NewMemory memory = MemoryJson.read(n, where);
          List<Violation> v = m.validate(memory, where);
          if (v.isEmpty()) valid.add(memory);
          else problems.addAll(v);
        } catch (JsonProcessingException e) {
          problems.add(
              new Violation(
                  where.trim(), line, where + "not valid JSON: " + e.getOriginalMessage()));
        } catch (InvalidRequestException e) {
          problems.addAll(e.violations());
        }
      }
    }
    if (!problems.isEmpty() && !skipInvalid) {
      problems.forEach(p -> System.err.println("error: " + p.message()));
      System.err.println(
          "nothing imported: " + problems.size() + " problem(s); fix them or use --skip-invalid");
      if (json) print(0, problems, null, null);
      return 2;
    }
    int restored = 0;
    for (int i = 0; i < records.size(); i += batch) {
      restored +=
          EngineOptions.maintenance(m)
              .restore(records.subList(i, Math.min(records.size(), i + batch)));
    }
    int turnsStored = turns.isEmpty() ? 0 : EngineOptions.maintenance(m).importTurns(turns);
    if (!json && (!records.isEmpty() || !turns.isEmpty())) {
      System.out.println(
          "restored "
              + restored
              + " records and "
              + turnsStored
              + " turns ("
              + (turns.size() - turnsStored)
              + " already stored)");
    }
    int written = 0;
    int refusedAt = -1;
    InvalidRequestException refusal = null;
    try (Progress bar = progress.start("import", valid.size())) {
      for (int i = 0; i < valid.size(); i += batch) {
        List<NewMemory> chunk = valid.subList(i, Math.min(valid.size(), i + batch));
        try {
          written += m.rememberAll(chunk).size();
        } catch (InvalidRequestException e) {
          // checks that need the store (e.g. recorded_at order of a fact key) surface here
          refusal = e;
          refusedAt = i + 1;
          break;
        }
        bar.set(written);
      }
    }
    if (refusal != null) { // reported once the progress bar is closed
      System.err.println(
          "error: batch starting at valid record "
              + refusedAt
              + " refused, nothing of it written: "
              + refusal.getMessage());
      System.err.println("imported " + written + " records before the refused batch");
      if (json) print(written, problems, refusedAt, refusal.getMessage());
      return 2;
    }
    problems.forEach(p -> System.err.println("skipped: " + p.message()));
    if (json) print(written, problems, null, null);
    else if (!(valid.isEmpty() && problems.isEmpty() && (!records.isEmpty() || !turns.isEmpty()))) {
      System.out.println(
          "imported "
              + written
              + " records"
              + (problems.isEmpty() ? "" : ", skipped " + problems.size() + " invalid"));
    }
    return problems.isEmpty() ? 0 : 2;
  }

  private static void print(
      int imported, List<Violation> invalid, Integer refusedAt, String refusal) throws Exception {
    ObjectNode o = JsonCodec.object();
    o.put("imported", imported);
    o.put("written", imported > 0);
    ArrayNode arr = o.putArray("invalid");
    invalid.forEach(v -> arr.addObject().put("field", v.field()).put("message", v.message()));
    if (refusedAt == null) o.putNull("refused_batch");
    else o.putObject("refused_batch").put("first_valid_record", refusedAt).put("message", refusal);
    System.out.println(JsonCodec.PRETTY.writeValueAsString(o));
  }
}

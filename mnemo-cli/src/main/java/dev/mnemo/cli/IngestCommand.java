package dev.mnemo.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.mnemo.IngestProgress;
import dev.mnemo.InvalidRequestException;
import dev.mnemo.InvalidRequestException.Violation;
import dev.mnemo.Mnemo;
import dev.mnemo.Turn;
import dev.mnemo.json.JsonCodec;
import dev.mnemo.json.TurnJson;
import java.io.BufferedReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * Ingests a JSONL file of conversation turns (the JSON wire form of {@code POST /v1/ingest}'s
 * turns, one per line) through the write path, then waits for extraction, with progress on stderr.
 *
 * <p>All or nothing by default, like {@code import}: every line is parsed first, and with any bad
 * line (invalid JSON, a missing or invalid field) nothing is ingested and every problem is listed
 * with its line number. {@code --skip-invalid} ingests the good lines and lists the bad ones (exit
 * 2). Ingest is idempotent by turn id, so running a file again stores nothing twice.
 */
@Command(
    name = "ingest",
    mixinStandardHelpOptions = true,
    description =
        "Ingest conversation turns from a JSONL file (one turn per line) and wait for extraction.")
final class IngestCommand implements Callable<Integer> {
  @Mixin EngineOptions engine;

  @Parameters(
      index = "0",
      paramLabel = "FILE.jsonl",
      description =
          "One conversation turn per line (the JSON of POST /v1/ingest; docs/write-path.md).")
  Path file;

  @Option(
      names = "--batch",
      description = "Turns per durable ingest call (default ${DEFAULT-VALUE}).",
      defaultValue = "256")
  int batch;

  @Option(
      names = "--skip-invalid",
      description =
          "Ingest the valid lines and report the invalid ones instead of refusing the file.")
  boolean skipInvalid;

  @Option(
      names = "--no-wait",
      description =
          "Return once the turns are durable; extraction resumes when the store is next opened.")
  boolean noWait;

  @picocli.CommandLine.Option(
      names = "--json",
      description = "Print the outcome as one JSON object.")
  boolean json;

  @Override
  public Integer call() throws Exception {
    if (batch < 1)
      throw new InvalidRequestException("batch", batch, "batch must be >= 1, was " + batch);
    List<Turn> turns = new ArrayList<>();
    List<Violation> problems = new ArrayList<>();
    int lineNo = 0;
    try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      for (String line; (line = in.readLine()) != null; ) {
        lineNo++;
        if (line.isBlank()) continue;
        String where = file.getFileName() + ":" + lineNo + ": ";
        try {
          JsonNode n = JsonCodec.READER.readTree(line);
          turns.add(TurnJson.read(n, where)); // names each missing or blank required field
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
          "nothing ingested: " + problems.size() + " problem(s); fix them or use --skip-invalid");
      return 2;
    }
    int accepted = 0;
    int duplicates = 0;
    tty = Progress.stderrIsTerminal();
    try (Mnemo m = engine.open()) {
      for (int i = 0; i < turns.size(); i += batch) {
        var r = m.ingest(turns.subList(i, Math.min(turns.size(), i + batch)));
        accepted += r.accepted().size();
        duplicates += r.duplicates().size();
        status(
            String.format(
                Locale.ROOT,
                "ingested %d / %d turns",
                i + r.accepted().size() + r.duplicates().size(),
                turns.size()));
      }
      if (tty) System.err.println();
      if (!noWait) {
        boolean done;
        do {
          done = m.awaitIngested(Duration.ofSeconds(1));
          IngestProgress p =
              m.ingestProgress(); // the last line is read after the end: it agrees with the summary
          status(
              String.format(
                  Locale.ROOT,
                  "extracting: %d pending, %d records written",
                  p.pending(),
                  p.recordsWritten()));
        } while (!done);
        if (tty) System.err.println();
      }
      IngestProgress p = m.ingestProgress();
      problems.forEach(x -> System.err.println("skipped: " + x.message()));
      if (json) {
        com.fasterxml.jackson.databind.node.ObjectNode o = JsonCodec.object();
        o.put("ingested", accepted)
            .put("already_stored", duplicates)
            .put("skipped_invalid", problems.size())
            .put("extracted", p.extracted())
            .put("kept", p.kept())
            .put("errors", p.errors())
            .put("pending", p.pending())
            .put("records_written", p.recordsWritten())
            .put("duplicates_merged", p.duplicatesMerged())
            .put("conflicts", p.conflicts());
        System.out.println(JsonCodec.WRITER.writeValueAsString(o));
      } else
        System.out.printf(
            Locale.ROOT,
            "ingested %d turns (%d already stored)%s; turn log: %d extracted, %d kept, %d errors, %d pending; "
                + "%d records written, %d duplicates merged, %d conflicts%n",
            accepted,
            duplicates,
            problems.isEmpty() ? "" : ", skipped " + problems.size() + " invalid",
            p.extracted(),
            p.kept(),
            p.errors(),
            p.pending(),
            p.recordsWritten(),
            p.duplicatesMerged(),
            p.conflicts());
      if (p.lastError() != null) System.err.println("last extraction error: " + p.lastError());
    } finally {
      engine.closeEmbedder();
    }
    return problems.isEmpty() ? 0 : 2;
  }

  private boolean tty;

  /**
   * A status line: redrawn in place on a terminal, one plain line each otherwise (a log, grep,
   * less).
   */
  private void status(String line) {
    if (tty) System.err.print("\r" + line + "\u001b[K");
    else System.err.println(line);
    System.err.flush();
  }
}

package dev.mnemo.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code import} and {@code export} of more records than the store's export pages hold, through the
 * commands.
 *
 * <p>An integration test (Failsafe, run by {@code bin/test} and CI, not by {@code bin/test
 * --fast}): it writes 2,600 records through the write path and reads them back (21 s of the fast
 * tier under load, in {@code CliTest} until 2026-12-07); the fast tier keeps the round trip of a
 * few records ({@code CliTest.export_thenImportIntoAnEmptyStore_restoresRecordsAndTurns}).
 */
class CliExportIT {
  @TempDir Path dir;
  @RegisterExtension final StdStreams std = new StdStreams();
  private final ByteArrayOutputStream err = std.err;

  private int run(String... args) {
    return std.run(args);
  }

  private String data() {
    return dir.resolve("data").toString();
  }

  @Test
  void export_ofThousandsOfRecords_writesEachOnce_oldestFirst() throws Exception {
    int n = 2_600; // more than two of the store's export pages
    StringBuilder lines = new StringBuilder();
    java.time.Instant t0 = java.time.Instant.parse("2026-01-01T00:00:00Z");
    for (int i = 0; i < n; i++) {
      lines
          .append("{\"owner\":\"u\",\"text\":\"Note ")
          .append(i)
          .append(" of the garden log\",\"recorded_at\":\"")
          .append(t0.plusSeconds(i))
          .append("\"}\n");
    }
    Path file = dir.resolve("many.jsonl");
    Files.writeString(file, lines);
    assertThat(run("import", "--data", data(), "--embedder", "none", file.toString())).isZero();
    Path export = dir.resolve("many-out.jsonl");
    assertThat(run("export", "--data", data(), "--owner", "u", "--out", export.toString()))
        .isZero();
    assertThat(err.toString()).contains("exported " + n + " records");

    java.util.List<com.fasterxml.jackson.databind.JsonNode> records = new java.util.ArrayList<>();
    com.fasterxml.jackson.databind.ObjectMapper json =
        new com.fasterxml.jackson.databind.ObjectMapper();
    for (String line : Files.readAllLines(export)) {
      com.fasterxml.jackson.databind.JsonNode node = json.readTree(line);
      if (node.get("kind").asText().equals("record")) records.add(node);
    }
    assertThat(records).hasSize(n);
    assertThat(records.stream().map(r -> r.get("id").asText()).distinct().count()).isEqualTo(n);
    assertThat(
            records.stream()
                .map(r -> java.time.Instant.parse(r.get("recorded_at").asText()))
                .toList())
        .isSortedAccordingTo(java.util.Comparator.naturalOrder());
  }
}

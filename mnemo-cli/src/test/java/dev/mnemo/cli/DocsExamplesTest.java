package dev.mnemo.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** The examples of docs/scenarios.md, run through the commands they document. */
class DocsExamplesTest {
  private static final Path SCENARIOS_MD = Path.of("../docs/scenarios.md");

  @TempDir Path dir;
  @RegisterExtension final StdStreams std = new StdStreams();

  @Test
  void scenarioFileExample_runsThroughEvalScenarios_andTheFullPolicyFindsWhatItExpects()
      throws Exception {
    Path file = dir.resolve("scenarios.jsonl");
    Files.writeString(file, jsonlBlocks().get(0));
    Path report = dir.resolve("report.jsonl");
    assertThat(
            Main.run(
                "eval",
                "scenarios",
                "--embedder",
                "none",
                file.toString(),
                "--out",
                report.toString()))
        .as(std.err.toString())
        .isZero();
    List<String> full =
        Files.readAllLines(report).stream().filter(l -> l.contains("\"policy\":\"full\"")).toList();
    assertThat(full).hasSize(2);
    assertThat(full.get(0)).contains("\"query\":\"q1\"").contains("\"selected\":[\"e2\"]");
    assertThat(full.get(1)).contains("\"query\":\"q2\"").contains("\"selected\":[\"e1\"]");
  }

  @Test
  void importFileExample_importsEveryLine() throws Exception {
    Path file = dir.resolve("memories.jsonl");
    Files.writeString(file, jsonlBlocks().get(1));
    assertThat(
            Main.run(
                "import",
                "--data",
                dir.resolve("data").toString(),
                "--embedder",
                "none",
                file.toString()))
        .as(std.err.toString())
        .isZero();
    assertThat(std.out.toString()).contains("imported 2 records");
  }

  /** The ```jsonl blocks of docs/scenarios.md, in order. */
  private static List<String> jsonlBlocks() throws IOException {
    List<String> blocks = new ArrayList<>();
    StringBuilder b = null;
    for (String line : Files.readAllLines(SCENARIOS_MD)) {
      if (b == null && line.startsWith("```jsonl")) b = new StringBuilder();
      else if (b != null && line.startsWith("```")) {
        blocks.add(b.toString());
        b = null;
      } else if (b != null) b.append(line).append('\n');
    }
    assertThat(blocks).hasSize(2);
    return blocks;
  }
}

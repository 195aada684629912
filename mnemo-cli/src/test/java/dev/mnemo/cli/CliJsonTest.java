package dev.mnemo.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.mnemo.json.JsonCodec;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code --json} on every command, for scripts: stdout holds one JSON document of the documented
 * shape and nothing else (progress and messages go to stderr); plus shell completion and the plain
 * progress lines.
 */
class CliJsonTest {
  @TempDir Path dir;
  @RegisterExtension final StdStreams std = new StdStreams();
  private final ByteArrayOutputStream out = std.out;
  private final ByteArrayOutputStream err = std.err;

  /**
   * Runs the command line with stdout captured (picocli's writer too) and parses stdout as JSON.
   */
  private JsonNode json(int expectedExit, String... args) throws Exception {
    out.reset();
    err.reset();
    CommandLine cl = Main.commandLine();
    StringWriter sw = new StringWriter();
    cl.setOut(new PrintWriter(sw, true));
    int exit = cl.execute(args);
    String stdout = out.toString(StandardCharsets.UTF_8) + sw;
    assertThat(exit)
        .as(String.join(" ", args) + "\nstdout: " + stdout + "\nstderr: " + err)
        .isEqualTo(expectedExit);
    return JsonCodec.READER.readTree(stdout); // fails unless stdout is exactly one JSON document
  }

  private String[] engine(String... args) {
    List<String> a = new ArrayList<>(List.of(args));
    a.addAll(List.of("--data", dir.resolve("data").toString(), "--embedder", "none"));
    return a.toArray(String[]::new);
  }

  @Test
  void rememberRecallHistoryForget_printTheirDocumentedShapes() throws Exception {
    JsonNode r1 =
        json(
            0,
            engine(
                "remember",
                "--json",
                "--owner",
                "u",
                "--fact-key",
                "city",
                "--recorded-at",
                "2026-01-01",
                "Lives in Porto."));
    assertThat(r1.get("id").asText()).isNotBlank();
    assertThat(r1.get("owner").asText()).isEqualTo("u");
    assertThat(r1.get("version").asInt()).isEqualTo(1);
    json(
        0,
        engine(
            "remember",
            "--json",
            "--owner",
            "u",
            "--fact-key",
            "city",
            "--recorded-at",
            "2026-03-01",
            "Lives in Lisbon."));

    JsonNode recall =
        json(
            0,
            engine(
                "recall",
                "--json",
                "--explain",
                "--owner",
                "u",
                "--asked-at",
                "2026-04-01",
                "where does the user live, Lisbon or Porto"));
    assertThat(recall.get("selected").get(0).get("text").asText()).isEqualTo("Lives in Lisbon.");
    assertThat(recall.get("selected").get(0).has("score")).isTrue();
    assertThat(recall.get("rendered").asText()).contains("Lisbon");
    assertThat(recall.get("tokens_used").asInt()).isPositive();
    assertThat(recall.get("trace").get("candidates").size()).isPositive();
    assertThat(json(0, engine("recall", "--json", "--owner", "u", "Lisbon")).has("trace"))
        .isFalse();

    JsonNode history = json(0, engine("history", "--json", "--owner", "u", "--fact-key", "city"));
    assertThat(history.isArray()).isTrue();
    assertThat(history.size()).isEqualTo(3); // Porto (expired), its clipped copy, Lisbon

    JsonNode one =
        json(0, engine("forget", "--json", "--owner", "u", "--id", r1.get("id").asText()));
    assertThat(one.get("owner").asText()).isEqualTo("u");
    assertThat(one.get("id").asText()).isEqualTo(r1.get("id").asText());
    assertThat(one.get("deleted").asInt()).isPositive();
    JsonNode all = json(0, engine("forget", "--json", "--owner", "u", "--yes"));
    assertThat(all.get("id").isNull()).isTrue();
    assertThat(all.get("deleted").asInt()).isPositive();
  }

  @Test
  void retain_expiresOldRecordsOfTheCategory_keepsTheImportantAndOtherCategories()
      throws Exception {
    json(
        0,
        engine(
            "remember",
            "--json",
            "--owner",
            "u",
            "--category",
            "episodic",
            "--recorded-at",
            "2020-01-01",
            "Went to a concert in Porto."));
    json(
        0,
        engine(
            "remember",
            "--json",
            "--owner",
            "u",
            "--category",
            "episodic",
            "--importance",
            "0.9",
            "--recorded-at",
            "2020-01-02",
            "Got married in Braga."));
    json(
        0,
        engine(
            "remember",
            "--json",
            "--owner",
            "u",
            "--category",
            "semantic",
            "--recorded-at",
            "2020-01-03",
            "Is allergic to peanuts."));
    JsonNode r =
        json(
            0,
            engine(
                "retain",
                "--json",
                "--owner",
                "u",
                "--category",
                "episodic",
                "--max-age",
                "P365D",
                "--keep-if",
                "0.8"));
    assertThat(r.get("examined").asLong())
        .isEqualTo(3); // every current record is judged; semantic keeps all
    assertThat(r.get("expired").asLong()).isEqualTo(1);
    JsonNode recall =
        json(
            0,
            engine(
                "recall",
                "--json",
                "--owner",
                "u",
                "--k",
                "10",
                "--threshold",
                "0",
                "--relative-threshold",
                "0",
                "concert married peanuts"));
    assertThat(recall.toString()).contains("Braga").contains("peanuts").doesNotContain("concert");
    // safe to run again: nothing more to do
    assertThat(
            json(
                    0,
                    engine(
                        "retain",
                        "--json",
                        "--owner",
                        "u",
                        "--category",
                        "episodic",
                        "--max-age",
                        "P365D",
                        "--keep-if",
                        "0.8"))
                .get("expired")
                .asLong())
        .isZero();
  }

  @Test
  void summarizeAndRecategorize_fromTheCommandLine() throws Exception {
    JsonNode a =
        json(
            0,
            engine(
                "import",
                "--json",
                write(
                    dir.resolve("episode.jsonl"),
                    "{\"owner\":\"u\",\"text\":\"Decided to move the launch to May.\",\"episode\":\"s1\",\"seq\":0,\"source\":\"t1\",\"importance\":0.8}",
                    "{\"owner\":\"u\",\"text\":\"Ana will write the release notes.\",\"episode\":\"s1\",\"seq\":1,\"source\":\"t2\"}")));
    assertThat(a.toString()).contains("2");
    JsonNode summary = json(0, engine("summarize", "--json", "--owner", "u", "--episode", "s1"));
    assertThat(summary.get("text").asText())
        .startsWith("Summary of s1:")
        .contains("launch")
        .contains("release notes");
    assertThat(summary.get("sources").toString()).contains("t1").contains("t2");
    assertThat(json(0, engine("summarize", "--json", "--owner", "u", "--episode", "none")).isNull())
        .isTrue();

    JsonNode moved =
        json(
            0,
            engine(
                "recategorize",
                "--json",
                "--owner",
                "u",
                "--id",
                summary.get("id").asText(),
                "--category",
                "procedural"));
    assertThat(moved.get("category").asText()).isEqualTo("procedural");
    assertThat(moved.get("version").asInt()).isEqualTo(2);
    JsonNode history =
        json(
            0,
            engine(
                "history", "--json", "--owner", "u", "--fact-key", moved.get("fact_key").asText()));
    assertThat(history.toString()).contains("semantic").contains("procedural");
  }

  private static String write(Path file, String... lines) throws Exception {
    java.nio.file.Files.writeString(file, String.join("\n", lines) + "\n");
    return file.toString();
  }

  @Test
  void import_json_reportsWrittenAndInvalid_andProgressGoesToStderr() throws Exception {
    Path good = dir.resolve("good.jsonl");
    Files.writeString(
        good,
        """
        {"owner":"u","text":"Maya writes all her code in Vim."}
        {"owner":"u","text":"Maya drinks oat milk."}
        """);
    JsonNode ok = json(0, engine("import", "--json", "--batch", "1", good.toString()));
    assertThat(ok.get("imported").asInt()).isEqualTo(2);
    assertThat(ok.get("written").asBoolean()).isTrue();
    assertThat(ok.get("invalid").size()).isZero();
    assertThat(ok.get("refused_batch").isNull()).isTrue();
    assertThat(err.toString())
        .contains("import: 1/2 (50%)")
        .contains("import: 2/2 (100%)"); // plain lines: not a terminal

    Path bad = dir.resolve("bad.jsonl");
    Files.writeString(
        bad,
        """
        {"owner":"u","text":"fine"}
        {"owner":"u","text":"Bad importance","importance":2}
        """);
    JsonNode refused = json(2, engine("import", "--json", bad.toString()));
    assertThat(refused.get("imported").asInt()).isZero();
    assertThat(refused.get("written").asBoolean()).isFalse();
    assertThat(refused.get("invalid").get(0).get("message").asText())
        .contains("bad.jsonl:2: importance must be between 0 and 1");
  }

  @Test
  void demo_json_holdsTheTour() throws Exception {
    JsonNode demo = json(0, "demo", "--json", "--embedder", "none");
    assertThat(demo.get("written").size()).isPositive();
    assertThat(demo.get("history").size()).isGreaterThanOrEqualTo(2);
    JsonNode recalls = demo.get("recalls");
    assertThat(recalls.size()).isEqualTo(8);
    assertThat(recalls.get(1).get("mode").asText()).isEqualTo("valid_at");
    assertThat(recalls.get(1).get("at").asText()).startsWith("2026-04-15");
    assertThat(recalls.get(0).get("result").get("trace").get("candidates").isArray()).isTrue();
  }

  @Test
  void eval_generateAndScenarios_json_withProgressOnStderr() throws Exception {
    Path gen = dir.resolve("gen");
    JsonNode g =
        json(
            0,
            "eval",
            "generate",
            "--json",
            "--out",
            gen.toString(),
            "--dev",
            "2",
            "--heldout",
            "1");
    assertThat(g.get("dev").asText()).endsWith("dev.jsonl");
    assertThat(g.get("seed").isNumber()).isTrue();
    assertThat(g.get("dev_histories").asInt()).isEqualTo(2);

    JsonNode metrics = json(0, engine("eval", "scenarios", "--json", g.get("dev").asText()));
    assertThat(metrics.isObject()).isTrue();
    assertThat(metrics.size()).isPositive();
    assertThat(err.toString()).containsPattern("scenarios: (\\d+)/\\1 \\(100%\\)");
  }

  @Test
  void everyCommandThatPrintsAResult_hasJson() {
    // serve and mcp speak HTTP and MCP for as long as they run; completion prints a shell script;
    // export writes JSON lines already, show one JSON record; eval and solr only group their
    // subcommands
    Set<String> exempt =
        Set.of("serve", "mcp", "completion", "help", "mnemo", "eval", "export", "show", "solr");
    List<String> without = new ArrayList<>();
    walk(Main.commandLine(), exempt, without);
    assertThat(without).isEmpty();
  }

  private static void walk(CommandLine cl, Set<String> exempt, List<String> without) {
    if (!exempt.contains(cl.getCommandName()) && cl.getCommandSpec().findOption("--json") == null) {
      without.add(cl.getCommandSpec().qualifiedName());
    }
    cl.getSubcommands().values().forEach(sub -> walk(sub, exempt, without));
  }

  @Test
  void completion_printsABashScriptOfTheWholeTree() {
    CommandLine cl = Main.commandLine();
    StringWriter sw = new StringWriter();
    cl.setOut(new PrintWriter(sw, true));
    assertThat(cl.execute("completion")).isZero();
    String script = sw.toString();
    assertThat(script)
        .startsWith("#!/usr/bin/env bash")
        .contains("complete -F _complete_mnemo")
        .contains("./mnemo")
        .contains("recall")
        .contains("--fact-key")
        .contains("load");
  }

  @Test
  void progress_plainLinesEachTenth_barOnATerminal() {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    PrintStream ps = new PrintStream(b, true, StandardCharsets.UTF_8);
    try (Progress p = new Progress(ps, "work", 20, false)) {
      for (int i = 0; i < 20; i++) p.advance(1);
    }
    assertThat(b.toString().lines().toList()).hasSize(10).first().isEqualTo("work: 2/20 (10%)");
    b.reset();
    try (Progress p = new Progress(ps, "work", 4, true)) {
      p.set(4);
    }
    assertThat(b.toString())
        .startsWith("\rwork [")
        .contains("] 100% 4/4")
        .endsWith(System.lineSeparator());
    assertThat(Progress.clock(3725)).isEqualTo("1:02:05");
  }
}

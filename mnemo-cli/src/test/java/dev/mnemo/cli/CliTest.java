package dev.mnemo.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

class CliTest {
  @TempDir Path dir;
  @RegisterExtension final StdStreams std = new StdStreams();
  private final ByteArrayOutputStream out = std.out;
  private final ByteArrayOutputStream err = std.err;

  private int run(String... args) {
    return std.run(args);
  }

  private String data() {
    return dir.resolve("data").toString();
  }

  @Test
  void rememberRecallHistoryForget_roundTrip() {
    assertThat(
            run(
                "remember",
                "--data",
                data(),
                "--embedder",
                "none",
                "--owner",
                "u",
                "--fact-key",
                "city",
                "--recorded-at",
                "2026-01-01",
                "Lives in Porto."))
        .isZero();
    assertThat(
            run(
                "remember",
                "--data",
                data(),
                "--embedder",
                "none",
                "--owner",
                "u",
                "--fact-key",
                "city",
                "--recorded-at",
                "2026-03-01",
                "Lives in Lisbon."))
        .isZero();

    assertThat(
            run(
                "recall",
                "--data",
                data(),
                "--embedder",
                "none",
                "--owner",
                "u",
                "--asked-at",
                "2026-04-01",
                "--explain",
                "where does the user live, Lisbon or Porto"))
        .isZero();
    assertThat(out.toString())
        .contains("Lives in Lisbon.")
        .contains("trace: owner=u")
        .doesNotContain("- [since 2026-01-01] Lives in Porto.");

    assertThat(run("history", "--data", data(), "--owner", "u", "--fact-key", "city")).isZero();
    assertThat(out.toString()).contains("Lives in Porto.").contains("clipped from");

    assertThat(run("forget", "--data", data(), "--owner", "u"))
        .isEqualTo(2); // not a terminal: --yes is needed
    assertThat(err.toString()).contains("forget every record of owner 'u'").contains("needs --yes");
    assertThat(
            run(
                "recall",
                "--data",
                data(),
                "--embedder",
                "none",
                "--owner",
                "u",
                "--asked-at",
                "2026-04-01",
                "where does the user live, Lisbon or Porto"))
        .isZero();
    assertThat(out.toString()).contains("Lives in Lisbon."); // nothing was deleted
    assertThat(run("forget", "--data", data(), "--owner", "u", "--yes")).isZero();
    assertThat(out.toString()).contains("deleted 3 records");
  }

  @Test
  void badInput_isAClearErrorWithExitCode2() {
    assertThat(
            run("recall", "--data", data(), "--embedder", "none", "--owner", "u", "--k", "0", "q"))
        .isEqualTo(2);
    assertThat(err.toString()).contains("k must be between 1 and 1000, was 0");
    assertThat(
            run(
                "remember",
                "--data",
                data(),
                "--embedder",
                "none",
                "--owner",
                "u",
                "--category",
                "gossip",
                "x"))
        .isEqualTo(2);
    assertThat(err.toString())
        .contains("category must be one of [episodic, semantic, procedural, task], was 'gossip'");
  }

  @Test
  void import_withAnInvalidLine_writesNothingAndNamesTheLine() throws Exception {
    Path file = dir.resolve("in.jsonl");
    Files.writeString(
        file,
        """
        {"id":"e1","owner":"u","recorded_at":"2026-03-01T10:00:00Z","text":"Maya writes all her code in Vim."}
        {"id":"e2","owner":"u","text":"Bad importance","importance":2}
        {"id":"e3","owner":"u","text":"Unknown field","colour":"red"}
        not json
        """);
    assertThat(run("import", "--data", data(), "--embedder", "none", file.toString())).isEqualTo(2);
    assertThat(err.toString())
        .contains("in.jsonl:2: importance must be between 0 and 1, was 2.0")
        .contains("unknown field in.jsonl:3: colour")
        .contains("in.jsonl:4: not valid JSON");
    assertThat(
            run(
                "recall",
                "--data",
                data(),
                "--embedder",
                "none",
                "--owner",
                "u",
                "--threshold",
                "0",
                "Vim"))
        .isZero();
    assertThat(out.toString()).contains("nothing selected");

    assertThat(
            run(
                "import",
                "--data",
                data(),
                "--embedder",
                "none",
                "--skip-invalid",
                file.toString()))
        .isEqualTo(2);
    assertThat(out.toString()).contains("imported 1 records, skipped 3 invalid");
  }

  @Test
  void ingest_withABadLine_ingestsNothingAndNamesTheLine_thenSkipInvalidKeepsTheGoodOnes()
      throws Exception {
    Path file = dir.resolve("turns.jsonl");
    Files.writeString(
        file,
        """
        {"id":"t1","owner":"u","role":"user","speaker":"Maya","text":"I moved to Lisbon for a new job at a bakery","at":"2026-03-01T10:00:00Z"}
        {"id":"t2","owner":"u","role":"narrator","text":"x"}
        {"id":"t3","owner":"u","role":"tool_result","text":"bakery opening hours 7-19","at":"2026-03-01T10:00:01Z"}
        not json
        {"id":"t5","role":"user","text":"no owner"}
        """);
    assertThat(run("ingest", "--data", data(), "--embedder", "none", file.toString())).isEqualTo(2);
    assertThat(err.toString())
        .contains("turns.jsonl:2: role must be one of")
        .contains("turns.jsonl:4: not valid JSON")
        .contains("turns.jsonl:5: owner is required")
        .contains("nothing ingested: 3 problem(s)");

    assertThat(
            run(
                "ingest",
                "--data",
                data(),
                "--embedder",
                "none",
                "--skip-invalid",
                file.toString()))
        .isEqualTo(2);
    assertThat(out.toString())
        .contains("ingested 2 turns (0 already stored), skipped 3 invalid")
        .contains("1 extracted, 1 kept, 0 errors, 0 pending; 1 records written");
    assertThat(
            run(
                "recall",
                "--data",
                data(),
                "--embedder",
                "none",
                "--owner",
                "u",
                "--threshold",
                "0",
                "bakery"))
        .isZero();
    assertThat(out.toString()).contains("Maya: I moved to Lisbon").doesNotContain("opening hours");
  }

  @Test
  void export_thenImportIntoAnEmptyStore_restoresRecordsAndTurns() throws Exception {
    Path file = dir.resolve("turns.jsonl");
    Files.writeString(
        file,
        """
        {"id":"t1","owner":"u","role":"user","speaker":"Maya","text":"My favourite editor is Vim for everything","at":"2026-01-01T10:00:00Z"}
        {"id":"t2","owner":"u","role":"user","speaker":"Maya","text":"My favourite editor is Emacs since this week","at":"2026-03-01T10:00:00Z"}
        {"id":"t3","owner":"u","role":"tool_call","text":"editor_stats()","at":"2026-03-01T10:00:01Z"}
        """);
    assertThat(run("ingest", "--data", data(), "--embedder", "none", file.toString())).isZero();
    Path export = dir.resolve("u.jsonl");
    assertThat(run("export", "--data", data(), "--owner", "u", "--out", export.toString()))
        .isZero();
    assertThat(err.toString()).contains("exported 3 records and 3 turns");

    String other = dir.resolve("other").toString();
    assertThat(run("import", "--data", other, "--embedder", "none", export.toString())).isZero();
    assertThat(out.toString()).contains("restored 3 records and 3 turns");
    assertThat(
            run("history", "--data", other, "--owner", "u", "--fact-key", "maya/favorite editor"))
        .isZero();
    assertThat(out.toString()).contains("Vim").contains("Emacs");
    assertThat(
            run(
                "export",
                "--data",
                other,
                "--owner",
                "u",
                "--out",
                dir.resolve("again.jsonl").toString()))
        .isZero();
    assertThat(Files.readAllLines(dir.resolve("again.jsonl")))
        .containsExactlyInAnyOrderElementsOf(Files.readAllLines(export));
  }
}

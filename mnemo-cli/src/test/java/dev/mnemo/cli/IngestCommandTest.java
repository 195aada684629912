package dev.mnemo.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

class IngestCommandTest {
  @TempDir Path dir;
  @RegisterExtension final StdStreams std = new StdStreams();

  @Test
  void progressOffATerminal_isPlainLines_andItsLastLineAgreesWithTheSummary() throws Exception {
    Path file =
        Files.writeString(
            dir.resolve("turns.jsonl"),
            """
        {"id":"t1","owner":"maya","episode":"e1","role":"user","text":"I switched from Vim to Emacs last week.","at":"2026-05-04T10:00:00Z"}
        {"id":"t2","owner":"maya","episode":"e1","role":"user","text":"My dog Biscuit loves the beach in Porto.","at":"2026-05-04T10:01:00Z"}
        """);
    assertThat(
            Main.run(
                "ingest",
                "--data",
                dir.resolve("data").toString(),
                "--embedder",
                "none",
                file.toString()))
        .as(std.err.toString())
        .isZero();
    String err = std.err.toString();
    assertThat(err).doesNotContain("\r");
    List<String> extracting = err.lines().filter(l -> l.startsWith("extracting: ")).toList();
    assertThat(extracting).isNotEmpty();
    Matcher last =
        Pattern.compile("(\\d+) records written").matcher(extracting.get(extracting.size() - 1));
    Matcher summary = Pattern.compile("(\\d+) records written").matcher(std.out.toString());
    assertThat(last.find()).isTrue();
    assertThat(summary.find()).as(std.out.toString()).isTrue();
    assertThat(last.group(1)).isEqualTo(summary.group(1)).isNotEqualTo("0");
    assertThat(extracting.get(extracting.size() - 1)).startsWith("extracting: 0 pending");
  }
}

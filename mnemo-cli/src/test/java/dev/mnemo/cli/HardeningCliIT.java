package dev.mnemo.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The CLI's door: dates the store cannot keep are refused naming the field; reindex re-embeds a
 * store.
 */
class HardeningCliIT {
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
  void anExtremeDate_isRefusedNamingTheField_andNothingIsWritten() {
    assertThat(
            run(
                "remember",
                "--data",
                data(),
                "--embedder",
                "none",
                "--owner",
                "u",
                "--valid-from",
                "-999999999-01-01T00:00:00Z",
                "x"))
        .isEqualTo(2);
    assertThat(err.toString(StandardCharsets.UTF_8)).contains("valid_from").contains("0001");
    assertThat(run("export", "--data", data(), "--owner", "u")).isZero();
    assertThat(out.toString(StandardCharsets.UTF_8)).doesNotContain("\"text\"");
  }

  @Test
  void reindex_embedsRecordsWithoutVectors_thenHasNothingLeftToDo() {
    assertThat(
            run(
                "remember",
                "--data",
                data(),
                "--embedder",
                "none",
                "--owner",
                "u",
                "Maya writes all her code in Vim."))
        .isZero();
    assertThat(run("reindex", "--data", data())).isZero();
    assertThat(out.toString(StandardCharsets.UTF_8))
        .contains("re-embedded 1 records")
        .contains("0 were current");
    assertThat(run("reindex", "--data", data())).isZero();
    assertThat(out.toString(StandardCharsets.UTF_8))
        .contains("re-embedded 0 records")
        .contains("1 were current");
    // --all re-embeds the current ones too (after a change of what is embedded)
    assertThat(run("reindex", "--data", data(), "--all")).isZero();
    assertThat(out.toString(StandardCharsets.UTF_8))
        .contains("re-embedded 1 records")
        .contains("0 were current");
    assertThat(
            run(
                "recall",
                "--data",
                data(),
                "--owner",
                "u",
                "--threshold",
                "0",
                // Dense retrieval after the reindex is what is checked, not the fetch gate's
                // judgement.
                "--min-relevance",
                "0",
                "Which editor does Maya use?"))
        .isZero();
    assertThat(out.toString(StandardCharsets.UTF_8)).contains("Vim");
  }
}

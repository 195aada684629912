package dev.mnemo.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
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
    assertThat(err.toString(StandardCharsets.UTF_8)).contains("--valid-from").contains("0001");
    assertThat(run("export", "--data", data(), "--owner", "u")).isZero();
    assertThat(out.toString(StandardCharsets.UTF_8)).doesNotContain("\"text\"");
  }

  /**
   * The engine names a request's fields as the REST API does (at, valid_from, budget_tokens); the
   * command line's refusal names the option the user typed instead, and leaves values alone.
   */
  @Test
  void aRefusal_namesTheOptionAsTyped() {
    java.util.function.Function<String[], String> refusal =
        args -> {
          err.reset();
          assertThat(run(args)).isEqualTo(2);
          return err.toString(StandardCharsets.UTF_8);
        };
    String[] common = {"--data", data(), "--embedder", "none", "--owner", "u"};
    java.util.function.BiFunction<String, String[], String[]> call =
        (cmd, rest) -> {
          List<String> a = new java.util.ArrayList<>(List.of(cmd));
          a.addAll(List.of(common));
          a.addAll(List.of(rest));
          return a.toArray(String[]::new);
        };
    assertThat(refusal.apply(call.apply("recall", new String[] {"--at", "nope", "q"})))
        .startsWith("error: --at must be an ISO-8601 date");
    assertThat(refusal.apply(call.apply("recall", new String[] {"--mode", "valid_at", "q"})))
        .startsWith("error: --at is required with mode valid_at");
    assertThat(refusal.apply(call.apply("recall", new String[] {"--budget", "-1", "q"})))
        .startsWith("error: --budget must be between");
    assertThat(refusal.apply(call.apply("recall", new String[] {"--asked-at", "x", "q"})))
        .startsWith("error: --asked-at must be");
    assertThat(
            refusal.apply(
                call.apply(
                    "remember",
                    new String[] {"--valid-from", "2026-02-01", "--valid-to", "2026-01-01", "x"})))
        .startsWith("error: --valid-to must be after --valid-from (2026-02-01T00:00:00Z)");
    assertThat(refusal.apply(call.apply("remember", new String[] {"--meta", "=v", "x"})))
        .startsWith("error: --meta keys must not be blank");
    assertThat(refusal.apply(call.apply("remember", new String[] {""})))
        .startsWith("error: TEXT must not be empty");
    assertThat(refusal.apply(call.apply("remember", new String[] {"--lower-authority", "z", "x"})))
        .startsWith("error: --lower-authority must be one of [keep_both, refuse], was 'z'");
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

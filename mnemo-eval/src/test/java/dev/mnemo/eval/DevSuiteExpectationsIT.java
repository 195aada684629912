package dev.mnemo.eval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.mnemo.Mnemo;
import dev.mnemo.json.JsonCodec;
import dev.mnemo.spi.Embedder;
import dev.mnemo.spi.Providers;
import dev.mnemo.store.lucene.LuceneMemoryStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The checked-in expectations of the benchmark dev suites ({@code docs/expectations/}), checked in
 * the build as {@code ./mnemo eval check} checks them, when the benchmark data is on the machine:
 * LoCoMo's dev split with the real embedder (about a minute) and LongMemEval's with BM25 alone (no
 * model, about a minute; its e5 run takes hours without the embedding cache, so that one is checked
 * by hand). The data is not part of the repository: a clone without it skips these tests, saying
 * where it looked. Where: the system property {@code mnemo.locomo.dir} or {@code $MNEMO_LOCOMO_DIR}
 * (default {@code ../../shared/data/locomo} from this module), {@code mnemo.longmemeval.file} or
 * {@code $MNEMO_LONGMEMEVAL_FILE} (default {@code
 * ../../shared/data/longmemeval/longmemeval_s_dev100.json.gz}).
 */
class DevSuiteExpectationsIT {

  private static final Path EXPECTATIONS = Path.of("../docs/expectations");

  private static Path data(String property, String env, String fallback) {
    String p = System.getProperty(property);
    if (p == null || p.isBlank()) p = System.getenv(env);
    return Path.of(p == null || p.isBlank() ? fallback : p);
  }

  @Test
  void locomoDev_isNoWorseThanRecorded() {
    Path dir = data("mnemo.locomo.dir", "MNEMO_LOCOMO_DIR", "../../shared/data/locomo");
    assumeTrue(
        Files.isDirectory(dir),
        "no LoCoMo data at " + dir.toAbsolutePath() + " (set -Dmnemo.locomo.dir)");
    try (Embedder e5 = Providers.embedder("e5-small-v2-q", Map.of())) {
      LocomoReport report =
          new LocomoRunner(TestEngines.lucene(e5), true, 20).run(LocomoLoader.loadDir(dir));
      ExpectationCheck.Result r =
          ExpectationCheck.check(
              expectations("locomo-dev.json"), report.toJson(), "locomo-dev.json");
      assertThat(r.passed())
          .as("LoCoMo dev against docs/expectations/locomo-dev.json:%n%s", r.table())
          .isTrue();
    }
  }

  @Test
  void longMemEvalDevBm25_isNoWorseThanRecorded() {
    Path file =
        data(
            "mnemo.longmemeval.file",
            "MNEMO_LONGMEMEVAL_FILE",
            "../../shared/data/longmemeval/longmemeval_s_dev100.json.gz");
    assumeTrue(
        Files.isRegularFile(file),
        "no LongMemEval data at " + file.toAbsolutePath() + " (set -Dmnemo.longmemeval.file)");
    List<LongMemEvalQuestion> questions =
        LongMemEvalLoader.interleaveByType(LongMemEvalLoader.load(file));
    // no embedder, as ./mnemo eval longmemeval --embedder none --rankings bm25
    LongMemEvalReport report =
        new LongMemEvalRunner(
                d ->
                    Mnemo.builder()
                        .store(LuceneMemoryStore.open(d))
                        .withoutEmbedder()
                        .recallLogOptions(dev.mnemo.RecallLogOptions.OFF)
                        .build(),
                true,
                50,
                List.of(LocomoRunner.Ranking.BM25),
                line -> {})
            .run(questions);
    ExpectationCheck.Result r =
        ExpectationCheck.check(
            expectations("longmemeval-dev-bm25.json"),
            report.toJson(),
            "longmemeval-dev-bm25.json");
    assertThat(r.passed())
        .as(
            "LongMemEval dev (BM25) against docs/expectations/longmemeval-dev-bm25.json:%n%s",
            r.table())
        .isTrue();
  }

  private static JsonNode expectations(String name) {
    Path p = EXPECTATIONS.resolve(name);
    try {
      return JsonCodec.read(p);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + p.toAbsolutePath(), e);
    }
  }
}

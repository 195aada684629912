package dev.mnemo.eval;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.mnemo.json.JsonCodec;
import dev.mnemo.spi.Embedder;
import dev.mnemo.spi.Providers;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The checked-in expectation of the dev scenarios (in the way of Anserini's regression files): the
 * full policy, with the real default embedder on the Lucene store, must not get worse on any
 * recorded metric.
 */
class ScenarioExpectationsIT {

  private static final Path EXPECTATION =
      Path.of("src/test/resources/expectations/scenarios-dev.json");

  /** Facts that change without a key, and event time (issue 32): written as users write. */
  static final Path NOKEY = Path.of("src/test/resources/scenarios/dev-nokey.jsonl");

  private static final Path NOKEY_EXPECTATION =
      Path.of("src/test/resources/expectations/scenarios-dev-nokey.json");

  private static Embedder embedder;
  private static ScenarioReport report;
  private static ScenarioReport nokey;

  @BeforeAll
  static void run() {
    embedder = Providers.embedder("e5-small-v2-q", Map.of());
    report = new ScenarioRunner(TestEngines.lucene(embedder)).run(List.of(ScenarioReaderTest.DEV));
    nokey = new ScenarioRunner(TestEngines.lucene(embedder)).run(List.of(NOKEY));
    System.out.println(
        "dev scenarios:\n" + report.table() + "\nno-key scenarios:\n" + nokey.table());
    for (QueryResult r : nokey.results())
      if (r.policy() == Policy.FULL)
        System.out.println(
            "no-key full "
                + r.scenario()
                + " "
                + r.query()
                + " selected "
                + r.selected()
                + " expect "
                + r.expect()
                + " stale "
                + r.stale());
  }

  @AfterAll
  static void close() {
    if (embedder != null) embedder.close();
  }

  @Test
  void full_isNoWorseThanRecorded() throws IOException {
    JsonNode expected = JsonCodec.read(EXPECTATION);
    assertThat(expected.path("policy").asText()).isEqualTo("full");
    PolicyMetrics recorded = PolicyMetrics.fromJson(expected.get("metrics"));
    PolicyMetrics now = report.metrics(Policy.FULL);
    assertThat(now.regressionsAgainst(recorded))
        .as(
            "full policy on %s against %s; table:%n%s",
            ScenarioReaderTest.DEV, EXPECTATION, report.table())
        .isEmpty();
  }

  @Test
  void full_meetsTheScenarioContract() {
    PolicyMetrics full = report.metrics(Policy.FULL);
    // 1.0 before the fetch gate; with it one of the 11 expected records is lost ("gift idea for
    // Sam"
    // keeps the birthday and drops the vinyl hobby), disclosed in
    // docs/evaluation.md#the-fetch-gate.
    assertThat(full.recall()).isGreaterThanOrEqualTo(10.0 / 11 - 1e-9);
    assertThat(full.staleUse()).isEqualTo(0.0);
    assertThat(full.leakage()).isZero();
    assertThat(full.abstention()).isEqualTo(1.0);
  }

  @Test
  void noKey_isNoWorseThanRecorded() throws IOException {
    JsonNode expected = JsonCodec.read(NOKEY_EXPECTATION);
    PolicyMetrics recorded = PolicyMetrics.fromJson(expected.get("metrics"));
    PolicyMetrics now = nokey.metrics(Policy.FULL);
    assertThat(now.regressionsAgainst(recorded))
        .as("full policy on %s against %s; table:%n%s", NOKEY, NOKEY_EXPECTATION, nokey.table())
        .isEmpty();
    assertThat(now.staleUse()).isEqualTo(0.0);
    assertThat(now.leakage()).isZero();
  }

  @Test
  void unfiltered_showsWhatEligibilityPrevents() {
    PolicyMetrics unfiltered = report.metrics(Policy.UNFILTERED);
    assertThat(unfiltered.leakage() > 0 || unfiltered.staleUse() > 0)
        .as("unfiltered leakage %d, stale use %s", unfiltered.leakage(), unfiltered.staleUse())
        .isTrue();
  }
}

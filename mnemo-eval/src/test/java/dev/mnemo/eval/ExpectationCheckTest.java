package dev.mnemo.eval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.mnemo.eval.ExpectationCheck.Result;
import dev.mnemo.eval.ExpectationCheck.Status;
import dev.mnemo.json.JsonCodec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ExpectationCheckTest {

  private static final String REPORT =
      """
      {"policies": {"full": {"recall@10": 0.90, "turn_recall@10": 0.80, "mean_latency_ms": 40, "leakage": 0,
                             "ndcg@10": null}}}""";

  private static JsonNode json(String s) throws Exception {
    return JsonCodec.READER.readTree(s);
  }

  @Test
  void aMetricWithinItsTolerance_passes_andAnImprovementSaysToRecordIt() throws Exception {
    Result r =
        ExpectationCheck.check(
            json(
                """
        {"tolerance": 0.01, "metrics": {"/policies/full/recall@10": 0.905, "/policies/full/turn_recall@10": 0.70,
         "/policies/full/mean_latency_ms": {"value": 50, "tolerance": 5}}}"""),
            json(REPORT),
            "e.json");
    assertThat(r.rows())
        .extracting(ExpectationCheck.Row::status)
        .containsExactly(Status.OK, Status.IMPROVED, Status.IMPROVED);
    assertThat(r.passed()).isTrue();
    assertThat(r.table()).contains("improved (record the new value)", "PASS: 3 metrics");
  }

  @Test
  void aDrop_aRise_ofALowerIsBetterMetric_andAMissingOne_fail() throws Exception {
    Result r =
        ExpectationCheck.check(
            json(
                """
        {"tolerance": 0.005, "metrics": {"/policies/full/recall@10": 0.95, "/policies/full/mean_latency_ms": 20,
         "/policies/full/leakage": 0, "/policies/full/ndcg@10": 0.5, "/policies/bm25/recall@10": 0.8,
         "/policies/full/turn_recall@10": {"value": 0.9, "better": "lower"}}}"""),
            json(REPORT),
            "e.json");
    assertThat(r.rows())
        .extracting(ExpectationCheck.Row::status)
        .containsExactly(
            Status.WORSE, Status.WORSE, Status.OK, Status.MISSING, Status.MISSING, Status.IMPROVED);
    assertThat(r.passed()).isFalse();
    assertThat(r.table())
        .contains(
            "/policies/full/recall@10",
            "-0.0500",
            "WORSE (dropped)",
            "WORSE (rose)",
            "MISSING from the report",
            "FAIL: 4 of 6 metrics");
  }

  @Test
  void malformedExpectations_areRefusedWithTheirPlace() {
    assertThatThrownBy(() -> ExpectationCheck.check(json("{}"), json(REPORT), "e.json"))
        .hasMessage("e.json: needs \"metrics\", an object of JSON Pointer -> expected value");
    assertThatThrownBy(
            () ->
                ExpectationCheck.check(
                    json("{\"metrics\": {\"policies.full\": 1}}"), json(REPORT), "e.json"))
        .hasMessageStartingWith("e.json: metrics \"policies.full\" is not a JSON Pointer");
    assertThatThrownBy(
            () ->
                ExpectationCheck.check(
                    json("{\"metrics\": {\"/a\": \"high\"}}"), json(REPORT), "e.json"))
        .hasMessage("e.json: metrics \"/a\" must be a number or {\"value\": ..}, was \"high\"");
    assertThatThrownBy(
            () ->
                ExpectationCheck.check(
                    json("{\"metrics\": {\"/a\": {\"value\": 1, \"better\": \"up\"}}}"),
                    json(REPORT),
                    "e.json"))
        .hasMessage("e.json: metrics \"/a\".better must be 'higher' or 'lower', was 'up'");
  }

  @Test
  void theCheckedInExpectations_areWellFormed_andMatchTheirOwnRecordedNumbers(@TempDir Path dir)
      throws Exception {
    List<Path> files;
    try (Stream<Path> list = Files.list(Path.of("../docs/expectations"))) {
      files = list.filter(f -> f.toString().endsWith(".json")).sorted().toList();
    }
    assertThat(files)
        .extracting(f -> f.getFileName().toString())
        .contains("locomo-dev.json", "longmemeval-dev.json", "longmemeval-dev-bm25.json");
    for (Path file : files) {
      String name = file.getFileName().toString();
      JsonNode e = JsonCodec.read(file);
      // a report holding exactly the recorded values passes
      com.fasterxml.jackson.databind.node.ObjectNode report = JsonCodec.object();
      e.get("metrics")
          .properties()
          .forEach(
              m -> {
                String[] parts = m.getKey().substring(1).split("/");
                com.fasterxml.jackson.databind.node.ObjectNode at = report;
                for (int i = 0; i < parts.length - 1; i++) {
                  at =
                      at.has(parts[i])
                          ? (com.fasterxml.jackson.databind.node.ObjectNode) at.get(parts[i])
                          : at.putObject(parts[i]);
                }
                at.put(
                    parts[parts.length - 1],
                    m.getValue().isNumber()
                        ? m.getValue().asDouble()
                        : m.getValue().get("value").asDouble());
              });
      Path actual = Files.writeString(dir.resolve(name), report.toString());
      assertThat(ExpectationCheck.check(file, actual).passed()).as(name).isTrue();
    }
  }
}

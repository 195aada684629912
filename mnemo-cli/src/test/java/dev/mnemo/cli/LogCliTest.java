package dev.mnemo.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.mnemo.eval.ScenarioReader;
import dev.mnemo.json.JsonCodec;
import java.io.ByteArrayOutputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** ./mnemo log, log stats, log export --as-scenarios and replay, on a store of their own. */
class LogCliTest {
  @TempDir Path dir;
  @RegisterExtension final StdStreams std = new StdStreams();
  private final ByteArrayOutputStream out = std.out;

  private int run(String... args) {
    return std.run(args);
  }

  private String[] with(String... args) {
    List<String> a = new ArrayList<>(List.of(args));
    a.addAll(List.of("--data", dir.resolve("data").toString(), "--embedder", "none"));
    return a.toArray(String[]::new);
  }

  private List<JsonNode> lines() throws Exception {
    List<JsonNode> out = new ArrayList<>();
    for (String l : this.out.toString().split("\n"))
      if (!l.isBlank()) out.add(JsonCodec.READER.readTree(l));
    return out;
  }

  @Test
  void logSearchReplayStatsExport_andForget() throws Exception {
    assertThat(
            run(
                with(
                    "remember",
                    "--owner",
                    "u",
                    "--recorded-at",
                    "2026-01-01",
                    "Maya switched from Vim to Emacs.")))
        .isZero();
    assertThat(
            run(
                with(
                    "remember",
                    "--owner",
                    "u",
                    "--recorded-at",
                    "2026-01-02",
                    "Maya's cat is called Pixel.")))
        .isZero();
    assertThat(
            run(
                with(
                    "recall",
                    "--owner",
                    "u",
                    "--asked-at",
                    "2026-02-01",
                    "Which editor does Maya use, Emacs?")))
        .isZero();
    assertThat(run(with("recall", "--owner", "u", "--no-log", "what about the cat"))).isZero();

    assertThat(run(with("log", "--owner", "u", "--json"))).isZero();
    List<JsonNode> logged = lines();
    assertThat(logged).hasSize(1);
    JsonNode e = logged.get(0);
    for (String f : List.of("id", "owner", "text", "asked_at", "selected", "omitted"))
      assertThat(e.has(f)).as(f).isTrue();
    assertThat(e.get("asked_at").asText()).isEqualTo("2026-02-01T00:00:00Z");
    assertThat(e.get("selected")).hasSize(1);
    String recallId = e.get("id").asText();
    String recordId = e.get("selected").get(0).asText();

    assertThat(run(with("log", "--record", recordId, "--outcome", "selected", "--json"))).isZero();
    assertThat(lines()).hasSize(1);
    assertThat(run(with("log", "--record", recordId))).isZero();
    assertThat(out.toString()).contains(recallId).contains("selected");
    assertThat(run(with("log", "--id", recallId))).isZero();
    assertThat(out.toString())
        .contains("Which editor does Maya use")
        .contains("eligibility removed");
    assertThat(run(with("log", "--outcome", "sideways"))).isEqualTo(2);

    assertThat(run(with("replay", recallId, "--json"))).isZero();
    JsonNode r = JsonCodec.READER.readTree(out.toString());
    assertThat(r.get("identical").asBoolean()).isTrue();
    assertThat(run(with("replay", recallId, "--threshold", "1", "--json")))
        .as("a diff is not a failure")
        .isZero();
    assertThat(JsonCodec.READER.readTree(out.toString()).get("identical").asBoolean()).isFalse();
    assertThat(run(with("replay", recallId, "--threshold", "1"))).isZero();
    assertThat(out.toString()).contains("DIFFERENT").contains("selected -> below_threshold");
    assertThat(run(with("replay", "no-such-recall", "--json"))).isEqualTo(1);

    assertThat(run(with("log", "stats", "--json"))).isZero();
    JsonNode stats = JsonCodec.READER.readTree(out.toString());
    assertThat(stats.get("recalls").asInt()).isEqualTo(1);
    assertThat(stats.get("fetch_rate").asDouble()).isEqualTo(1.0);

    Path scenarios = dir.resolve("from-log.jsonl");
    assertThat(run(with("log", "export", "--as-scenarios", "--out", scenarios.toString())))
        .isZero();
    var read = ScenarioReader.read(scenarios);
    assertThat(read).hasSize(1);
    assertThat(read.get(0).queries().get(0).text()).isEqualTo("Which editor does Maya use, Emacs?");

    assertThat(run(with("forget", "--owner", "u", "--yes"))).isZero();
    assertThat(run(with("log", "--json"))).isZero();
    assertThat(lines()).isEmpty();
  }
}

package dev.mnemo.eval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mnemo.TemporalMode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ScenarioReaderTest {

  static final Path DEV = Path.of("src/test/resources/scenarios/dev.jsonl");

  private static final String OK =
      """
      {"id":"s1","split":"dev","writes":[{"id":"w1","owner":"u","recorded_at":"2026-01-01T00:00:00Z","text":"T"}],\
      "queries":[{"id":"q1","owner":"u","asked_at":"2026-02-01T00:00:00Z","text":"Q","expect":["w1"]}]}""";

  @Test
  void read_devFile_hasEveryScenarioAndQuery_withDefaults() {
    List<Scenario> all = ScenarioReader.read(DEV);
    assertThat(all)
        .extracting(Scenario::id)
        .containsExactly(
            "s-editor", "s-same-name", "s-budget", "s-nothing-relevant", "s-scope", "s-time-words");
    assertThat(all.stream().mapToInt(s -> s.queries().size()).sum()).isEqualTo(12);
    Scenario editor = all.get(0);
    assertThat(editor.origin()).endsWith("dev.jsonl:1");
    assertThat(editor.writes().get(1).sources()).containsExactly("e2");
    assertThat(editor.writes().get(1).validFrom()).isEqualTo(Instant.parse("2026-06-01T00:00:00Z"));
    ScenarioQuery q1 = editor.queries().get(0);
    assertThat(q1.k()).isEqualTo(5);
    assertThat(q1.budgetTokens()).isEqualTo(400);
    assertThat(q1.mode()).isEqualTo(TemporalMode.current());
    assertThat(editor.queries().get(2).mode())
        .isEqualTo(TemporalMode.knownAt(Instant.parse("2026-05-20T00:00:00Z")));
    assertThat(all.get(3).queries().get(0).expectNone()).isTrue();
  }

  @Test
  void read_malformedJson_namesFileAndLine(@TempDir Path dir) throws IOException {
    Path f = dir.resolve("bad.jsonl");
    Files.writeString(f, OK + "\n\n{\"id\": \"s2\", \"split\": \n");
    assertThatThrownBy(() -> ScenarioReader.read(f))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith(f + ":3: not valid JSON");
  }

  @Test
  void parse_unknownField_isAnErrorNamingTheFieldPath() {
    String line = OK.replace("\"text\":\"Q\"", "\"text\":\"Q\",\"expcet\":[\"w1\"]");
    assertThatThrownBy(() -> ScenarioReader.parse(line, "f.jsonl:7"))
        .hasMessageStartingWith("f.jsonl:7: unknown field queries[0].expcet");
  }

  @Test
  void parse_writeFieldTheCodecKnowsButScenariosDoNot_isUnknown() {
    String line = OK.replace("\"text\":\"T\"", "\"text\":\"T\",\"context\":\"c\"");
    assertThatThrownBy(() -> ScenarioReader.parse(line, "f:1"))
        .hasMessageContaining("unknown field writes[0].context");
  }

  @Test
  void parse_reportsEveryBadFieldOfTheLineAtOnce() {
    String line =
        """
        {"id":"s1","split":"test","writes":[{"id":"w1","owner":"u","text":"T","importance":"high"}],\
        "queries":[{"id":"q1","owner":"u","asked_at":"yesterday","text":"Q","k":0,"mode":"valid_at","expect":["w9"]}]}""";
    assertThatThrownBy(() -> ScenarioReader.parse(line, "f:2"))
        .hasMessageStartingWith("f:2: ")
        .hasMessageContaining("split must be one of [dev, heldout], was 'test'")
        .hasMessageContaining("writes[0].recorded_at is required")
        .hasMessageContaining("queries[0].asked_at must be an ISO-8601 date")
        .hasMessageContaining("queries[0].k must be a whole number >= 1, was 0")
        .hasMessageContaining("queries[0].at is required with mode valid_at")
        .hasMessageContaining(
            "queries[0].expect names 'w9', which is no write id of this scenario");
  }

  @Test
  void parse_badValueTheCodecChecks_isReportedWithItsPath() {
    String line = OK.replace("\"text\":\"T\"", "\"text\":\"T\",\"category\":\"gossip\"");
    assertThatThrownBy(() -> ScenarioReader.parse(line, "f:1"))
        .hasMessageContaining("writes[0].category must be one of");
  }

  @Test
  void parse_repeatedIdsAndContradictions_areErrors() {
    String twice =
        OK.replace(
            "\"writes\":[{",
            "\"writes\":[{\"id\":\"w1\",\"owner\":\"u\",\"recorded_at\":\"2026-01-01\",\"text\":\"x\"},{");
    assertThatThrownBy(() -> ScenarioReader.parse(twice, "f:1"))
        .hasMessageContaining("writes[1].id 'w1' repeats");
    String both = OK.replace("\"expect\":[\"w1\"]", "\"expect\":[\"w1\"],\"expect_none\":true");
    assertThatThrownBy(() -> ScenarioReader.parse(both, "f:1"))
        .hasMessageContaining("expect_none is true but expect names");
    String dupKey = OK.replace("\"split\":\"dev\"", "\"split\":\"dev\",\"split\":\"heldout\"");
    assertThatThrownBy(() -> ScenarioReader.parse(dupKey, "f:1"))
        .hasMessageContaining("not valid JSON");
  }

  @Test
  void read_sameScenarioIdInTwoFiles_isAnError(@TempDir Path dir) throws IOException {
    Path a = Files.writeString(dir.resolve("a.jsonl"), OK + "\n");
    Path b = Files.writeString(dir.resolve("b.jsonl"), OK + "\n");
    assertThatThrownBy(() -> ScenarioReader.read(List.of(a, b)))
        .hasMessageStartingWith(b + ":1: id 's1' repeats the scenario of " + a + ":1");
  }
}

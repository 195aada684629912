package dev.mnemo.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.mnemo.json.JsonCodec;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** {@code mnemo list} and {@code mnemo show}: what is stored for an owner, from the terminal. */
class ListShowCliTest {
  @TempDir Path dir;
  @RegisterExtension final StdStreams std = new StdStreams();

  private String data() {
    return dir.resolve("data").toString();
  }

  private void remember(String owner, String recordedAt, String factKey, String text) {
    java.util.List<String> a =
        new java.util.ArrayList<>(
            java.util.List.of(
                "remember", "--data", data(), "--embedder", "none", "--owner", owner));
    a.addAll(java.util.List.of("--recorded-at", recordedAt));
    if (factKey != null) a.addAll(java.util.List.of("--fact-key", factKey));
    a.add(text);
    assertThat(std.run(a.toArray(String[]::new))).as(std.err.toString()).isZero();
  }

  @BeforeEach
  void store() {
    remember("maya", "2026-01-01", "city", "Maya lives in Porto.");
    remember("maya", "2026-03-01", "city", "Maya lives in Lisbon.");
    remember("maya", "2026-02-01", null, "Maya is allergic to peanuts.");
    remember("other", "2026-02-01", null, "Other likes tea.");
  }

  @Test
  void list_showsTheOwnersCurrentRecords_newestFirst_andNoOtherOwners() {
    assertThat(std.run("list", "--data", data(), "--owner", "maya")).isZero();
    String out = std.out.toString();
    assertThat(out)
        .contains("Maya lives in Lisbon.")
        .contains("city (2)")
        .contains("Maya is allergic to peanuts.")
        .contains("3 current records")
        // Porto is still true before Lisbon: its version clipped to end there is current
        .contains("2026-01-01..2026-03-01")
        .doesNotContain("[expired")
        .doesNotContain("tea");
    assertThat(out.indexOf("Lisbon")).isLessThan(out.indexOf("peanuts"));
  }

  @Test
  void list_allVersions_includesTheSupersededOne_markedExpired() {
    assertThat(std.run("list", "--data", data(), "--owner", "maya", "--all-versions")).isZero();
    assertThat(std.out.toString())
        .contains("Maya lives in Porto.  [expired 2026-03-01]")
        .contains("4 records (every version)");
  }

  @Test
  void list_json_pages_withTotalAndOffset() throws Exception {
    assertThat(
            std.run(
                "list",
                "--data",
                data(),
                "--owner",
                "maya",
                "--all-versions",
                "--json",
                "--limit",
                "2",
                "--offset",
                "1"))
        .isZero();
    JsonNode o = JsonCodec.READER.readTree(std.out.toString());
    assertThat(o.get("total").asInt()).isEqualTo(4);
    assertThat(o.get("records")).hasSize(2);
    assertThat(o.get("records").get(0).get("text").asText()).isEqualTo("Maya lives in Porto.");
    assertThat(o.get("records").get(0).get("valid_to").asText()).isEqualTo("2026-03-01T00:00:00Z");
    assertThat(o.get("records").get(1).get("text").asText())
        .isEqualTo("Maya is allergic to peanuts.");
  }

  @Test
  void list_paging_saysWhereTheNextPageStarts() {
    assertThat(std.run("list", "--data", data(), "--owner", "maya", "--limit", "1")).isZero();
    assertThat(std.out.toString()).contains("showing 1-1").contains("next page: --offset 1");
  }

  @Test
  void list_badLimitOrUnknownOwner_isClear() {
    assertThat(std.run("list", "--data", data(), "--owner", "maya", "--limit", "0")).isEqualTo(2);
    assertThat(std.err.toString()).contains("--limit must be >= 1, was 0");
    assertThat(std.run("list", "--data", data(), "--owner", "nobody")).isZero();
    assertThat(std.out.toString()).contains("no current records for owner 'nobody'");
  }

  @Test
  void show_printsTheRecordByIdWithOrWithoutTheOwner() throws Exception {
    assertThat(std.run("list", "--data", data(), "--owner", "maya", "--json")).isZero();
    String id =
        JsonCodec.READER.readTree(std.out.toString()).get("records").get(0).get("id").asText();
    assertThat(std.run("show", "--data", data(), id)).isZero();
    JsonNode r = JsonCodec.READER.readTree(std.out.toString());
    assertThat(r.get("text").asText()).isEqualTo("Maya lives in Lisbon.");
    assertThat(r.get("fact_key").asText()).isEqualTo("city");
    assertThat(std.run("show", "--data", data(), "--owner", "maya", id)).isZero();
    assertThat(std.out.toString()).contains("Maya lives in Lisbon.");
    assertThat(std.run("show", "--data", data(), "--owner", "other", id)).isEqualTo(1);
    assertThat(std.err.toString()).contains("no record '" + id + "' of owner 'other'");
  }
}

package dev.mnemo.json;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.IngestProgress;
import dev.mnemo.IngestReceipt;
import java.util.List;
import org.junit.jupiter.api.Test;

class IngestJsonTest {
  @Test
  void receipt_namesTurnsAndRecordsById() {
    var r =
        new IngestReceipt(
            List.of("t1", "t2"), List.of("t0"), 2, List.of(WireRoundTripTest.record("r1", null)));
    assertThat(IngestJson.receipt(r).toString())
        .isEqualTo(
            "{\"accepted\":[\"t1\",\"t2\"],\"duplicates\":[\"t0\"],\"queued\":2,\"records\":[\"r1\"]}");
  }

  @Test
  void progress_groupsTheCountersByWhatTheyCount_andKeepsTheFlatNames() {
    var p = new IngestProgress(1, 2, 3, 4, 5, 6, 7, null, 8, List.of("t9"));
    assertThat(IngestJson.progress(p).toString())
        .isEqualTo(
            "{\"turns\":{\"waiting\":1,\"extracted\":2,\"kept_as_sources\":3,\"failed\":4},"
                + "\"since_start\":{\"records_written\":5,\"duplicates_merged\":6,\"conflicts_kept\":7,"
                + "\"dead_lettered\":8,\"last_error\":null},\"dead_letters\":[\"t9\"],"
                + "\"pending\":1,\"extracted\":2,\"kept\":3,\"errors\":4,"
                + "\"records_written\":5,\"duplicates_merged\":6,\"conflicts\":7,\"last_error\":null,\"dead_lettered\":8}");
  }
}

package dev.mnemo.json;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.InvalidRequestException;
import dev.mnemo.InvalidRequestException.Violation;
import java.util.List;
import org.junit.jupiter.api.Test;

class BatchPathTest {
  private static final InvalidRequestException ENGINE =
      new InvalidRequestException(
          List.of(
              new Violation("memories[2].text", "", "memories[2].text must not be blank"),
              new Violation(
                  "memories[0].valid_to",
                  "x",
                  "valid_to of memories[0].valid_to is before valid_from"),
              new Violation("owner", null, "owner is required")));

  @Test
  void item_namesTheArrayAndIndex() {
    assertThat(BatchPath.RECORDS.item(2)).isEqualTo("records[2].");
    assertThat(BatchPath.WRITES.item(0)).isEqualTo("writes[0].");
  }

  @Test
  void renamed_rewritesFieldAndMessage_andLeavesOtherFieldsAlone() {
    InvalidRequestException wire = BatchPath.MEMORIES.renamed(ENGINE, BatchPath.RECORDS);
    assertThat(wire.violations())
        .extracting(Violation::field)
        .containsExactly("records[2].text", "records[0].valid_to", "owner");
    assertThat(wire.violations())
        .extracting(Violation::message)
        .containsExactly(
            "records[2].text must not be blank",
            "valid_to of records[0].valid_to is before valid_from",
            "owner is required");
    assertThat(wire.violations().get(0).value()).isEqualTo("");
    assertThat(BatchPath.RECORDS.renamed(wire, BatchPath.MEMORIES).violations())
        .isEqualTo(ENGINE.violations());
  }

  @Test
  void unbatched_namesTheItemOfABatchOfOneAsASingleObject() {
    InvalidRequestException single = BatchPath.MEMORIES.unbatched(ENGINE);
    assertThat(single.violations())
        .extracting(Violation::field)
        .containsExactly("text", "valid_to", "owner");
    assertThat(single.violations().get(0).message()).isEqualTo("text must not be blank");
  }
}

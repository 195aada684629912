package dev.mnemo.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mnemo.RecallResult;
import java.util.List;
import org.junit.jupiter.api.Test;

class TraceJsonTest {
  @Test
  void anUnreadableCandidate_isNamedByItsPathInTheTrace() {
    ObjectNode trace = (ObjectNode) ResultJson.write(WireRoundTripTest.result()).get("trace");
    ((ObjectNode) trace.get("candidates").get(1)).remove("id");
    ((ObjectNode) trace.get("candidates").get(1)).put("outcome", "lost");
    assertThatThrownBy(() -> TraceJson.read(trace))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("unreadable trace: ")
        .hasMessageContaining("trace.candidates[1].id is required")
        .hasMessageContaining("trace.candidates[1].outcome must be one of selected");
  }

  @Test
  void fieldsANewerServerAdds_areIgnored() {
    ObjectNode wire = ResultJson.write(WireRoundTripTest.result());
    wire.put("new_top_level", 1);
    ((ObjectNode) wire.get("trace")).put("new_in_trace", "x");
    ((ObjectNode) wire.get("selected").get(0)).put("new_in_record", true);
    RecallResult back = ResultJson.read(wire);
    assertThat(back.trace()).isEqualTo(WireRoundTripTest.result().trace());
    assertThat(back.selected()).isEqualTo(WireRoundTripTest.result().selected());
  }

  @Test
  void aResultWithoutItsBlock_isUnreadable() {
    ObjectNode wire =
        ResultJson.write(new RecallResult(List.of(), "", 0, 0, RecallResult.Withheld.NONE, null));
    wire.remove("rendered");
    assertThatThrownBy(() -> ResultJson.read(wire))
        .hasMessage("unreadable result: result.rendered is required");
  }
}

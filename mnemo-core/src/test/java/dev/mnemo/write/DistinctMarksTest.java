package dev.mnemo.write;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.NewMemory;
import dev.mnemo.spi.Consolidator.Action;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Statements that differ only in a number, a date or an identifier are two facts: never a
 * duplicate, never the same fact without a slot.
 */
class DistinctMarksTest {

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "The build of part 0 passed with marker r2w2i4.|The build of part 2 passed with marker r0w2i4.",
        "Invoice 4411 was paid on 2026-03-02.|Invoice 4412 was paid on 2026-03-02.",
        "Flight LH1234 departs at 9:30 from gate B.|Flight LH1235 departs at 9:30 from gate B.",
        "We ordered three boxes of paper for the office.|We ordered two boxes of paper for the office.",
      })
  void numbersDatesOrIdsDiffering_neverMerge(String newer, String older) {
    assertThat(SameFact.marks(newer)).isNotEqualTo(SameFact.marks(older));
    assertThat(SameFact.match(newer, older)).as(newer + " / " + older).isEmpty();
    var decision =
        new RuleConsolidator()
            .decide(NewMemory.builder("u", newer).build(), List.of(record(older)));
    assertThat(decision.action()).as(decision.reason()).isNotEqualTo(Action.NOOP);
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "Maya writes all her code in Vim.|Maya writes all of her code in Vim!",
        "Invoice 4411 was paid on 2026-03-02.|invoice 4411 was paid on 2026-03-02",
      })
  void theSameMarks_stillMergeAsDuplicates(String newer, String older) {
    assertThat(SameFact.marks(newer)).isEqualTo(SameFact.marks(older));
    var decision =
        new RuleConsolidator()
            .decide(NewMemory.builder("u", newer).build(), List.of(record(older)));
    assertThat(decision.action()).isEqualTo(Action.NOOP);
  }

  private static dev.mnemo.MemoryRecord record(String text) {
    return RuleConsolidatorTest.record("r1", text, null);
  }
}

package dev.mnemo.eval;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class ExtractionCostTest {

  @Test
  void table_countsOneCallPerChunkOfEachSession() {
    String t =
        ExtractionCost.table(
            List.of(LocomoLoader.load(LocomoLoaderTest.DIR.resolve("tiny.json"))), 1, 30);
    String[] rows = t.split("\n");
    // tiny.json: sessions of 4 and 3 turns -> 7 calls one by one, 2 calls at 30 per call
    assertThat(rows[1].trim().split("\\s+")).startsWith("1", "7", "7");
    assertThat(rows[2].trim().split("\\s+")).startsWith("30", "7", "2");
    long oneByOne = Long.parseLong(rows[1].trim().split("\\s+")[3]);
    long batched = Long.parseLong(rows[2].trim().split("\\s+")[3]);
    assertThat(batched).isLessThan(oneByOne);
  }
}

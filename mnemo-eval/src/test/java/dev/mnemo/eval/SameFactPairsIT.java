package dev.mnemo.eval;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.Mnemo;
import dev.mnemo.testkit.HashingEmbedder;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The same-fact rules measured on the generator's keyless pairs (docs/write-path.md, "Conflicts
 * without a fact key"): the numbers printed here are the ones the doc reports; the assertions are
 * the recorded floor (pairs found) and ceiling (false merges) of the dev split, and the held-out
 * split, worded with templates the rules were not written against, is printed and checked for false
 * merges only.
 */
class SameFactPairsIT {
  private static final Instant START = Instant.parse("2026-01-05T09:00:00Z");
  @TempDir Path dir;

  private SameFactPairs.Report run(String split, Path where) {
    List<SameFactPairs.Statement> statements =
        new HistoryGenerator(HistoryGenerator.DEFAULT_SEED).sameFactPairs(split, 25);
    try (Mnemo m = TestEngines.lucene(new HashingEmbedder()).apply(where)) {
      SameFactPairs.Report r = SameFactPairs.measure(m, statements, START);
      System.out.printf("same-fact pairs %s: %s, recall %.3f%n", split, r, r.recall());
      return r;
    }
  }

  @Test
  void devPairs_areFound_andDistractorsStayApart() {
    SameFactPairs.Report dev = run("dev", dir.resolve("dev"));
    assertThat(dev.pairs()).isEqualTo(100);
    assertThat(dev.statements()).isEqualTo(300);
    assertThat(dev.found()).isGreaterThanOrEqualTo(95);
    assertThat(dev.falseMerges()).isZero();

    SameFactPairs.Report heldout = run("heldout", dir.resolve("heldout"));
    assertThat(heldout.falseMerges()).isZero();
  }

  @Test
  void generation_isDeterministic() {
    HistoryGenerator g = new HistoryGenerator(7);
    assertThat(g.sameFactPairs("dev", 3)).isEqualTo(g.sameFactPairs("dev", 3)).hasSize(36);
    assertThat(g.sameFactPairs("heldout", 3)).isNotEqualTo(g.sameFactPairs("dev", 3));
  }
}

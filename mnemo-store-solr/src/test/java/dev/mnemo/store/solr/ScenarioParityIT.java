package dev.mnemo.store.solr;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.Mnemo;
import dev.mnemo.eval.QueryResult;
import dev.mnemo.eval.ScenarioReport;
import dev.mnemo.eval.ScenarioRunner;
import dev.mnemo.testkit.HashingEmbedder;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The dev scenarios on SolrCloud (2 shards x 2 replicas) select exactly what the embedded Lucene
 * store selects, under every policy: the selections mnemo-eval's StoreParitySelectionsTest records
 * and checks for Lucene. Both files are read from mnemo-eval's sources (this module must not have
 * the Lucene store on its class path).
 */
class ScenarioParityIT {
  static final Path EVAL = Path.of("../mnemo-eval/src/test/resources");
  static final String COLLECTION = TestCluster.SHARED;

  @Test
  void devScenarios_selectExactlyWhatTheLuceneStoreSelects() throws IOException {
    TestCluster c = TestCluster.sharedCollection();
    HashingEmbedder embedder = new HashingEmbedder();
    ScenarioRunner runner =
        new ScenarioRunner(
            dir -> {
              c.wipe(
                  COLLECTION); // each scenario on an empty store, as the runner's fresh directory
              return Mnemo.builder()
                  .store(c.store(COLLECTION))
                  .embedder(dev.mnemo.spi.Embedder.shared(embedder))
                  .build();
            });

    ScenarioReport r = runner.run(List.of(EVAL.resolve("scenarios/dev.jsonl")));

    StringBuilder actual = new StringBuilder();
    for (QueryResult q : r.results()) {
      actual
          .append(q.scenario())
          .append(' ')
          .append(q.query())
          .append(' ')
          .append(q.policy().code())
          .append(": ")
          .append(String.join(",", q.selected()))
          .append('\n');
    }
    assertThat(actual.toString())
        .isEqualTo(
            Files.readString(
                EVAL.resolve("expectations/selections-dev-hashing.txt"), StandardCharsets.UTF_8));
    // only the unfiltered policy (which shows what eligibility prevents) may select another owner's
    // record
    assertThat(r.results())
        .filteredOn(q -> q.policy() != dev.mnemo.eval.Policy.UNFILTERED)
        .allSatisfy(q -> assertThat(q.leaked()).isZero());
  }
}

package dev.mnemo.eval;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.testkit.HashingEmbedder;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The embedded store's selections on the dev scenarios (every policy, the model-free embedder),
 * recorded in {@link #SELECTIONS}: every other store (mnemo-store-solr) must select exactly the
 * same, so stores cannot drift. Re-record after a deliberate read-path change with {@code
 * -Dmnemo.recordSelections=true}.
 */
class StoreParitySelectionsTest {

  static final Path SELECTIONS =
      Path.of("src/test/resources/expectations/selections-dev-hashing.txt");

  /** One line per query and policy: {@code scenario query policy: id,id,...}, in run order. */
  static String lines(ScenarioReport r) {
    StringBuilder out = new StringBuilder();
    for (QueryResult q : r.results()) {
      out.append(q.scenario())
          .append(' ')
          .append(q.query())
          .append(' ')
          .append(q.policy().code())
          .append(": ")
          .append(String.join(",", q.selected()))
          .append('\n');
    }
    return out.toString();
  }

  @Test
  void lucene_selectsWhatIsRecorded() throws IOException {
    ScenarioReport r =
        new ScenarioRunner(TestEngines.lucene(new HashingEmbedder()))
            .run(List.of(ScenarioReaderTest.DEV));
    String actual = lines(r);
    if (Boolean.getBoolean("mnemo.recordSelections"))
      Files.writeString(SELECTIONS, actual, StandardCharsets.UTF_8);
    assertThat(actual).isEqualTo(Files.readString(SELECTIONS, StandardCharsets.UTF_8));
  }
}

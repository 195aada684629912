package dev.mnemo.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.mnemo.InputRules;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The recall filter limit over REST: more metadata filters than {@link
 * InputRules#MAX_METADATA_FILTERS} is a 422 naming the limit (before: 500 from Lucene's clause
 * count past 1,024), and a recall at every limit at once (the most filters, the most principals) is
 * answered and logged, never silently left out of the retrieval log.
 */
class RecallFilterLimitIT {
  @TempDir Path dir;

  private static String recall(int filters, int principals) {
    StringBuilder b =
        new StringBuilder("{\"owner\":\"maya\",\"text\":\"what editor\",\"metadata\":{");
    for (int i = 0; i < filters; i++) b.append(i == 0 ? "" : ",").append("\"k" + i + "\":\"v\"");
    b.append("}");
    if (principals > 0) {
      b.append(",\"principals\":[");
      for (int i = 0; i < principals; i++)
        b.append(i == 0 ? "" : ",").append("\"team:t" + i + "\"");
      b.append("]");
    }
    return b.append("}").toString();
  }

  @Test
  void tooManyFilters_is422NamingTheLimit_andARecallAtEveryLimitIsLogged() throws Exception {
    try (TestServer s = new TestServer(dir)) {
      String key = s.key("acme");
      s.send("POST", "/v1/memories", key, "{\"owner\":\"maya\",\"text\":\"Maya uses Emacs.\"}");
      for (int n : new int[] {InputRules.MAX_METADATA_FILTERS + 1, 1_025, 5_000}) {
        TestServer.Response r = s.send("POST", "/v1/recall", key, recall(n, 0));
        assertThat(r.status()).as(n + " filters: " + r).isEqualTo(422);
        assertThat(r.body())
            .contains("metadata must hold at most " + InputRules.MAX_METADATA_FILTERS)
            .contains("was " + n);
        assertThat(r.json().get("errors")).as("one violation, not one per filter").hasSize(1);
      }
      // the most of everything: answered, and in the log (the log's own counts run the same
      // eligibility query)
      int max = InputRules.MAX_METADATA_FILTERS;
      TestServer.Response ok =
          s.send("POST", "/v1/recall", key, recall(max, dev.mnemo.Access.MAX_PRINCIPALS));
      assertThat(ok.status()).as(ok.toString()).isEqualTo(200);
      JsonNode logged = null;
      for (int i = 0; i < 400; i++) {
        logged = s.send("GET", "/v1/recalls?owner=maya", key, null).json();
        if (logged.get("total").asInt() >= 1) break;
        Thread.sleep(25); // waiting for the background writer, not asserting a time
      }
      assertThat(logged.get("total").asInt()).as(logged.toString()).isEqualTo(1);
      String metrics = s.send("GET", "/metrics", TestServer.ADMIN, null).body();
      assertThat(metrics).contains("mnemo_recall_log_dropped{tenant=\"acme\"} 0.0");
    }
  }
}

package dev.mnemo.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The retrieval log over REST: searched, read, replayed, forgotten, rated, and kept per tenant. */
class RecallLogApiIT {
  @TempDir Path dir;

  /** Logging is asynchronous: polls until the tenant's log holds {@code n} recalls of the owner. */
  private static JsonNode awaitLogged(TestServer s, String key, String owner, int n) {
    JsonNode found = null;
    for (int i = 0; i < 400; i++) {
      found = s.send("GET", "/v1/recalls?owner=" + owner, key, null).json();
      if (found.get("total").asInt() >= n) return found;
      try {
        Thread.sleep(25); // waiting for the background writer, not asserting a time
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    throw new AssertionError("not logged: " + found);
  }

  /**
   * Usage feedback is logged behind the recall, asynchronously: polls /metrics until it shows
   * {@code line}.
   */
  private static String awaitMetric(TestServer s, String line) {
    String metrics = "";
    for (int i = 0; i < 400; i++) {
      metrics = s.send("GET", "/metrics", TestServer.ADMIN, null).body();
      if (metrics.contains(line)) return metrics;
      try {
        Thread.sleep(25); // waiting for the background writer, not asserting a time
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    throw new AssertionError("no " + line + " in /metrics:\n" + metrics);
  }

  @Test
  void recalls_areLoggedPerTenant_searchable_replayable_forgotten_andRated() {
    try (TestServer s = new TestServer(dir)) {
      String acme = s.key("acme");
      String other = s.key("other");
      String id =
          s.send(
                  "POST",
                  "/v1/memories",
                  acme,
                  "{\"owner\":\"maya\",\"text\":\"Maya switched from Vim to Emacs.\"}")
              .json()
              .get("ids")
              .get(0)
              .asText();
      s.send(
          "POST",
          "/v1/memories",
          acme,
          "{\"owner\":\"maya\",\"text\":\"Maya's cat is called Pixel.\"}");
      s.send(
          "POST",
          "/v1/recall",
          acme,
          "{\"owner\":\"maya\",\"text\":\"Which editor, Vim or Emacs?\"}");
      s.send(
          "POST",
          "/v1/recall",
          acme,
          "{\"owner\":\"maya\",\"text\":\"not this one\",\"log\":false}");
      s.send(
          "POST",
          "/v1/recall",
          other,
          "{\"owner\":\"maya\",\"text\":\"Which editor, Vim or Emacs?\"}");

      JsonNode list = awaitLogged(s, acme, "maya", 1);
      assertThat(list.get("total").asInt()).as("log: false is not logged").isEqualTo(1);
      JsonNode summary = list.get("recalls").get(0);
      assertThat(summary.get("text").asText()).isEqualTo("Which editor, Vim or Emacs?");
      assertThat(summary.get("selected").get(0).asText()).isEqualTo(id);
      String recallId = summary.get("id").asText();

      assertThat(
              s.send("GET", "/v1/recalls?record=" + id + "&outcome=selected", acme, null)
                  .json()
                  .get("total")
                  .asInt())
          .isEqualTo(1);
      assertThat(s.send("GET", "/v1/recalls?q=cat", acme, null).json().get("total").asInt())
          .isZero();
      assertThat(s.send("GET", "/v1/recalls?outcome=sideways", acme, null).status()).isEqualTo(422);
      assertThat(s.send("GET", "/v1/recalls?colour=red", acme, null).status()).isEqualTo(422);

      JsonNode whole = s.send("GET", "/v1/recalls/" + recallId, acme, null).json();
      assertThat(whole.get("trace").get("candidates").size()).isPositive();
      assertThat(whole.get("request").get("owner").asText()).isEqualTo("maya");
      assertThat(s.send("GET", "/v1/recalls/" + recallId, other, null).status())
          .as("another tenant's recall")
          .isEqualTo(404);

      JsonNode replay = s.send("POST", "/v1/recalls/" + recallId + "/replay", acme, null).json();
      assertThat(replay.get("identical").asBoolean()).isTrue();
      JsonNode stricter =
          s.send("POST", "/v1/recalls/" + recallId + "/replay", acme, "{\"threshold\":1.0}").json();
      assertThat(stricter.get("identical").asBoolean()).isFalse();
      assertThat(stricter.get("removed").get(0).asText()).isEqualTo(id);
      assertThat(s.send("POST", "/v1/recalls/" + recallId + "/replay", other, null).status())
          .isEqualTo(404);

      JsonNode stats = s.send("GET", "/v1/recalls/stats", acme, null).json();
      assertThat(stats.get("recalls").asInt()).isEqualTo(1);
      assertThat(stats.get("fetch_rate").asDouble()).isEqualTo(1.0);
      // usage feedback over REST: the answer used the Vim/Emacs record, so the tenant's use rate is
      // 1
      JsonNode used =
          s.send(
                  "POST",
                  "/v1/owners/maya/used",
                  acme,
                  "{\"ids\":[\""
                      + id
                      + "\"],\"query\":\"Which editor?\",\"answer\":\"You switched to Emacs.\"}")
              .json();
      assertThat(used.get("updated").asInt()).isEqualTo(1);
      String metrics = awaitMetric(s, "mnemo_recall_log_use_rate{tenant=\"acme\"} 1.0");
      assertThat(metrics)
          .contains("mnemo_recall_log_fetch_rate{tenant=\"acme\"} 1.0")
          .contains("mnemo_recall_log_recalls{tenant=\"other\"}");

      assertThat(s.send("DELETE", "/v1/owners/maya", acme, null).status()).isEqualTo(200);
      assertThat(s.send("GET", "/v1/recalls", acme, null).json().get("total").asInt()).isZero();
      assertThat(s.send("GET", "/v1/recalls/" + recallId, acme, null).status()).isEqualTo(404);
      assertThat(awaitLogged(s, other, "maya", 1).get("total").asInt())
          .as("the other tenant's log is untouched")
          .isEqualTo(1);
    }
  }
}

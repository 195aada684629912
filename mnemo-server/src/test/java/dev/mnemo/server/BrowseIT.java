package dev.mnemo.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The browsing routes the inspector uses (owners, an owner's records) and the inspector's own
 * files.
 */
class BrowseIT {
  @TempDir static Path dir;
  static TestServer s;
  static String acme;
  static String globex;

  @BeforeAll
  static void start() {
    s = new TestServer(dir);
    acme = s.key("acme");
    globex = s.key("globex");
    write(
        acme,
        "{\"owner\":\"maya\",\"text\":\"Maya writes her code in Vim.\",\"fact_key\":\"editor\",\"valid_from\":\"2026-01-01\"}");
    write(
        acme,
        "{\"owner\":\"maya\",\"text\":\"Maya switched from Vim to Emacs.\",\"fact_key\":\"editor\",\"valid_from\":\"2026-06-01\"}");
    write(
        acme, "{\"owner\":\"maya\",\"text\":\"Maya lives in Lisbon.\",\"category\":\"semantic\"}");
    write(acme, "{\"owner\":\"team/ops\",\"text\":\"Deploys happen on Tuesdays.\"}");
    write(globex, "{\"owner\":\"hank\",\"text\":\"Hank sells propane.\"}");
  }

  @AfterAll
  static void stop() {
    s.close();
  }

  private static void write(String key, String body) {
    TestServer.Response r = s.send("POST", "/v1/memories", key, body);
    assertThat(r.status()).as(r.toString()).isEqualTo(201);
  }

  private static List<String> texts(JsonNode page, String field, String name) {
    List<String> out = new ArrayList<>();
    page.get(field).forEach(n -> out.add(n.get(name).asText()));
    return out;
  }

  @Test
  void owners_listsOnlyTheKeysTenant_withCounts() {
    JsonNode a = s.send("GET", "/v1/owners", acme, null).json();
    assertThat(texts(a, "owners", "owner")).containsExactly("maya", "team/ops");
    assertThat(a.get("total").asInt()).isEqualTo(2);
    JsonNode maya = a.get("owners").get(0);
    // the correction expired the clipped-away first version: 3 current records of 4 stored versions
    // or more
    assertThat(maya.get("records").asInt()).isGreaterThan(maya.get("current").asInt());
    assertThat(maya.get("current").asInt()).isEqualTo(3);

    JsonNode g = s.send("GET", "/v1/owners", globex, null).json();
    assertThat(texts(g, "owners", "owner")).containsExactly("hank");
    assertThat(s.send("GET", "/v1/owners/maya/memories", globex, null).json().get("total").asInt())
        .isZero();
  }

  @Test
  void owners_reflectEveryWrite_andForget() {
    String key = s.key("initech");
    assertThat(s.send("GET", "/v1/owners", key, null).json().get("total").asInt()).isZero();
    write(key, "{\"owner\":\"peter\",\"text\":\"Peter has a red stapler.\"}");
    JsonNode one = s.send("GET", "/v1/owners", key, null).json();
    assertThat(texts(one, "owners", "owner")).containsExactly("peter");
    assertThat(s.send("GET", "/v1/owners?q=pet", key, null).json().get("total").asInt())
        .isEqualTo(1); // served again
    write(key, "{\"owner\":\"peter\",\"text\":\"Peter moved to the basement.\"}");
    assertThat(
            s.send("GET", "/v1/owners", key, null)
                .json()
                .get("owners")
                .get(0)
                .get("records")
                .asInt())
        .isEqualTo(2);
    assertThat(s.send("DELETE", "/v1/owners/peter", key, null).status()).isEqualTo(200);
    assertThat(s.send("GET", "/v1/owners", key, null).json().get("total").asInt()).isZero();
  }

  @Test
  void owners_filterAndPage() {
    assertThat(texts(s.send("GET", "/v1/owners?q=OPS", acme, null).json(), "owners", "owner"))
        .containsExactly("team/ops");
    JsonNode p2 = s.send("GET", "/v1/owners?offset=1&limit=1", acme, null).json();
    assertThat(texts(p2, "owners", "owner")).containsExactly("team/ops");
    assertThat(p2.get("total").asInt()).isEqualTo(2);
  }

  @Test
  void memories_newestFirst_searchable_andCurrentOnly() {
    JsonNode all = s.send("GET", "/v1/owners/maya/memories", acme, null).json();
    assertThat(all.get("memories").get(0).get("text").asText()).isEqualTo("Maya lives in Lisbon.");
    assertThat(all.get("total").asInt()).isEqualTo(all.get("memories").size());

    JsonNode editor =
        s.send("GET", "/v1/owners/maya/memories?q=editor&current_only=true", acme, null).json();
    assertThat(texts(editor, "memories", "text"))
        .containsExactlyInAnyOrder(
            "Maya writes her code in Vim.", "Maya switched from Vim to Emacs.");
    for (JsonNode r : editor.get("memories")) assertThat(r.get("expired_at").isNull()).isTrue();

    JsonNode vim = s.send("GET", "/v1/owners/maya/memories?q=vim", acme, null).json();
    assertThat(vim.get("total").asInt()).isGreaterThanOrEqualTo(2);
    assertThat(
            texts(
                s.send("GET", "/v1/owners/team%2Fops/memories", acme, null).json(),
                "memories",
                "text"))
        .containsExactly("Deploys happen on Tuesdays.");
  }

  @Test
  void badParameters_are422_withTheField() {
    for (String q : List.of("limit=0", "limit=1001", "offset=-1", "limit=ten", "colour=red")) {
      TestServer.Response r = s.send("GET", "/v1/owners?" + q, acme, null);
      assertThat(r.status()).as(q).isEqualTo(422);
      assertThat(r.json().get("errors").get(0).get("field").asText())
          .as(q)
          .isEqualTo(q.substring(0, q.indexOf('=')));
    }
    assertThat(s.send("GET", "/v1/owners/maya/memories?current_only=yes", acme, null).status())
        .isEqualTo(422);
  }

  @Test
  void browsing_needsATenantKey() {
    assertThat(s.send("GET", "/v1/owners", null, null).status()).isEqualTo(401);
    assertThat(s.send("GET", "/v1/owners", TestServer.ADMIN, null).status()).isEqualTo(403);
  }

  @Test
  void inspector_servesItsThreeFiles_withoutAKey_andNothingElse() {
    TestServer.Response page = s.send("GET", "/inspector", null, null);
    assertThat(page.status()).isEqualTo(200);
    assertThat(page.contentType()).startsWith("text/html");
    assertThat(page.body()).contains("<script src=\"/inspector/inspector.js\"");
    assertThat(page.headers().firstValue("Content-Security-Policy").orElseThrow())
        .contains("script-src 'self'");
    assertThat(s.send("GET", "/inspector/inspector.js", null, null).contentType())
        .startsWith("text/javascript");
    assertThat(s.send("GET", "/inspector/inspector.css", null, null).contentType())
        .startsWith("text/css");
    TestServer.Response other = s.send("GET", "/inspector/openapi.json", null, null);
    assertThat(other.status()).isEqualTo(404);
    assertThat(other.contentType()).startsWith(Problems.CONTENT_TYPE);
    assertThat(s.send("GET", "/inspector/..%2Fopenapi.json", null, null).status()).isEqualTo(404);
  }
}

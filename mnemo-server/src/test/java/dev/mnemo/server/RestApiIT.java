package dev.mnemo.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every endpoint's happy path, and malformed inputs answered with problem+json and nothing written.
 */
class RestApiIT {
  @TempDir static Path dir;
  static TestServer s;
  static final AtomicInteger TENANTS = new AtomicInteger();
  String key;
  String tenant;

  @BeforeAll
  static void start() {
    s = new TestServer(dir);
  }

  @AfterAll
  static void stop() {
    s.close();
  }

  @BeforeEach
  void tenant() {
    tenant = "t" + TENANTS.incrementAndGet();
    key = s.key(tenant);
  }

  private TestServer.Response post(String path, String body) {
    return s.send("POST", path, key, body);
  }

  private TestServer.Response get(String path) {
    return s.send("GET", path, key, null);
  }

  private String remember(String json) {
    TestServer.Response r = post("/v1/memories", json);
    assertThat(r.status()).as(r.toString()).isEqualTo(201);
    return r.json().get("ids").get(0).asText();
  }

  private List<JsonNode> export() {
    TestServer.Response r = get("/v1/export");
    assertThat(r.status()).isEqualTo(200);
    assertThat(r.contentType()).startsWith("application/x-ndjson");
    List<JsonNode> out = new ArrayList<>();
    for (String line : r.body().split("\n")) {
      if (!line.isBlank()) out.add(new TestServer.Response(200, "", line, null).json());
    }
    return out;
  }

  @Test
  void root_redirectsABrowserToTheInspector() {
    TestServer.Response r = s.send("GET", "/", null, null);
    assertThat(r.status()).isEqualTo(302);
    assertThat(r.headers().firstValue("Location")).hasValue("/inspector");
  }

  @Test
  void aRefusedRecallOrValidation_doesNotSpeakOfWriting_aRefusedWriteSaysNothingWasWritten() {
    TestServer.Response recall = post("/v1/recall", "{\"owner\":\"alice\",\"text\":\"q\",\"k\":0}");
    assertProblem(recall, 422, "k");
    assertThat(recall.json().get("detail").asText()).doesNotContain("written");
    TestServer.Response write =
        post("/v1/memories", "{\"owner\":\"alice\",\"text\":\"t\",\"importance\":1.5}");
    assertProblem(write, 422, "importance");
    assertThat(write.json().get("detail").asText()).endsWith("; nothing was written");
  }

  private static void assertProblem(TestServer.Response r, int status, String field) {
    assertThat(r.status()).as(r.toString()).isEqualTo(status);
    assertThat(r.contentType()).startsWith("application/problem+json");
    JsonNode p = r.json();
    assertThat(p.get("status").asInt()).isEqualTo(status);
    assertThat(p.get("type").asText()).startsWith("urn:mnemo:problem:");
    assertThat(p.get("detail").asText()).isNotBlank();
    assertThat(p.has("request_id")).isTrue();
    if (field != null) {
      assertThat(p.get("errors")).as(r.toString()).isNotNull();
      List<String> fields = new ArrayList<>();
      p.get("errors").forEach(e -> fields.add(e.get("field").asText()));
      assertThat(fields).as(r.toString()).contains(field);
      p.get("errors").forEach(e -> assertThat(e.has("value")).isTrue());
    }
  }

  // ---- happy paths ----------------------------------------------------------------------------

  @Test
  void remember_one_thenGetSourcesAndExport() {
    String id =
        remember(
            "{\"owner\":\"alice\",\"text\":\"Alice is vegetarian\",\"fact_key\":\"diet\",\"sources\":[\"chat-1:4\"],"
                + "\"importance\":0.8,\"metadata\":{\"app\":\"x\"}}");
    TestServer.Response r = get("/v1/owners/alice/memories/" + id);
    assertThat(r.status()).isEqualTo(200);
    assertThat(r.json().get("text").asText()).isEqualTo("Alice is vegetarian");
    assertThat(r.json().get("owner").asText()).isEqualTo("alice");
    assertThat(r.json().get("metadata").get("app").asText()).isEqualTo("x");
    TestServer.Response src = get("/v1/owners/alice/memories/" + id + "/sources");
    assertThat(src.json().get("sources").get(0).asText()).isEqualTo("chat-1:4");
    assertThat(src.json().get("origin").isNull()).isTrue();
    assertThat(export()).hasSize(1);
  }

  @Test
  void remember_batch_answers201WithIdsInOrder() {
    TestServer.Response r =
        post(
            "/v1/memories",
            "{\"records\":[{\"owner\":\"bob\",\"text\":\"Bob likes tea\"},"
                + "{\"owner\":\"bob\",\"text\":\"Bob met Carol in Porto\",\"category\":\"episodic\",\"episode\":\"e1\",\"seq\":2}]}");
    assertThat(r.status()).isEqualTo(201);
    assertThat(r.json().get("ids")).hasSize(2);
    String second = r.json().get("ids").get(1).asText();
    assertThat(get("/v1/owners/bob/memories/" + second).json().get("text").asText())
        .isEqualTo("Bob met Carol in Porto");
  }

  @Test
  void recall_returnsRecordsBlockAndTraceOnlyWhenAsked() {
    String id = remember("{\"owner\":\"alice\",\"text\":\"Alice is vegetarian\"}");
    remember("{\"owner\":\"alice\",\"text\":\"The weather in Oslo was cold\"}");
    TestServer.Response r =
        post(
            "/v1/recall",
            "{\"owner\":\"alice\",\"text\":\"is Alice vegetarian?\",\"k\":1,\"budget_tokens\":100}");
    assertThat(r.status()).as(r.toString()).isEqualTo(200);
    JsonNode j = r.json();
    assertThat(j.get("records")).hasSize(1);
    assertThat(j.get("records").get(0).get("id").asText()).isEqualTo(id);
    assertThat(j.get("records").get(0).has("score")).isTrue();
    assertThat(j.get("block").asText()).contains("Alice is vegetarian");
    assertThat(j.has("trace")).isFalse();
    JsonNode t =
        post(
                "/v1/recall",
                "{\"owner\":\"alice\",\"query\":\"is Alice vegetarian?\",\"explain\":true}")
            .json();
    assertThat(t.get("trace").get("candidates").size()).isGreaterThanOrEqualTo(1);
    assertThat(t.get("trace").get("stage_ms").has("total")).isTrue();
  }

  @Test
  void recall_validAt_seesTheVersionTrueThen() {
    remember(
        "{\"owner\":\"alice\",\"text\":\"Alice lives in Lisbon\",\"fact_key\":\"city\",\"valid_from\":\"2020-01-01\"}");
    remember(
        "{\"owner\":\"alice\",\"text\":\"Alice lives in Berlin\",\"fact_key\":\"city\",\"valid_from\":\"2024-01-01\"}");
    JsonNode now =
        post(
                "/v1/recall",
                "{\"owner\":\"alice\",\"text\":\"where does Alice live\",\"threshold\":0}")
            .json();
    assertThat(now.get("block").asText()).contains("Berlin").doesNotContain("Lisbon");
    JsonNode then =
        post(
                "/v1/recall",
                "{\"owner\":\"alice\",\"text\":\"where does Alice live\",\"mode\":\"valid_at\","
                    + "\"at\":\"2022-06-01\",\"threshold\":0,\"half_lives\":{\"semantic\":\"P3650D\"},\"fusion\":\"rrf\","
                    + "\"weights\":{\"bm25\":1.0},\"packing\":\"coverage\",\"time_filter\":\"off\",\"candidates\":20}")
            .json();
    assertThat(then.get("block").asText()).contains("Lisbon").doesNotContain("Berlin");
    JsonNode h = get("/v1/owners/alice/history?fact_key=city").json();
    // Lisbon (now expired), its clipped copy for 2020-2024, Berlin
    assertThat(h.get("versions")).hasSize(3);
  }

  @Test
  void remember_backfill_endsWhereTheCurrentVersionBegins_andSaysWhichRuleDecided() {
    TestServer.Response emacs =
        post(
            "/v1/memories",
            "{\"owner\":\"maya\",\"text\":\"Maya switched from Vim to Emacs.\","
                + "\"fact_key\":\"editor\"}");
    assertThat(emacs.status()).as(emacs.toString()).isEqualTo(201);
    JsonNode current = emacs.json().get("records").get(0);
    TestServer.Response vim =
        post(
            "/v1/memories",
            "{\"owner\":\"maya\",\"text\":\"Maya writes all her code in Vim.\","
                + "\"fact_key\":\"editor\",\"valid_from\":\"2025-01-01\"}");
    assertThat(vim.status()).as(vim.toString()).isEqualTo(201);
    JsonNode older = vim.json().get("records").get(0);
    assertThat(older.get("valid_to").asText()).isEqualTo(current.get("valid_from").asText());
    assertThat(older.get("metadata").get("resolution").asText())
        .startsWith("backfill: starts before current version " + current.get("id").asText());
    JsonNode now =
        post(
                "/v1/recall",
                "{\"owner\":\"maya\",\"text\":\"Which editor does Maya use?\",\"threshold\":0}")
            .json();
    assertThat(now.get("block").asText()).contains("Emacs").doesNotContain("all her code in Vim");
    JsonNode then =
        post(
                "/v1/recall",
                "{\"owner\":\"maya\",\"text\":\"Which editor does Maya use?\",\"threshold\":0,"
                    + "\"mode\":\"valid_at\",\"at\":\"2025-06-01\"}")
            .json();
    assertThat(then.get("block").asText()).contains("all her code in Vim").doesNotContain("Emacs");
  }

  @Test
  void accessLabels_recallSeesALabelledRecordOnlyWithOneOfItsPrincipals_andBadLabelsAre422() {
    String pay =
        remember(
            "{\"owner\":\"acme\",\"text\":\"The payroll run is on the 25th.\","
                + "\"access\":[\"team:payments\",\"role:cfo\"]}");
    remember("{\"owner\":\"acme\",\"text\":\"Payroll questions go to the finance desk.\"}");
    JsonNode stored = get("/v1/owners/acme/memories/" + pay).json();
    assertThat(stored.get("access"))
        .extracting(JsonNode::asText)
        .containsExactly("role:cfo", "team:payments");

    String q =
        "{\"owner\":\"acme\",\"text\":\"payroll\",\"threshold\":0,\"relative_threshold\":0,"
            + "\"min_relevance\":0,\"explain\":true";
    JsonNode anyone = post("/v1/recall", q + "}").json();
    assertThat(anyone.get("block").asText()).contains("finance desk").doesNotContain("25th");
    assertThat(anyone.get("trace").get("candidates"))
        .allSatisfy(c -> assertThat(c.get("id").asText()).isNotEqualTo(pay));
    JsonNode cfo = post("/v1/recall", q + ",\"principals\":[\"role:cfo\"]}").json();
    assertThat(cfo.get("block").asText()).contains("25th");
    JsonNode sales = post("/v1/recall", q + ",\"principals\":[\"team:sales\"]}").json();
    assertThat(sales.get("block").asText()).doesNotContain("25th");

    assertProblem(post("/v1/recall", q + ",\"principals\":[\"cfo\"]}"), 422, "principals[0]");
    assertProblem(
        post("/v1/memories", "{\"owner\":\"acme\",\"text\":\"x\",\"access\":[\"group:x\"]}"),
        422,
        "access[0]");
    assertProblem(
        post("/v1/memories", "{\"owner\":\"acme\",\"text\":\"x\",\"access\":\"team:x\"}"),
        422,
        "access");
  }

  @Test
  void recall_blockCarriesRelevanceAndAUsageNote_withinTheBudget_aBadNoteIs422() {
    remember("{\"owner\":\"lee\",\"text\":\"Lee prefers short weekly status reports.\"}");
    JsonNode r =
        post(
                "/v1/recall",
                "{\"owner\":\"lee\",\"text\":\"How does Lee like status reports?\",\"min_relevance\":0,"
                    + "\"block_relevance\":true,\"usage_note\":true,\"budget_tokens\":60}")
            .json();
    String block = r.get("block").asText();
    assertThat(block.lines().toList().get(1)).isEqualTo(dev.mnemo.RecallRequest.USAGE_NOTE);
    assertThat(block).containsPattern("short weekly status reports\\. \\(relevance 0\\.\\d\\d\\)");
    assertThat(r.get("block_tokens").asInt()).isLessThanOrEqualTo(60);
    JsonNode own =
        post(
                "/v1/recall",
                "{\"owner\":\"lee\",\"text\":\"How does Lee like status reports?\",\"min_relevance\":0,"
                    + "\"usage_note\":\"Cite the date of any line you use.\"}")
            .json();
    assertThat(own.get("block").asText()).contains("\nCite the date of any line you use.\n- [");
    assertProblem(
        post("/v1/recall", "{\"owner\":\"lee\",\"text\":\"q\",\"usage_note\":\"two\\nlines\"}"),
        422,
        "usage_note");
  }

  @Test
  void summaryAndCategoryRoutes_andASummaryFollowsACorrectedSource() {
    remember(
        "{\"owner\":\"maya\",\"text\":\"Maya lives in Lisbon.\",\"fact_key\":\"home\",\"episode\":\"s1\",\"seq\":1}");
    String cello =
        remember(
            "{\"owner\":\"maya\",\"text\":\"Maya plays the cello.\",\"episode\":\"s1\",\"seq\":2}");
    TestServer.Response summary = post("/v1/owners/maya/episodes/s1/summary", "");
    assertThat(summary.status()).as(summary.toString()).isEqualTo(201);
    assertThat(summary.json().get("text").asText()).contains("Lisbon", "cello");
    assertThat(summary.json().get("fact_key").asText()).isEqualTo("summary/s1");
    assertProblem(post("/v1/owners/maya/episodes/nothing/summary", ""), 404, null);

    remember(
        "{\"owner\":\"maya\",\"text\":\"Maya moved to Porto.\",\"fact_key\":\"home\",\"episode\":\"s2\"}");
    JsonNode versions = get("/v1/owners/maya/history?fact_key=summary/s1").json().get("versions");
    assertThat(versions).hasSize(2);
    JsonNode current = versions.get(1);
    assertThat(current.get("text").asText()).contains("cello").doesNotContain("Lisbon");
    assertThat(current.get("metadata").get("rederived").asText()).startsWith("stale: source");
    assertThat(versions.get(0).get("expired_at").isNull()).isFalse();

    TestServer.Response moved =
        post("/v1/owners/maya/memories/" + cello + "/category", "{\"category\":\"procedural\"}");
    assertThat(moved.status()).as(moved.toString()).isEqualTo(201);
    assertThat(moved.json().get("category").asText()).isEqualTo("procedural");
    assertProblem(
        post("/v1/owners/maya/memories/" + cello + "/category", "{\"category\":\"gossip\"}"),
        422,
        "category");
    assertProblem(
        post("/v1/owners/maya/memories/nope/category", "{\"category\":\"task\"}"), 404, null);
  }

  @Test
  void remember_lowerAuthority_keptAsAConflict_orRefusedWithTheReasonAnd422() {
    String verified =
        remember(
            "{\"owner\":\"alex\",\"text\":\"Alex is allergic to peanuts.\",\"fact_key\":\"allergy\","
                + "\"authority\":\"verified\"}");
    TestServer.Response refused =
        post(
            "/v1/memories",
            "{\"owner\":\"alex\",\"text\":\"Alex is allergic to cashews.\","
                + "\"fact_key\":\"allergy\",\"authority\":\"derived\",\"lower_authority\":\"refuse\"}");
    assertProblem(refused, 422, "authority");
    assertThat(refused.json().get("detail").asText())
        .contains("derived does not supersede verified version " + verified);
    assertProblem(
        post(
            "/v1/memories",
            "{\"owner\":\"alex\",\"text\":\"x\",\"lower_authority\":\"sometimes\"}"),
        422,
        "lower_authority");
    assertThat(get("/v1/owners/alex/history?fact_key=allergy").json().get("versions")).hasSize(1);

    TestServer.Response kept =
        post(
            "/v1/memories",
            "{\"owner\":\"alex\",\"text\":\"Alex is allergic to cashews.\","
                + "\"fact_key\":\"allergy\",\"authority\":\"derived\"}");
    assertThat(kept.status()).as(kept.toString()).isEqualTo(201);
    assertThat(kept.json().get("records").get(0).get("conflict_policy").asText())
        .isEqualTo("keep_both");
    JsonNode both =
        post(
                "/v1/recall",
                "{\"owner\":\"alex\",\"text\":\"What is Alex allergic to?\",\"explain\":true}")
            .json();
    assertThat(both.get("block").asText())
        .contains("peanuts")
        .contains("cashews")
        .contains("this one verified")
        .contains("this one derived");
  }

  @Test
  void recall_freshnessPerKind_maxAgeDropsAStaleStatus_andARequestCanChangeIt() {
    remember(
        "{\"owner\":\"pm\",\"text\":\"The Apollo project status is blocked.\",\"metadata\":{\"kind\":\"status\"},"
            + "\"recorded_at\":\"2020-01-01T00:00:00Z\"}");
    JsonNode stale =
        post(
                "/v1/recall",
                "{\"owner\":\"pm\",\"text\":\"status of the Apollo project\",\"threshold\":0,"
                    + "\"explain\":true}")
            .json();
    assertThat(stale.get("records")).isEmpty();
    assertThat(stale.get("trace").get("candidates").get(0).get("outcome").asText())
        .isEqualTo("too_old");
    JsonNode kept =
        post(
                "/v1/recall",
                "{\"owner\":\"pm\",\"text\":\"status of the Apollo project\",\"threshold\":0,"
                    + "\"half_lives\":{\"status\":\"P7D\",\"semantic\":30},\"max_ages\":{\"status\":\"P36500D\"}}")
            .json();
    assertThat(kept.get("records")).hasSize(1);
    assertProblem(
        post("/v1/recall", "{\"owner\":\"pm\",\"text\":\"x\",\"max_ages\":{\"status\":\"soon\"}}"),
        422,
        "max_ages.status");
    assertProblem(
        post("/v1/recall", "{\"owner\":\"pm\",\"text\":\"x\",\"max_ages\":{\"status\":\"-P1D\"}}"),
        422,
        "freshness.max_ages.status");
  }

  @Test
  void markUsed_countsAndForgetRecord_removesIt() {
    String id = remember("{\"owner\":\"alice\",\"text\":\"Alice plays chess\"}");
    TestServer.Response u =
        post("/v1/owners/alice/used", "{\"ids\":[\"" + id + "\",\"unknown-id\"]}");
    assertThat(u.status()).isEqualTo(200);
    assertThat(u.json().get("updated").asInt()).isEqualTo(1);
    assertThat(get("/v1/owners/alice/memories/" + id).json().get("access_count").asInt())
        .isEqualTo(1);
    // with the answer, only the records it used are marked (UsedRecords: here a shared name)
    String tea = remember("{\"owner\":\"alice\",\"text\":\"Alice drinks oolong from Taiwan\"}");
    TestServer.Response h =
        post(
            "/v1/owners/alice/used",
            "{\"ids\":[\""
                + id
                + "\",\""
                + tea
                + "\"],"
                + "\"query\":\"What should I bring Alice?\",\"answer\":\"Some oolong from Taiwan.\"}");
    assertThat(h.json().get("updated").asInt()).isEqualTo(1);
    assertThat(h.json().get("used")).extracting(JsonNode::asText).containsExactly(tea);
    assertThat(get("/v1/owners/alice/memories/" + id).json().get("access_count").asInt())
        .isEqualTo(1);
    assertThat(get("/v1/owners/alice/memories/" + tea).json().get("last_accessed_at").isTextual())
        .isTrue();
    assertProblem(
        post("/v1/owners/alice/used", "{\"ids\":[\"" + tea + "\"],\"answer\":\" \"}"),
        422,
        "answer");
    assertProblem(
        post("/v1/owners/alice/used", "{\"ids\":[\"" + tea + "\"],\"answr\":\"x\"}"), 422, "answr");
    TestServer.Response d = s.send("DELETE", "/v1/owners/alice/memories/" + id, key, null);
    assertThat(d.json().get("deleted").asInt()).isEqualTo(1);
    assertProblem(get("/v1/owners/alice/memories/" + id), 404, null);
    assertProblem(s.send("DELETE", "/v1/owners/alice/memories/" + id, key, null), 404, null);
  }

  @Test
  void forgetOwner_deletesEveryRecordOfThatOwnerOnly() {
    remember("{\"owner\":\"alice\",\"text\":\"one\"}");
    remember("{\"owner\":\"alice\",\"text\":\"two\"}");
    remember("{\"owner\":\"bob\",\"text\":\"three\"}");
    TestServer.Response d = s.send("DELETE", "/v1/owners/alice", key, null);
    assertThat(d.status()).isEqualTo(200);
    assertThat(d.json().get("deleted").asInt()).isEqualTo(2);
    assertThat(export()).extracting(n -> n.get("owner").asText()).containsExactly("bob");
    assertThat(get("/v1/owners/alice/export").body()).isEmpty();
  }

  @Test
  void ownerWithSlashAndSpaces_roundTripsThroughThePath() {
    String id = remember("{\"owner\":\"org/alice smith\",\"text\":\"Alice likes jazz\"}");
    TestServer.Response r = get("/v1/owners/org%2Falice%20smith/memories/" + id);
    assertThat(r.status()).as(r.toString()).isEqualTo(200);
    assertThat(r.json().get("owner").asText()).isEqualTo("org/alice smith");
    assertThat(get("/v1/owners/org%2Falice%20smith/export").body()).contains("Alice likes jazz");
  }

  @Test
  void exportWithEmbeddings_includesVectors() {
    remember("{\"owner\":\"alice\",\"text\":\"Alice likes jazz\"}");
    String line = get("/v1/owners/alice/export?embeddings=true").body().trim();
    assertThat(new TestServer.Response(200, "", line, null).json().get("embedding")).hasSize(64);
    assertProblem(get("/v1/owners/alice/export?embeddings=maybe"), 422, "embeddings");
  }

  @Test
  void keys_createListRevoke() {
    TestServer.Response c =
        s.send("POST", "/v1/tenants/" + tenant + "/keys", TestServer.ADMIN, "{\"label\":\"bot\"}");
    assertThat(c.status()).isEqualTo(201);
    String second = c.json().get("key").asText();
    assertThat(second).matches("mnemo_[a-z0-9]{12}_[A-Za-z0-9_-]{43}");
    JsonNode list = s.send("GET", "/v1/tenants/" + tenant + "/keys", TestServer.ADMIN, null).json();
    assertThat(list.get("keys")).hasSize(2);
    assertThat(list.toString()).doesNotContain(second);
    assertThat(s.send("GET", "/v1/export", second, null).status()).isEqualTo(200);
    String id = c.json().get("key_id").asText();
    assertThat(
            s.send("DELETE", "/v1/tenants/" + tenant + "/keys/" + id, TestServer.ADMIN, null)
                .status())
        .isEqualTo(200);
    assertProblem(s.send("GET", "/v1/export", second, null), 401, null);
    assertThat(s.send("GET", "/v1/export", key, null).status()).isEqualTo(200);
    assertProblem(
        s.send("DELETE", "/v1/tenants/" + tenant + "/keys/" + id, TestServer.ADMIN, null),
        404,
        null);
  }

  @Test
  void deleteTenant_revokesKeysAndDeletesTheStore() {
    remember("{\"owner\":\"alice\",\"text\":\"soon gone\"}");
    JsonNode tenants = s.send("GET", "/v1/tenants", TestServer.ADMIN, null).json();
    assertThat(tenants.toString()).contains("\"" + tenant + "\"");
    TestServer.Response d = s.send("DELETE", "/v1/tenants/" + tenant, TestServer.ADMIN, null);
    assertThat(d.status()).as(d.toString()).isEqualTo(200);
    assertThat(d.json().get("store_deleted").asBoolean()).isTrue();
    assertProblem(s.send("GET", "/v1/export", key, null), 401, null);
    key = s.key(tenant);
    assertThat(export()).isEmpty();
    assertProblem(s.send("DELETE", "/v1/tenants/nosuchtenant", TestServer.ADMIN, null), 404, null);
  }

  @Test
  void health_metrics_openApi_andRequestIds() {
    assertThat(s.send("GET", "/health/live", null, null).status()).isEqualTo(200);
    assertThat(s.send("GET", "/health/ready", null, null).json().get("status").asText())
        .isEqualTo("ready");
    remember("{\"owner\":\"alice\",\"text\":\"Alice is vegetarian\"}");
    post("/v1/recall", "{\"owner\":\"alice\",\"text\":\"vegetarian\"}");
    String m = s.send("GET", "/metrics", TestServer.ADMIN, null).body();
    assertThat(m)
        .contains(
            "mnemo_http_requests_seconds_count{method=\"POST\",route=\"/v1/recall\",status=\"200\"}")
        .contains("mnemo_recall_stage_seconds_count{stage=\"candidates\"}")
        .contains("mnemo_group_commit_commits_total")
        .contains("mnemo_group_commit_queue_depth")
        .contains("mnemo_index_bytes")
        .doesNotContain(key);
    assertThat(s.send("GET", "/v1/openapi.json", null, null).json().get("openapi").asText())
        .startsWith("3.");
    TestServer.Response r = s.send("GET", "/v1/export", key, null);
    assertThat(r.headers().firstValue("X-Request-Id")).isPresent();
  }

  // ---- malformed inputs: problem+json, nothing written ----------------------------------------

  static Stream<Arguments> badMemories() {
    String big = "x".repeat(8_001);
    return Stream.of(
        Arguments.of("{\"owner\":\"alice\",\"text\":\"truncated\"", 400, null),
        Arguments.of("", 400, null),
        Arguments.of("{\"owner\":\"a\",\"text\":\"dup\",\"text\":\"dup\"}", 400, null),
        Arguments.of("{} {}", 400, null),
        Arguments.of("{\"owner\":\"alice\",\"text\":5}", 422, "text"),
        Arguments.of(
            "{\"owner\":\"alice\",\"text\":\"t\",\"importance\":\"high\"}", 422, "importance"),
        Arguments.of("{\"owner\":\"alice\",\"text\":\"t\",\"importance\":1.5}", 422, "importance"),
        Arguments.of(
            "{\"owner\":\"alice\",\"text\":\"t\",\"episode\":\"e\",\"seq\":1.5}", 422, "seq"),
        Arguments.of("{\"owner\":\"alice\",\"text\":\"t\",\"sources\":\"s\"}", 422, "sources"),
        Arguments.of(
            "{\"owner\":\"alice\",\"text\":\"t\",\"metadata\":{\"k\":1}}", 422, "metadata.k"),
        Arguments.of("{\"text\":\"no owner\"}", 422, "owner"),
        Arguments.of("{\"owner\":\"  \",\"text\":\"blank owner\"}", 422, "owner"),
        Arguments.of("{\"owner\":\"alice\"}", 422, "text"),
        Arguments.of("{\"owner\":\"alice\",\"text\":\"" + big + "\"}", 422, "text"),
        Arguments.of(
            "{\"owner\":\"alice\",\"text\":\"t\",\"valid_from\":\"2024-13-45\"}",
            422,
            "valid_from"),
        Arguments.of(
            "{\"owner\":\"alice\",\"text\":\"t\",\"recorded_at\":\"yesterday\"}",
            422,
            "recorded_at"),
        Arguments.of(
            "{\"owner\":\"alice\",\"text\":\"t\",\"valid_from\":\"2024-02-01\",\"valid_to\":\"2024-01-01\"}",
            422,
            "valid_to"),
        Arguments.of("{\"owner\":\"alice\",\"text\":\"t\",\"colour\":\"red\"}", 422, "colour"),
        Arguments.of(
            "{\"owner\":\"alice\",\"text\":\"t\",\"category\":\"dream\"}", 422, "category"),
        Arguments.of("{\"owner\":\"alice\",\"text\":\"t\",\"id\":\"mine\"}", 422, "id"),
        Arguments.of("[{\"owner\":\"alice\",\"text\":\"t\"}]", 422, "memory"),
        Arguments.of(
            "{\"records\":[{\"owner\":\"alice\",\"text\":\"fine\"},{\"owner\":\"alice\"}]}",
            422,
            "records[1].text"),
        Arguments.of(
            "{\"records\":[{\"owner\":\"alice\",\"text\":\"fine\"},{\"owner\":\"alice\",\"text\":\"t\","
                + "\"valid_to\":\"2001-01-01\"}]}",
            422,
            "records[1].valid_to"),
        Arguments.of("{\"records\":[]}", 422, "records"),
        Arguments.of("{\"records\":{}}", 422, "records"),
        Arguments.of(
            "{\"records\":[{\"owner\":\"alice\",\"text\":\"fine\"}],\"owner\":\"x\"}",
            422,
            "owner"));
  }

  @ParameterizedTest
  @MethodSource("badMemories")
  void remember_malformed_isAProblemAndWritesNothing(String body, int status, String field) {
    assertProblem(post("/v1/memories", body), status, field);
    assertThat(export()).isEmpty();
  }

  @Test
  void remember_overLimits_is413AndWritesNothing() {
    StringBuilder batch = new StringBuilder("{\"records\":[");
    for (int i = 0; i < 257; i++)
      batch
          .append(i == 0 ? "" : ",")
          .append("{\"owner\":\"a\",\"text\":\"t")
          .append(i)
          .append("\"}");
    batch.append("]}");
    assertProblem(post("/v1/memories", batch.toString()), 413, "records");
    String huge = "{\"owner\":\"alice\",\"text\":\"" + "y".repeat(1_100_000) + "\"}";
    assertProblem(post("/v1/memories", huge), 413, null);
    assertThat(export()).isEmpty();
  }

  /**
   * A body over the limit gets its 413 every time, not a broken connection: the server reads a
   * refused body of up to {@link Api#SWALLOW_BYTES} before answering (without that, the JDK's
   * client, still sending, sometimes saw the connection closed under it).
   */
  @Test
  void anOverLimitBody_isRefusedWith413_everyTime() {
    String huge = "{\"owner\":\"alice\",\"text\":\"" + "z".repeat(1_200_000) + "\"}";
    for (int i = 0; i < 25; i++) assertProblem(post("/v1/memories", huge), 413, null);
    assertThat(export()).isEmpty();
  }

  @Test
  void remember_wrongContentType_is415() {
    assertProblem(
        s.send("POST", "/v1/memories", key, "{\"owner\":\"a\",\"text\":\"t\"}", "text/plain"),
        415,
        "Content-Type");
    assertThat(export()).isEmpty();
  }

  static Stream<Arguments> badRecalls() {
    return Stream.of(
        Arguments.of("{\"owner\":\"alice\",\"text\":\"q\"", 400, null),
        Arguments.of("{\"text\":\"q\"}", 422, "owner"),
        Arguments.of("{\"owner\":\"alice\"}", 422, "text"),
        Arguments.of("{\"owner\":\"alice\",\"text\":\"q\",\"k\":0}", 422, "k"),
        Arguments.of("{\"owner\":\"alice\",\"text\":\"q\",\"k\":\"5\"}", 422, "k"),
        Arguments.of("{\"owner\":\"alice\",\"text\":\"q\",\"k\":2.5}", 422, "k"),
        Arguments.of(
            "{\"owner\":\"alice\",\"text\":\"q\",\"budget_tokens\":-1}", 422, "budget_tokens"),
        Arguments.of("{\"owner\":\"alice\",\"text\":\"q\",\"explain\":\"yes\"}", 422, "explain"),
        Arguments.of("{\"owner\":\"alice\",\"text\":\"q\",\"mode\":\"someday\"}", 422, "mode"),
        Arguments.of("{\"owner\":\"alice\",\"text\":\"q\",\"mode\":\"valid_at\"}", 422, "at"),
        Arguments.of(
            "{\"owner\":\"alice\",\"text\":\"q\",\"mode\":\"known_at\",\"at\":\"2024-02-30\"}",
            422,
            "at"),
        Arguments.of("{\"owner\":\"alice\",\"text\":\"q\",\"threshold\":2}", 422, "threshold"),
        Arguments.of(
            "{\"owner\":\"alice\",\"text\":\"q\",\"weights\":{\"dense\":-1}}",
            422,
            "weights.dense"),
        Arguments.of(
            "{\"owner\":\"alice\",\"text\":\"q\",\"half_lives\":{\"episodic\":\"a week\"}}",
            422,
            "half_lives.episodic"),
        Arguments.of(
            "{\"owner\":\"alice\",\"text\":\"q\",\"categories\":[\"dream\"]}", 422, "categories"),
        Arguments.of("{\"owner\":\"alice\",\"text\":\"q\",\"limit\":3}", 422, "limit"));
  }

  @ParameterizedTest
  @MethodSource("badRecalls")
  void recall_malformed_isAProblem(String body, int status, String field) {
    assertProblem(post("/v1/recall", body), status, field);
  }

  @Test
  void otherRoutes_malformed_areProblems() {
    String id = remember("{\"owner\":\"alice\",\"text\":\"Alice plays chess\"}");
    assertProblem(get("/v1/owners/alice/history"), 422, "fact_key");
    assertProblem(get("/v1/owners/alice/history?fact_key=x&owner=y"), 422, "owner");
    assertProblem(get("/v1/owners/alice/history?fact_key=" + "k".repeat(1025)), 422, "fact_key");
    assertProblem(
        post("/v1/owners/alice/episodes/" + "e".repeat(1025) + "/summary", ""), 422, "episode");
    assertProblem(post("/v1/owners/alice/used", "{\"ids\":\"" + id + "\"}"), 422, "ids");
    assertProblem(post("/v1/owners/alice/used", "{\"ids\":[1]}"), 422, "ids[0]");
    assertProblem(post("/v1/owners/alice/used", "{\"ids\":[],\"x\":1}"), 422, "x");
    assertProblem(post("/v1/owners/alice/used", "nope"), 400, null);
    assertProblem(get("/v1/owners/%20/memories/" + id), 422, "owner");
    assertProblem(
        s.send("POST", "/v1/tenants/Bad.Name/keys", TestServer.ADMIN, null), 422, "tenant");
    assertProblem(
        s.send("POST", "/v1/tenants/ok/keys", TestServer.ADMIN, "{\"label\":5}"), 422, "label");
    assertThat(get("/v1/owners/alice/memories/" + id).json().get("access_count").asInt()).isZero();
    assertThat(export()).hasSize(1);
  }

  @Test
  void auth_problems() {
    TestServer.Response none = s.send("GET", "/v1/export", null, null);
    assertProblem(none, 401, null);
    assertThat(none.headers().firstValue("WWW-Authenticate")).contains("Bearer realm=\"mnemo\"");
    assertProblem(
        s.send("GET", "/v1/export", "mnemo_aaaaaaaaaaaa_" + "A".repeat(43), null), 401, null);
    assertProblem(s.send("GET", "/v1/export", TestServer.ADMIN, null), 403, null);
    assertProblem(s.send("GET", "/v1/tenants", key, null), 403, null);
    assertProblem(s.send("POST", "/v1/tenants/" + tenant + "/keys", key, null), 403, null);
    TestServer.Response basic = s.send("GET", "/v1/export", null, null);
    assertThat(basic.body()).doesNotContain(key);
  }

  @Test
  void unknownRoutesAndMethods_areProblems() {
    assertProblem(get("/v1/nothing-here"), 404, null);
    assertProblem(s.send("PUT", "/v1/recall", key, "{}"), 405, null);
  }

  @Test
  void ingestTurnsKeepsMessagesAsMemoriesAndToolEventsOut() {
    TestServer.Response r =
        post(
            "/v1/ingest",
            """
        {"turns": [
          {"id": "t1", "owner": "ana", "episode": "s1", "role": "user", "speaker": "Ana",
           "text": "I adopted a greyhound called Pixel.", "at": "2026-05-01T10:00:00Z"},
          {"id": "t2", "owner": "ana", "episode": "s1", "role": "tool_call", "text": "weather(city=Porto)"},
          {"id": "t3", "owner": "ana", "episode": "s1", "role": "tool_result", "text": "Porto: 21C, greyhound races"},
          {"id": "t4", "owner": "ana", "episode": "s1", "role": "assistant", "text": "Half-written greyhound", "status": "failed"}
        ]}""");
    assertThat(r.status()).as(r.toString()).isEqualTo(200);
    assertThat(r.json().get("accepted")).hasSize(4);
    assertThat(r.json().get("queued").asInt()).isEqualTo(1); // extraction runs in the background
    awaitExtraction();
    TestServer.Response recall =
        post(
            "/v1/recall",
            """
        {"owner": "ana", "query": "greyhound", "threshold": 0, "relative_threshold": 0}""");
    assertThat(recall.status()).as(recall.toString()).isEqualTo(200);
    assertThat(recall.body())
        .contains("Ana: I adopted a greyhound called Pixel.")
        .doesNotContain("races")
        .doesNotContain("Half-written");
  }

  private void awaitExtraction() {
    long deadline = System.nanoTime() + java.time.Duration.ofSeconds(20).toNanos();
    while (true) {
      TestServer.Response p = get("/v1/ingest/progress");
      assertThat(p.status()).as(p.toString()).isEqualTo(200);
      if (p.json().get("pending").asLong() == 0) return;
      assertThat(System.nanoTime()).as("extraction drained in time").isLessThan(deadline);
      Thread.onSpinWait();
    }
  }

  @Test
  void aFailedAttempt_becomesAMemoryOnlyOnceAccepted_andSourcesReturnTheTurns() {
    post(
        "/v1/ingest",
        """
        {"turns": [{"id": "f1", "owner": "ana", "role": "assistant", "text": "Your dentist appointment is on Friday at 3pm",
                    "status": "partial", "at": "2026-05-01T10:00:00Z"}]}""");
    awaitExtraction();
    assertThat(export()).isEmpty();
    TestServer.Response accepted = post("/v1/owners/ana/turns/f1/accept", null);
    assertThat(accepted.status()).as(accepted.toString()).isEqualTo(200);
    assertThat(accepted.json().get("accepted").get(0).asText()).isEqualTo("f1");
    awaitExtraction();
    List<JsonNode> records = export();
    assertThat(records).hasSize(1);
    TestServer.Response sources =
        get("/v1/owners/ana/memories/" + records.get(0).get("id").asText() + "/sources");
    assertThat(sources.json().get("turns").get(0).get("text").asText())
        .contains("dentist appointment");
    assertThat(post("/v1/owners/ana/turns/nope/accept", null).status()).isEqualTo(404);
  }

  @Test
  void ingestRefusesTheWholeBatchWhenOneTurnIsInvalid() {
    TestServer.Response r =
        post(
            "/v1/ingest",
            """
        {"turns": [
          {"id": "t1", "owner": "ana", "text": "I like tea."},
          {"id": "t2", "owner": "ana", "role": "narrator", "text": "x", "attempt": 0}
        ]}""");
    assertProblem(r, 422, "turns[1].role");
    assertThat(export()).isEmpty();
  }

  @Test
  void ingestNamesEveryProblemOfTheBatch_typeErrorsAndMissingFieldsAlike() {
    TestServer.Response r =
        post(
            "/v1/ingest",
            """
        {"turns": [
          {"id": "t1", "owner": "ana", "role": "narrator", "text": "I like tea."},
          {"id": "t2", "text": "I like coffee."},
          {"id": "t3", "owner": "ana", "text": "  ", "attempt": 0}
        ]}""");
    assertProblem(r, 422, "turns[0].role");
    List<String> fields = new ArrayList<>();
    r.json().get("errors").forEach(e -> fields.add(e.get("field").asText()));
    assertThat(fields)
        .containsExactlyInAnyOrder(
            "turns[0].role", "turns[1].owner", "turns[2].text", "turns[2].attempt");
    assertThat(export()).isEmpty();
  }

  @Test
  void remember_answersTheStoredRecords_asGetReadsThem() {
    TestServer.Response r =
        post(
            "/v1/memories",
            "{\"records\": [{\"owner\":\"alice\",\"text\":\"Alice lives in Lisbon\","
                + "\"fact_key\":\"city\"}, {\"owner\":\"alice\",\"text\":\"Alice has a cat\"}]}");
    assertThat(r.status()).as(r.toString()).isEqualTo(201);
    JsonNode records = r.json().get("records");
    assertThat(records).hasSize(2);
    for (int i = 0; i < 2; i++) {
      String id = r.json().get("ids").get(i).asText();
      assertThat(records.get(i).get("id").asText()).isEqualTo(id);
      assertThat(get("/v1/owners/alice/memories/" + id).json()).isEqualTo(records.get(i));
    }
    assertThat(records.get(0).get("version").asInt()).isEqualTo(1);
  }

  @Test
  void validate_reportsTheEnginesViolations_andWritesNothing() {
    TestServer.Response bad =
        post(
            "/v1/memories/validate",
            "{\"records\": [{\"owner\":\"alice\",\"text\":\"ok\"},"
                + " {\"owner\":\" \",\"text\":\"x\",\"importance\":2}]}");
    assertThat(bad.status()).as(bad.toString()).isEqualTo(200);
    assertThat(bad.json().get("valid").asBoolean()).isFalse();
    List<String> fields = new ArrayList<>();
    bad.json().get("errors").forEach(e -> fields.add(e.get("field").asText()));
    assertThat(fields)
        .contains("records[1].owner", "records[1].importance")
        .noneMatch(f -> f.startsWith("records[0]"));
    TestServer.Response good =
        post("/v1/memories/validate", "{\"owner\":\"alice\",\"text\":\"Alice is vegetarian\"}");
    assertThat(good.json().get("valid").asBoolean()).isTrue();
    assertThat(good.json().get("errors")).isEmpty();
    assertProblem(
        post("/v1/memories/validate", "{\"owner\":\"alice\",\"text\":\"x\",\"colour\":\"red\"}"),
        422,
        "colour");
    assertThat(export()).isEmpty();
  }
}

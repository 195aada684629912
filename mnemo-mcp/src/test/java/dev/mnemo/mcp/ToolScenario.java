package dev.mnemo.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.mnemo.json.JsonCodec;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.assertj.core.api.InstanceOfAssertFactories;

/** The tool calls both transport tests make with the SDK's own client, and their checks. */
final class ToolScenario {
  private ToolScenario() {}

  /** The tool's structured result, after checking it is (or is not) an error. */
  static JsonNode call(
      McpSyncClient client, String tool, Map<String, Object> args, boolean expectError) {
    CallToolResult r =
        client.callTool(McpSchema.CallToolRequest.builder(tool).arguments(args).build());
    String text = ((McpSchema.TextContent) r.content().get(0)).text();
    assertThat(r.isError()).as("%s %s -> %s", tool, args, text).isEqualTo(expectError);
    JsonNode structured = JsonCodec.tree(r.structuredContent());
    if (expectError) {
      assertThat(structured.get("message").asText()).isEqualTo(text);
    } else {
      // The text block carries the same JSON, for clients that ignore structured content.
      try {
        assertThat(JsonCodec.READER.readTree(text)).isEqualTo(structured);
      } catch (java.io.IOException e) {
        throw new AssertionError(e);
      }
    }
    return structured;
  }

  static JsonNode ok(McpSyncClient client, String tool, Map<String, Object> args) {
    return call(client, tool, args, false);
  }

  /** The error message of a call that must fail. */
  static String error(McpSyncClient client, String tool, Map<String, Object> args) {
    return call(client, tool, args, true).get("message").asText();
  }

  static void listsTheToolsWithSchemas(McpSyncClient client) {
    List<McpSchema.Tool> tools = client.listTools().tools();
    assertThat(tools)
        .extracting(McpSchema.Tool::name)
        .containsExactly("remember", "recall", "history", "forget", "mark_used");
    for (McpSchema.Tool t : tools) {
      assertThat(t.description()).as(t.name()).hasSizeGreaterThan(100);
      Map<String, Object> schema = t.inputSchema();
      assertThat(schema)
          .as(t.name())
          .containsEntry("type", "object")
          .containsEntry("additionalProperties", false);
      @SuppressWarnings("unchecked")
      Map<String, Object> props = (Map<String, Object>) schema.get("properties");
      assertThat(props).as(t.name()).containsKey("owner");
      assertThat(schema.get("required"))
          .as(t.name())
          .asInstanceOf(InstanceOfAssertFactories.LIST)
          .contains("owner");
    }
    assertThat(tools.get(1).annotations().readOnlyHint()).isTrue();
    assertThat(tools.get(3).annotations().destructiveHint()).isTrue();
  }

  /**
   * remember, recall (now and in the past), history, forget one, forget all: the full lifecycle.
   */
  static void lifecycle(McpSyncClient client, String owner) {
    JsonNode lisbon =
        ok(
            client,
            "remember",
            Map.of(
                "owner",
                owner,
                "text",
                "Alice lives in Lisbon.",
                "fact_key",
                "home_city",
                "valid_from",
                "2024-01-01"));
    assertThat(lisbon.get("owner").asText()).isEqualTo(owner);
    assertThat(lisbon.get("version").asInt()).isEqualTo(1);
    JsonNode porto =
        ok(
            client,
            "remember",
            Map.of(
                "owner",
                owner,
                "text",
                "Alice lives in Porto.",
                "fact_key",
                "home_city",
                "valid_from",
                "2025-03-01",
                "importance",
                0.8));
    assertThat(porto.get("version").asInt()).isEqualTo(2);
    String portoId = porto.get("id").asText();

    JsonNode now = ok(client, "recall", Map.of("owner", owner, "query", "Where does Alice live?"));
    assertThat(now.get("block").asText())
        .contains("Alice lives in Porto.")
        .doesNotContain("Lisbon");
    assertThat(ids(now)).first().isEqualTo(portoId);
    assertThat(now.get("records").get(0).get("text").asText()).isEqualTo("Alice lives in Porto.");
    assertThat(now.has("trace")).isFalse();

    JsonNode then =
        ok(
            client,
            "recall",
            Map.of(
                "owner",
                owner,
                "query",
                "Where did Alice live?",
                "mode",
                "valid_at",
                "at",
                "2024-06-01",
                "explain",
                true,
                "k",
                3));
    assertThat(then.get("block").asText())
        .contains("Alice lives in Lisbon.")
        .doesNotContain("Porto");
    assertThat(then.get("trace").get("mode").asText()).isEqualTo("valid_at");
    assertThat(then.get("trace").get("owner").asText()).isEqualTo(owner);

    JsonNode history = ok(client, "history", Map.of("owner", owner, "fact_key", "home_city"));
    List<String> texts = new ArrayList<>();
    history.get("versions").forEach(v -> texts.add(v.get("text").asText()));
    assertThat(texts).first().isEqualTo("Alice lives in Lisbon.");
    assertThat(texts).contains("Alice lives in Porto.");
    history.get("versions").forEach(v -> assertThat(v.get("owner").asText()).isEqualTo(owner));

    JsonNode forgotOne = ok(client, "forget", Map.of("owner", owner, "id", portoId));
    assertThat(forgotOne.get("deleted").asInt()).isEqualTo(1);
    JsonNode afterForget =
        ok(client, "recall", Map.of("owner", owner, "query", "Where does Alice live?"));
    assertThat(afterForget.get("block").asText()).doesNotContain("Porto");

    assertThat(error(client, "forget", Map.of("owner", owner)))
        .contains("confirm_all must be true");
    assertThat(error(client, "forget", Map.of("owner", owner, "id", portoId, "confirm_all", true)))
        .contains("not both");
    JsonNode forgotAll = ok(client, "forget", Map.of("owner", owner, "confirm_all", true));
    assertThat(forgotAll.get("deleted").asInt()).isGreaterThanOrEqualTo(1);
    JsonNode gone = ok(client, "history", Map.of("owner", owner, "fact_key", "home_city"));
    assertThat(gone.get("versions")).isEmpty();
    assertThat(gone.get("note").asText()).contains("home_city");
  }

  /**
   * The write rules of docs/write-path.md through the tools: an older open-ended fact written after
   * the current one is history (it ends where the current one begins), and a lower-authority memory
   * never supersedes a higher one (kept beside it as a conflict, or refused with the reason).
   */
  static void backfillAndAuthority(McpSyncClient client, String owner) {
    java.time.LocalDate today = java.time.LocalDate.now(java.time.ZoneOffset.UTC);
    JsonNode vegetarian =
        ok(
            client,
            "remember",
            Map.of("owner", owner, "text", "Lena is vegetarian.", "fact_key", "diet"));
    JsonNode vegan =
        ok(
            client,
            "remember",
            Map.of(
                "owner",
                owner,
                "text",
                "Lena became vegan.",
                "fact_key",
                "diet",
                "valid_from",
                today.minusDays(60).toString()));
    assertThat(vegan.get("valid_to").asText()).isEqualTo(vegetarian.get("valid_from").asText());
    assertThat(vegan.get("metadata").get("resolution").asText())
        .startsWith("backfill: starts before current version " + vegetarian.get("id").asText());
    assertThat(
            ok(client, "recall", Map.of("owner", owner, "query", "Is Lena vegetarian or vegan?"))
                .get("block")
                .asText())
        .contains("Lena is vegetarian.")
        .doesNotContain("vegan.");
    assertThat(
            ok(
                    client,
                    "recall",
                    Map.of(
                        "owner",
                        owner,
                        "query",
                        "Is Lena vegetarian or vegan?",
                        "mode",
                        "valid_at",
                        "at",
                        today.minusDays(30).toString()))
                .get("block")
                .asText())
        .contains("Lena became vegan.")
        .doesNotContain("Lena is vegetarian.");

    JsonNode verified =
        ok(
            client,
            "remember",
            Map.of(
                "owner",
                owner,
                "text",
                "Lena is allergic to peanuts.",
                "fact_key",
                "allergy",
                "authority",
                "verified"));
    JsonNode derived =
        ok(
            client,
            "remember",
            Map.of(
                "owner",
                owner,
                "text",
                "Lena is allergic to cashews.",
                "fact_key",
                "allergy",
                "authority",
                "derived"));
    assertThat(derived.get("conflict_policy").asText()).isEqualTo("keep_both");
    assertThat(derived.get("metadata").get("resolution").asText())
        .startsWith("authority: derived does not supersede verified");
    JsonNode both =
        ok(client, "recall", Map.of("owner", owner, "query", "What is Lena allergic to?"));
    assertThat(both.get("block").asText())
        .contains("peanuts")
        .contains("cashews")
        .contains("this one verified");
    assertThat(ids(both)).contains(verified.get("id").asText(), derived.get("id").asText());
    assertThat(
            error(
                client,
                "remember",
                Map.of(
                    "owner",
                    owner,
                    "text",
                    "Lena is allergic to nothing.",
                    "fact_key",
                    "allergy",
                    "authority",
                    "explicit",
                    "lower_authority",
                    "refuse")))
        .contains("explicit does not supersede verified version " + verified.get("id").asText());
    assertThat(ok(client, "history", Map.of("owner", owner, "fact_key", "allergy")).get("versions"))
        .hasSize(2);
  }

  /**
   * Usage feedback: mark_used with the recalled ids and the answer marks only the memory the answer
   * used (a shared name); with ids alone it marks those. The text of the memory marked twice.
   */
  static String usageFeedback(McpSyncClient client, String owner) {
    String tea =
        ok(
                client,
                "remember",
                Map.of("owner", owner, "text", "Omar drinks oolong tea from Taiwan."))
            .get("id")
            .asText();
    String bike =
        ok(client, "remember", Map.of("owner", owner, "text", "Omar rides a red bicycle to work."))
            .get("id")
            .asText();
    JsonNode recalled =
        ok(
            client,
            "recall",
            Map.of("owner", owner, "query", "What does Omar like to drink and ride?"));
    assertThat(ids(recalled)).contains(tea, bike);
    JsonNode heuristic =
        ok(
            client,
            "mark_used",
            Map.of(
                "owner",
                owner,
                "ids",
                ids(recalled),
                "query",
                "What does Omar like to drink and ride?",
                "answer",
                "Get him a tin of oolong from Taiwan."));
    assertThat(heuristic.get("used")).extracting(JsonNode::asText).containsExactly(tea);
    assertThat(heuristic.get("updated").asInt()).isEqualTo(1);
    JsonNode explicit =
        ok(client, "mark_used", Map.of("owner", owner, "ids", List.of(tea, "no-such-id")));
    assertThat(explicit.get("updated").asInt()).as("unknown ids are ignored").isEqualTo(1);
    JsonNode none =
        ok(
            client,
            "mark_used",
            Map.of("owner", owner, "ids", List.of(bike), "answer", "No idea, sorry."));
    assertThat(none.get("used")).isEmpty();
    assertThat(none.get("updated").asInt()).isZero();
    assertThat(error(client, "mark_used", Map.of("owner", owner, "ids", List.of())))
        .contains("ids must have at least 1 items");
    assertThat(error(client, "mark_used", Map.of("owner", owner, "ids", List.of(" "))))
        .contains("ids[0] must not be blank");
    return "Omar drinks oolong tea from Taiwan.";
  }

  /**
   * Every tool that takes ids answers which of them are unknown (issue 36): {@code mark_used} names
   * them under {@code unknown} and never under {@code used}, with or without an answer; {@code
   * forget} of an id the owner does not have answers {@code deleted: 0} and names it. An id of
   * another owner is unknown to this one, and forgetting it leaves that owner's record alone.
   */
  static void unknownIdsAreNamed(McpSyncClient client, String owner, String other) {
    String mine =
        ok(client, "remember", Map.of("owner", owner, "text", "Ines keeps her bike in shed 7."))
            .get("id")
            .asText();
    String theirs =
        ok(client, "remember", Map.of("owner", other, "text", "Tomas parks his van on row 12."))
            .get("id")
            .asText();

    JsonNode mixed =
        ok(
            client,
            "mark_used",
            Map.of("owner", owner, "ids", List.of(mine, "no-such-id", theirs, mine)));
    assertThat(mixed.get("used")).extracting(JsonNode::asText).containsExactly(mine);
    assertThat(mixed.get("updated").asInt()).isEqualTo(1);
    assertThat(mixed.get("unknown"))
        .extracting(JsonNode::asText)
        .containsExactly("no-such-id", theirs);
    assertThat(mixed.get("note").asText()).contains("2 of the ids", "no-such-id", theirs);

    JsonNode none =
        ok(client, "mark_used", Map.of("owner", owner, "ids", List.of("ghost-1", "ghost-2")));
    assertThat(none.get("used")).isEmpty();
    assertThat(none.get("updated").asInt()).isZero();
    assertThat(none.get("unknown"))
        .extracting(JsonNode::asText)
        .containsExactly("ghost-1", "ghost-2");

    JsonNode withAnswer =
        ok(
            client,
            "mark_used",
            Map.of(
                "owner",
                owner,
                "ids",
                List.of(mine, "ghost-3"),
                "answer",
                "Her bike is in shed 7."));
    assertThat(withAnswer.get("used")).extracting(JsonNode::asText).containsExactly(mine);
    assertThat(withAnswer.get("unknown")).extracting(JsonNode::asText).containsExactly("ghost-3");

    JsonNode known = ok(client, "mark_used", Map.of("owner", owner, "ids", List.of(mine)));
    assertThat(known.has("unknown")).as("nothing unknown, nothing named").isFalse();
    assertThat(known.has("note")).isFalse();

    for (String id : List.of("no-such-id", theirs)) {
      JsonNode forgot = ok(client, "forget", Map.of("owner", owner, "id", id));
      assertThat(forgot.get("deleted").asInt()).as(id).isZero();
      assertThat(forgot.get("unknown")).extracting(JsonNode::asText).containsExactly(id);
      assertThat(forgot.get("note").asText()).contains(id, "nothing was deleted");
    }
    JsonNode still =
        ok(client, "recall", Map.of("owner", other, "query", "Where does Tomas park his van?"));
    assertThat(ids(still)).as("the other owner's record is untouched").contains(theirs);
    JsonNode forgot = ok(client, "forget", Map.of("owner", owner, "id", mine));
    assertThat(forgot.get("deleted").asInt()).isEqualTo(1);
    assertThat(forgot.has("unknown")).isFalse();
  }

  /**
   * Access inside an owner through the tools: a memory remembered with access labels is recalled
   * only over a connection whose principals hold one of them; the model cannot name principals.
   *
   * @param anyone a connection without principals
   * @param payments a connection whose principals are {@code team:payments}
   */
  static void accessLabels(McpSyncClient anyone, McpSyncClient payments, String owner) {
    JsonNode secret =
        ok(
            anyone,
            "remember",
            Map.of(
                "owner",
                owner,
                "text",
                "The payroll run is on the 25th.",
                "access",
                List.of("team:payments")));
    assertThat(secret.get("access")).extracting(JsonNode::asText).containsExactly("team:payments");
    ok(
        anyone,
        "remember",
        Map.of("owner", owner, "text", "Payroll questions go to the finance desk."));
    Map<String, Object> q =
        Map.of("owner", owner, "query", "When is the payroll run?", "min_relevance", 0);
    assertThat(ok(anyone, "recall", q).get("block").asText())
        .contains("finance desk")
        .doesNotContain("25th");
    assertThat(ids(ok(anyone, "recall", q))).doesNotContain(secret.get("id").asText());
    assertThat(ok(payments, "recall", q).get("block").asText()).contains("25th");
    assertThat(
            error(
                anyone,
                "recall",
                Map.of("owner", owner, "query", "payroll", "principals", List.of("team:payments"))))
        .contains("unknown field principals");
    assertThat(
            error(
                anyone,
                "remember",
                Map.of("owner", owner, "text", "x", "access", List.of("payments"))))
        .contains("access[0]");
  }

  /**
   * Freshness per request through the recall tool: max_ages and half_lives in days, per category or
   * fact kind; a record older than its kind's maximum age is not recalled.
   */
  static void freshnessPerRequest(McpSyncClient client, String owner) {
    ok(
        client,
        "remember",
        Map.of(
            "owner",
            owner,
            "text",
            "Lena is training for the Porto marathon.",
            "category",
            "episodic"));
    String later = java.time.LocalDate.now(java.time.ZoneOffset.UTC).plusDays(40).toString();
    Map<String, Object> q =
        Map.of(
            "owner",
            owner,
            "query",
            "What is Lena training for?",
            "min_relevance",
            0,
            "mode",
            "valid_at",
            "at",
            later);
    assertThat(ok(client, "recall", q).get("block").asText()).contains("marathon");
    Map<String, Object> strict = new java.util.HashMap<>(q);
    strict.put("max_ages", Map.of("episodic", 30));
    assertThat(ok(client, "recall", strict).get("block").asText()).doesNotContain("marathon");
    strict.put("max_ages", Map.of("episodic", 60));
    strict.put("half_lives", Map.of("episodic", 2.5, "status", 7));
    assertThat(ok(client, "recall", strict).get("block").asText()).contains("marathon");
    assertThat(
            error(
                client,
                "recall",
                Map.of("owner", owner, "query", "q", "half_lives", Map.of("status", 0))))
        .contains("half_lives.status");
  }

  /** An owner with nothing stored gets an empty answer, which is not an error. */
  static void emptyRecallIsAValidAnswer(McpSyncClient client, String owner) {
    JsonNode r =
        ok(client, "recall", Map.of("owner", owner, "query", "What is Zed's favourite colour?"));
    assertThat(r.get("block").asText()).isEmpty();
    assertThat(r.get("ids")).isEmpty();
    assertThat(r.get("note").asText()).contains("valid answer");
  }

  /** Bad arguments fail as tool errors that name the field and the value, and write nothing. */
  static void invalidArgumentsAreToolErrorsAndWriteNothing(McpSyncClient client, String owner) {
    assertThat(error(client, "recall", Map.of("owner", owner, "query", "anything", "k", "five")))
        .contains("k must be an integer, was \"five\"");
    assertThat(error(client, "recall", Map.of("owner", owner, "query", "anything", "k", 0)))
        .contains("k must be between 1 and 50, was 0");
    assertThat(
            error(
                client, "recall", Map.of("owner", owner, "query", "anything", "mode", "valid_at")))
        .contains("at is required with mode valid_at");
    assertThat(error(client, "recall", Map.of("query", "anything"))).contains("owner is required");
    assertThat(error(client, "history", Map.of("owner", owner, "fact_key", "  ")))
        .contains("fact_key must not be blank");

    String unknown =
        error(
            client,
            "remember",
            Map.of("owner", owner, "text", "The sky is green.", "colour", "green"));
    assertThat(unknown).contains("unknown field colour").contains("fact_key");
    String badDate =
        error(
            client,
            "remember",
            Map.of(
                "owner",
                owner,
                "text",
                "The sky is green.",
                "fact_key",
                "sky",
                "valid_from",
                "last tuesday"));
    assertThat(badDate).contains("valid_from").contains("'last tuesday'");
    String two =
        error(
            client,
            "remember",
            Map.of(
                "owner",
                owner,
                "text",
                "The sky is green.",
                "importance",
                7,
                "category",
                "gossip"));
    assertThat(two)
        .contains("importance must be between 0 and 1, was 7")
        .contains("category must be one of [semantic, episodic, procedural, task], was \"gossip\"");

    JsonNode r = ok(client, "recall", Map.of("owner", owner, "query", "What colour is the sky?"));
    assertThat(r.get("ids")).as("nothing was written").isEmpty();
    assertThat(ok(client, "history", Map.of("owner", owner, "fact_key", "sky")).get("versions"))
        .isEmpty();
  }

  static List<String> ids(JsonNode recall) {
    List<String> out = new ArrayList<>();
    recall.get("ids").forEach(i -> out.add(i.asText()));
    return out;
  }
}

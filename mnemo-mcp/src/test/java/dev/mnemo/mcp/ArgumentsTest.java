package dev.mnemo.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mnemo.InvalidRequestException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.assertj.core.api.InstanceOfAssertFactories;
import org.junit.jupiter.api.Test;

class ArgumentsTest {
  private final ToolCatalog catalog = new ToolCatalog(null);

  private static InvalidRequestException refused(Runnable r) {
    try {
      r.run();
    } catch (InvalidRequestException e) {
      return e;
    }
    throw new AssertionError("expected an InvalidRequestException");
  }

  @Test
  void check_validArguments_passThroughWithoutNulls() {
    Map<String, Object> args =
        new HashMap<>(
            Map.of(
                "owner",
                "alice",
                "query",
                "where?",
                "k",
                3,
                "explain",
                true,
                "categories",
                List.of("semantic", "task")));
    args.put("scope", null);
    ObjectNode n = catalog.check("recall", args);
    assertThat(n.get("k").asInt()).isEqualTo(3);
    assertThat(n.has("scope")).isFalse();
    assertThat(n.get("categories")).hasSize(2);
  }

  @Test
  void check_integralDouble_isAnInteger() {
    assertThat(
            catalog
                .check("recall", Map.of("owner", "a", "query", "q", "k", 5.0))
                .get("k")
                .isIntegralNumber())
        .isTrue();
    assertThat(
            refused(() -> catalog.check("recall", Map.of("owner", "a", "query", "q", "k", 2.5)))
                .getMessage())
        .isEqualTo("k must be an integer, was 2.5");
  }

  @Test
  void check_everyViolation_isReportedAtOnceWithFieldAndValue() {
    Map<String, Object> args =
        Map.of("text", 42, "colour", "red", "importance", -1, "category", "gossip");
    InvalidRequestException e = refused(() -> catalog.check("remember", args));
    assertThat(e.violations())
        .extracting(InvalidRequestException.Violation::field)
        .containsExactlyInAnyOrder("text", "colour", "importance", "category", "owner");
    assertThat(e.getMessage())
        .contains("text must be a string, was 42")
        .contains(
            "unknown field colour; expected one of [access, authority, category, conflict_policy, fact_key, importance, lower_authority, owner, scope, source, text, valid_from, valid_to]")
        .contains("importance must be between 0 and 1, was -1")
        .contains("category must be one of [semantic, episodic, procedural, task], was \"gossip\"")
        .contains("owner is required");
  }

  @Test
  void check_arrayItems_areCheckedOneByOne() {
    assertThat(
            refused(
                    () ->
                        catalog.check(
                            "recall",
                            Map.of(
                                "owner",
                                "a",
                                "query",
                                "q",
                                "categories",
                                List.of("semantic", "dreams"))))
                .getMessage())
        .isEqualTo(
            "categories[1] must be one of [semantic, episodic, procedural, task], was \"dreams\"");
    assertThat(
            refused(
                    () ->
                        catalog.check(
                            "recall", Map.of("owner", "a", "query", "q", "categories", "semantic")))
                .getMessage())
        .isEqualTo("categories must be an array of strings, was \"semantic\"");
  }

  @Test
  void check_blankOrLongStrings_areRefused() {
    assertThat(
            refused(() -> catalog.check("history", Map.of("owner", " ", "fact_key", "k")))
                .getMessage())
        .isEqualTo("owner must not be blank, was \" \"");
    assertThat(
            refused(
                    () ->
                        catalog.check("history", Map.of("owner", "a".repeat(257), "fact_key", "k")))
                .getMessage())
        .isEqualTo("owner must be at most 256 characters, was 257");
  }

  @Test
  void check_booleans_areNotTruthy() {
    assertThat(
            refused(() -> catalog.check("forget", Map.of("owner", "a", "confirm_all", "yes")))
                .getMessage())
        .isEqualTo("confirm_all must be true or false, was \"yes\"");
  }

  @Test
  void defaultOwner_makesOwnerOptional_andFillsItIn() {
    ToolCatalog single = new ToolCatalog("me");
    assertThat(single.check("history", Map.of("fact_key", "k")).get("owner").asText())
        .isEqualTo("me");
    assertThat(
            single.check("history", Map.of("owner", "you", "fact_key", "k")).get("owner").asText())
        .isEqualTo("you");
    var tool = single.tools().iterator().next();
    assertThat(tool.inputSchema().get("required"))
        .asInstanceOf(InstanceOfAssertFactories.LIST)
        .containsExactly("text");
    @SuppressWarnings("unchecked")
    var owner =
        (Map<String, Object>)
            ((Map<String, Object>) tool.inputSchema().get("properties")).get("owner");
    assertThat(owner.get("description").toString()).endsWith("defaults to \"me\".");
    assertThatThrownBy(() -> new ToolCatalog(" ")).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void catalog_everyToolSharesTheOwnerDescription_andForbidsUnknownFields() {
    for (var t : catalog.tools()) {
      assertThat(t.inputSchema()).containsEntry("additionalProperties", false);
      @SuppressWarnings("unchecked")
      var owner =
          (Map<String, Object>)
              ((Map<String, Object>) t.inputSchema().get("properties")).get("owner");
      assertThat(owner.get("description").toString()).startsWith("Whose memory");
      assertThat(owner).doesNotContainKey("$shared");
    }
    assertThat(ToolCatalog.version()).isNotBlank().doesNotContain("${");
  }
}

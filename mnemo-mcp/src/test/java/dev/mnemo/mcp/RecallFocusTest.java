package dev.mnemo.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.Focus;
import dev.mnemo.InvalidRequestException;
import dev.mnemo.RecallRequest;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The recall tool's focus: given by the model, or built from the query by rule. */
class RecallFocusTest {
  private final ToolCatalog catalog = new ToolCatalog(null);
  private static final String CHATTY =
      "Ugh, the weather is awful and my train was late again. Which editor does Maya use?";

  @Test
  void withoutAFocus_theQuestionsInTheQueryAreTheFocus() {
    RecallRequest r =
        MemoryTools.recallRequest(catalog.check("recall", Map.of("owner", "a", "query", CHATTY)));
    assertThat(r.query()).isEqualTo(CHATTY);
    assertThat(r.focus()).isEqualTo(Focus.fromMessage(CHATTY));
    assertThat(r.focus().question()).isEqualTo("Which editor does Maya use?");
    assertThat(r.retrievalText()).doesNotContain("weather");
  }

  @Test
  void aGivenFocus_isUsedAsGiven() {
    RecallRequest r =
        MemoryTools.recallRequest(
            catalog.check(
                "recall",
                Map.of(
                    "owner",
                    "a",
                    "query",
                    CHATTY,
                    "focus",
                    Map.of("task", "set up Maya's laptop", "entities", List.of("Maya")))));
    assertThat(r.focus()).isEqualTo(new Focus(null, "set up Maya's laptop", null, List.of("Maya")));
  }

  @Test
  void halfLivesAndMaxAges_inDays_perCategoryOrFactKind() {
    RecallRequest r =
        MemoryTools.recallRequest(
            catalog.check(
                "recall",
                Map.of(
                    "owner",
                    "a",
                    "query",
                    "q",
                    "half_lives",
                    Map.of("episodic", 10, "status", 7),
                    "max_ages",
                    Map.of("plan", 30.5))));
    assertThat(r.halfLives().get(dev.mnemo.Category.EPISODIC))
        .isEqualTo(java.time.Duration.ofDays(10));
    assertThat(r.freshness().halfLives()).isEqualTo(Map.of("status", java.time.Duration.ofDays(7)));
    assertThat(r.freshness().maxAges()).isEqualTo(Map.of("plan", java.time.Duration.ofHours(732)));
    InvalidRequestException e =
        org.junit.jupiter.api.Assertions.assertThrows(
            InvalidRequestException.class,
            () ->
                catalog.check(
                    "recall",
                    Map.of(
                        "owner",
                        "a",
                        "query",
                        "q",
                        "max_ages",
                        Map.of("status", -1, "plan", "x"))));
    assertThat(e.getMessage())
        .contains("max_ages.status must be > 0")
        .contains("max_ages.plan must be a number");
  }

  @Test
  void aBadFocus_isRefusedNamingTheField() {
    InvalidRequestException e =
        org.junit.jupiter.api.Assertions.assertThrows(
            InvalidRequestException.class,
            () ->
                catalog.check(
                    "recall", Map.of("owner", "a", "query", "q", "focus", Map.of("topic", "x"))));
    assertThat(e.getMessage()).contains("unknown field focus.topic");
    e =
        org.junit.jupiter.api.Assertions.assertThrows(
            InvalidRequestException.class,
            () -> catalog.check("recall", Map.of("owner", "a", "query", "q", "focus", "editor")));
    assertThat(e.getMessage()).contains("focus must be an object");
  }
}

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
  private static final String CHATTY = "Ugh, the weather is awful and my train was late again. Which editor does Maya use?";

  @Test
  void withoutAFocus_theQuestionsInTheQueryAreTheFocus() {
    RecallRequest r = MemoryTools.recallRequest(catalog.check("recall", Map.of("owner", "a", "query", CHATTY)));
    assertThat(r.query()).isEqualTo(CHATTY);
    assertThat(r.focus()).isEqualTo(Focus.fromMessage(CHATTY));
    assertThat(r.focus().question()).isEqualTo("Which editor does Maya use?");
    assertThat(r.retrievalText()).doesNotContain("weather");
  }

  @Test
  void aGivenFocus_isUsedAsGiven() {
    RecallRequest r = MemoryTools.recallRequest(catalog.check("recall", Map.of("owner", "a", "query", CHATTY,
        "focus", Map.of("task", "set up Maya's laptop", "entities", List.of("Maya")))));
    assertThat(r.focus()).isEqualTo(new Focus(null, "set up Maya's laptop", null, List.of("Maya")));
  }

  @Test
  void aBadFocus_isRefusedNamingTheField() {
    InvalidRequestException e = org.junit.jupiter.api.Assertions.assertThrows(InvalidRequestException.class,
        () -> catalog.check("recall", Map.of("owner", "a", "query", "q", "focus", Map.of("topic", "x"))));
    assertThat(e.getMessage()).contains("unknown field focus.topic");
    e = org.junit.jupiter.api.Assertions.assertThrows(InvalidRequestException.class,
        () -> catalog.check("recall", Map.of("owner", "a", "query", "q", "focus", "editor")));
    assertThat(e.getMessage()).contains("focus must be an object");
  }
}

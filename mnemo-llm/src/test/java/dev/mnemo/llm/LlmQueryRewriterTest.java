package dev.mnemo.llm;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.testkit.ScriptedChatModel;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class LlmQueryRewriterTest {

  @Test
  void rewrite_givesTheModelsQueryAndEntities() {
    ScriptedChatModel m =
        new ScriptedChatModel()
            .reply("{\"query\": \"Maya editor Vim Emacs\", \"entities\": [\"Maya\", \"Emacs\"]}");
    QueryRewriter.Rewrite r =
        new LlmQueryRewriter(new JsonChat(m))
            .rewrite(
                "Thanks a lot! By the way, which editor should I set up for Maya?",
                "configure the dev laptop");
    assertThat(r)
        .isEqualTo(
            new QueryRewriter.Rewrite("Maya editor Vim Emacs", List.of("Maya", "Emacs"), true));
    assertThat(m.calls().get(0).user()).contains("Focus: configure the dev laptop");
  }

  @Test
  void rewrite_modelFails_keepsTheOriginalText() {
    ScriptedChatModel m = new ScriptedChatModel().timeout().timeout();
    QueryRewriter r =
        new LlmQueryRewriter(new JsonChat(new RetryingChatModel(m, 1, Duration.ZERO, d -> {})));
    assertThat(r.rewrite("which editor?", null))
        .isEqualTo(new QueryRewriter.Rewrite("which editor?", List.of(), false));
  }

  @Test
  void identity_changesNothing() {
    assertThat(QueryRewriter.identity().rewrite("x y", "z").query()).isEqualTo("x y");
  }
}

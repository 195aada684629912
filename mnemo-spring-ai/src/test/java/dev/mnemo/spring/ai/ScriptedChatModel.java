package dev.mnemo.spring.ai;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.model.Generation;
import org.springframework.ai.chat.prompt.Prompt;

/**
 * A chat model that answers {@link #reply} ("Noted.") and records every prompt it receives, for
 * assertions.
 */
public final class ScriptedChatModel implements ChatModel {
  public final List<Prompt> prompts = new CopyOnWriteArrayList<>();
  public volatile String reply = "Noted.";

  @Override
  public ChatResponse call(Prompt prompt) {
    prompts.add(prompt);
    return new ChatResponse(List.of(new Generation(new AssistantMessage(reply))));
  }

  /** The system text of the last prompt ("" when it had none). */
  public String lastSystemText() {
    var s = prompts.getLast().getSystemMessage();
    return s == null || s.getText() == null ? "" : s.getText();
  }

  /** Every message of the last prompt, as one string. */
  public String lastPromptText() {
    return prompts.getLast().getInstructions().toString();
  }
}

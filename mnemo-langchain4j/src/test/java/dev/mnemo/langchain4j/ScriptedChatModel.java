package dev.mnemo.langchain4j;

import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A chat model that answers {@link #reply} ("Noted.") and records every prompt it receives, for
 * assertions.
 */
final class ScriptedChatModel implements ChatModel {
  final List<List<ChatMessage>> prompts = new CopyOnWriteArrayList<>();
  volatile String reply = "Noted.";

  @Override
  public ChatResponse doChat(ChatRequest request) {
    prompts.add(List.copyOf(request.messages()));
    return ChatResponse.builder().aiMessage(AiMessage.from(reply)).build();
  }

  /** The system text of the last prompt ("" when it had none). */
  String lastSystemText() {
    return prompts.getLast().stream()
        .filter(SystemMessage.class::isInstance)
        .map(m -> ((SystemMessage) m).text())
        .findFirst()
        .orElse("");
  }

  /** Everything the model saw in the last prompt, as one string. */
  String lastPromptText() {
    return prompts.getLast().toString();
  }
}

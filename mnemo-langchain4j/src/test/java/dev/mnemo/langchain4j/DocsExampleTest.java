package dev.mnemo.langchain4j;

import static org.assertj.core.api.Assertions.assertThat;

import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.service.AiServices;
import dev.langchain4j.service.MemoryId;
import dev.langchain4j.service.SystemMessage;
import dev.langchain4j.service.UserMessage;
import dev.mnemo.Mnemo;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The agent of docs/langchain4j.md, as written there (a scripted model in place of a real one). */
class DocsExampleTest {
  interface Assistant {
    @SystemMessage("You are a helpful assistant.")
    String chat(@MemoryId Conversation conversation, @UserMessage String text);
  }

  @Test
  void theDocumentedAgent_runs(@TempDir Path memory) {
    ScriptedChatModel scripted = new ScriptedChatModel();
    ChatModel model = scripted;

    Mnemo mnemo = Mnemo.builder().directory(memory).withoutEmbedder().build();
    MnemoChatMemory.Builder memories =
        MnemoChatMemory.builder(mnemo).maxMessages(20).budgetTokens(300);
    Assistant assistant =
        AiServices.builder(Assistant.class)
            .chatModel(model)
            .chatMemoryProvider(memories.provider())
            .chatRequestTransformer(memories.recallInto())
            .build();

    assistant.chat(Conversation.of("maya", "monday"), "My dog is called Biscuit.");
    mnemo.awaitIngested(
        java.time.Duration.ofSeconds(30)); // days pass in a real agent; here, wait for extraction
    assistant.chat(Conversation.of("maya", "friday"), "What is my dog called?");
    assertThat(scripted.lastSystemText()).contains("Biscuit");
    mnemo.close();
  }
}

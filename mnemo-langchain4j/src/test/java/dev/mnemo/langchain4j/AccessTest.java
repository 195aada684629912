package dev.mnemo.langchain4j;

import static org.assertj.core.api.Assertions.assertThat;

import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.rag.content.Content;
import dev.langchain4j.rag.query.Metadata;
import dev.langchain4j.rag.query.Query;
import dev.mnemo.Mnemo;
import dev.mnemo.NewMemory;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The retriever and the chat memory recall with the principals of the conversation's person ({@link
 * Conversation#principals()}, or a principalsOf function): a record with access labels reaches the
 * prompt only for one of them.
 */
class AccessTest {
  private static final String QUESTION = "When is the payroll run?";

  @TempDir Path dir;
  private Mnemo mnemo;

  @BeforeEach
  void open() {
    mnemo = Mnemo.builder().directory(dir).withoutEmbedder().build();
    mnemo.remember(
        NewMemory.builder("acme", "The payroll run is on the 25th.")
            .access(List.of("team:payments"))
            .build());
    mnemo.remember(NewMemory.builder("acme", "Payroll questions go to the finance desk.").build());
  }

  @AfterEach
  void close() {
    mnemo.close();
  }

  private static String block(List<Content> contents) {
    return contents.isEmpty() ? "" : contents.get(0).textSegment().text();
  }

  private static Query query(Object memoryId) {
    return Query.from(QUESTION, Metadata.from(UserMessage.from(QUESTION), memoryId, List.of()));
  }

  @Test
  void retriever_recallsWithTheConversationsPrincipals() {
    MnemoContentRetriever retriever =
        MnemoContentRetriever.builder(mnemo)
            .request(r -> r.minRelevance(0.0).threshold(0).relativeThreshold(0))
            .build();
    assertThat(block(retriever.retrieve(query(Conversation.of("acme", "c1")))))
        .contains("finance desk")
        .doesNotContain("25th");
    assertThat(
            block(
                retriever.retrieve(query(Conversation.of("acme", "c2", Set.of("team:payments"))))))
        .contains("25th");
    MnemoContentRetriever byId =
        MnemoContentRetriever.builder(mnemo)
            .ownerOf(id -> "acme")
            .principalsOf(id -> id.equals("ana") ? Set.of("team:payments") : Set.of())
            .request(r -> r.minRelevance(0.0).threshold(0).relativeThreshold(0))
            .build();
    assertThat(block(byId.retrieve(query("ana")))).contains("25th");
    assertThat(block(byId.retrieve(query("bo")))).doesNotContain("25th");
  }

  @Test
  void chatMemory_recallsWithTheConversationsPrincipals() {
    MnemoChatMemory.Builder memories =
        MnemoChatMemory.builder(mnemo)
            .request(r -> r.minRelevance(0.0).threshold(0).relativeThreshold(0));
    MnemoChatMemory outsider = memories.build(Conversation.of("acme", "c1"));
    outsider.add(UserMessage.from(QUESTION));
    assertThat(outsider.messages().get(0).toString())
        .contains("finance desk")
        .doesNotContain("25th");
    MnemoChatMemory payments =
        memories.build(Conversation.of("acme", "c2", Set.of("team:payments")));
    payments.add(UserMessage.from(QUESTION));
    assertThat(payments.messages().get(0).toString()).contains("25th");
  }
}

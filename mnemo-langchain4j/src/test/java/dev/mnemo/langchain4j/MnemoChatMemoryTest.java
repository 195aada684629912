package dev.mnemo.langchain4j;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.memory.chat.MessageWindowChatMemory;
import dev.langchain4j.rag.query.Query;
import dev.langchain4j.service.AiServices;
import dev.langchain4j.service.MemoryId;
import dev.mnemo.IngestReceipt;
import dev.mnemo.MemoryRecord;
import dev.mnemo.Mnemo;
import dev.mnemo.MnemoException;
import dev.mnemo.NewMemory;
import dev.mnemo.Turn;
import dev.mnemo.store.lucene.LuceneMemoryStore;
import dev.mnemo.testkit.CityFactExtractor;
import dev.mnemo.testkit.HashingEmbedder;
import dev.mnemo.testkit.MutableClock;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Mnemo behind LangChain4j AI Services, with a scripted chat model that records its prompts. */
class MnemoChatMemoryTest {
  interface Assistant {
    @dev.langchain4j.service.SystemMessage("You are a helpful assistant.")
    String chat(@MemoryId Object conversation, @dev.langchain4j.service.UserMessage String text);
  }

  @TempDir Path dir;
  final MutableClock clock = MutableClock.at("2026-05-01T09:00:00Z");
  final ScriptedChatModel model = new ScriptedChatModel();
  Mnemo mnemo;
  Assistant assistant;

  @BeforeEach
  void open() {
    mnemo =
        Mnemo.builder()
            .synchronousIngest(true)
            .store(LuceneMemoryStore.open(dir))
            .embedder(new HashingEmbedder())
            .extractor(new CityFactExtractor())
            .clock(clock)
            .build();
    MnemoChatMemory.Builder memories = MnemoChatMemory.builder(mnemo).clock(clock).maxMessages(10);
    assistant =
        AiServices.builder(Assistant.class)
            .chatModel(model)
            .chatMemoryProvider(memories.provider())
            .chatRequestTransformer(memories.recallInto())
            .build();
  }

  @AfterEach
  void close() {
    mnemo.close();
  }

  private String say(String owner, String conversation, String text) {
    clock.advance(Duration.ofMinutes(5));
    return assistant.chat(Conversation.of(owner, conversation), text);
  }

  @Test
  void aFactToldInOneConversation_isRecalledInAnother() {
    say("maya", "c1", "My dog is called Biscuit and he loves the beach.");
    clock.advance(Duration.ofDays(2));
    say("maya", "c2", "What is my dog called?");
    assertThat(model.lastSystemText())
        .startsWith("You are a helpful assistant.")
        .contains("Biscuit");
    // It came from long-term memory: the new conversation's window holds only the question.
    assertThat(model.prompts.getLast().stream().filter(m -> !(m instanceof SystemMessage)).toList())
        .hasSize(1)
        .allSatisfy(m -> assertThat(m.toString()).doesNotContain("Biscuit"));
  }

  @Test
  void aCorrectionWins() {
    say("maya", "c1", "I live in Lisbon, by the river.");
    clock.advance(Duration.ofDays(30));
    say("maya", "c2", "Big news: I moved to Porto last week.");
    clock.advance(Duration.ofDays(1));
    say("maya", "c3", "What is my home city these days?");
    assertThat(model.lastSystemText()).contains("Porto").doesNotContain("Lisbon");
    // The earlier city is kept as history (expired, and re-recorded for the time it held), not
    // deleted.
    assertThat(mnemo.history("maya", "city"))
        .extracting(MemoryRecord::text)
        .contains("The user's home city is Lisbon.")
        .last()
        .isEqualTo("The user's home city is Porto.");
  }

  @Test
  void anotherUsersFact_neverAppears() {
    say("maya", "c1", "My locker code is 4312.");
    say("bob", "c1", "What is my locker code?");
    assertThat(model.lastPromptText()).doesNotContain("4312");
    say("maya", "c2", "What is my locker code?");
    assertThat(model.lastSystemText()).contains("4312");
  }

  @Test
  void theWindowKeepsTheConversation_asMessageWindowChatMemoryDoes() {
    say("maya", "c1", "Hello there.");
    say("maya", "c1", "Second message.");
    List<ChatMessage> prompt = model.prompts.getLast();
    assertThat(prompt).filteredOn(UserMessage.class::isInstance).hasSize(2);
    assertThat(prompt).filteredOn(AiMessage.class::isInstance).hasSize(1);
    assertThat(prompt).filteredOn(SystemMessage.class::isInstance).hasSize(1);
  }

  @Test
  void usedDirectly_theMemoryRecallsForTheUsersPendingQuestion() {
    mnemo.remember(NewMemory.builder("maya", "Maya's locker code is 4312.").build());
    MnemoChatMemory memory =
        MnemoChatMemory.builder(mnemo)
            .clock(clock)
            .preface("What you remember:\n")
            .build(Conversation.of("maya", "c9"));
    memory.add(SystemMessage.from("Be brief."));
    memory.add(UserMessage.from("What is my locker code?"));
    List<ChatMessage> prompt = memory.messages();
    assertThat(prompt).hasSize(2);
    assertThat(((SystemMessage) prompt.get(0)).text())
        .startsWith("Be brief.\n\nWhat you remember:\n")
        .contains("4312");
    memory.add(AiMessage.from("It is 4312."));
    assertThat(memory.messages()).hasSize(3).first().isEqualTo(SystemMessage.from("Be brief."));
    assertThat(
            mnemo
                .recall(dev.mnemo.RecallRequest.builder("maya", "locker code").build())
                .selected()
                .get(0)
                .record()
                .accessCount())
        .as("used directly, the answer reports too")
        .isEqualTo(1);
    memory.clear();
    assertThat(memory.messages()).isEmpty();
  }

  @Test
  void theAnswer_reportsTheRecalledRecordsItUsed() {
    MemoryRecord locker =
        mnemo.remember(NewMemory.builder("maya", "Maya's locker code is 4312.").build());
    MemoryRecord changed =
        mnemo.remember(NewMemory.builder("maya", "Maya changed her locker code in March.").build());
    model.reply = "Your code is 4312.";
    say("maya", "c5", "What is my locker code?");
    assertThat(model.lastSystemText())
        .contains("4312")
        .contains("changed her locker code"); // both were recalled
    MemoryRecord used = mnemo.get("maya", locker.id()).orElseThrow();
    assertThat(used.accessCount()).isEqualTo(1);
    assertThat(used.lastAccessedAt()).isEqualTo(clock.instant());
    assertThat(mnemo.get("maya", changed.id()).orElseThrow().accessCount())
        .as("recalled, not used")
        .isZero();
    model.reply = "I cannot say.";
    say("maya", "c5", "What is my locker code?");
    assertThat(mnemo.get("maya", locker.id()).orElseThrow().accessCount())
        .as("an answer that used nothing")
        .isEqualTo(1);
  }

  @Test
  void usageFeedbackOff_reportsNothing_theApplicationCanReportItself() {
    MemoryRecord locker =
        mnemo.remember(NewMemory.builder("maya", "Maya's locker code is 4312.").build());
    MnemoChatMemory memory =
        MnemoChatMemory.builder(mnemo)
            .clock(clock)
            .usageFeedback(false)
            .build(Conversation.of("maya", "c8"));
    memory.add(UserMessage.from("What is my locker code?"));
    memory.messages();
    assertThat(memory.recalled()).extracting(MemoryRecord::id).containsExactly(locker.id());
    memory.add(AiMessage.from("It is 4312."));
    assertThat(mnemo.get("maya", locker.id()).orElseThrow().accessCount()).isZero();
    assertThat(memory.recalled()).as("answered").isEmpty();
    assertThat(memory.markUsed(List.of(locker.id()))).isEqualTo(1);
    assertThat(mnemo.get("maya", locker.id()).orElseThrow().accessCount()).isEqualTo(1);
  }

  @Test
  void toolEvents_areIngestedAsSuch_andNeverBecomeMemories() {
    MnemoChatMemory memory = MnemoChatMemory.builder(mnemo).clock(clock).build("maya");
    memory.add(UserMessage.from("What's the weather in Lisbon?"));
    ToolExecutionRequest call =
        ToolExecutionRequest.builder()
            .id("1")
            .name("weather")
            .arguments("{\"city\":\"Lisbon\"}")
            .build();
    memory.add(AiMessage.from(List.of(call)));
    memory.add(ToolExecutionResultMessage.from(call, "SECRET-TOOL-OUTPUT 21C"));
    memory.add(AiMessage.from("It is 21C in Lisbon."));
    List<MemoryRecord> stored = new ArrayList<>();
    mnemo.export("maya", stored::add);
    assertThat(stored)
        .extracting(MemoryRecord::text)
        .contains("It is 21C in Lisbon.")
        .noneMatch(t -> t.contains("SECRET-TOOL-OUTPUT") || t.contains("weather("));
    assertThat(memory.owner()).isEqualTo("maya");
  }

  @Test
  void aRetriableIngestFailure_keepsTheTurn_forTheNextOne() {
    AtomicInteger failuresLeft = new AtomicInteger(1);
    List<List<Turn>> ingested = new ArrayList<>();
    Mnemo flaky =
        (Mnemo)
            Proxy.newProxyInstance(
                Mnemo.class.getClassLoader(),
                new Class<?>[] {Mnemo.class},
                (p, m, a) -> {
                  if (m.getName().equals("ingest")) {
                    if (failuresLeft.getAndDecrement() > 0)
                      throw new MnemoException("server unavailable", true);
                    @SuppressWarnings("unchecked")
                    List<Turn> turns = (List<Turn>) a[0];
                    ingested.add(turns);
                  }
                  try {
                    return m.invoke(mnemo, a);
                  } catch (InvocationTargetException e) {
                    throw e.getCause();
                  }
                });
    MnemoChatMemory memory = MnemoChatMemory.builder(flaky).clock(clock).build("maya");
    memory.add(UserMessage.from("First question."));
    memory.add(AiMessage.from("First answer."));
    assertThat(ingested).isEmpty();
    memory.add(UserMessage.from("Second question."));
    memory.add(AiMessage.from("Second answer."));
    assertThat(ingested).hasSize(1);
    assertThat(ingested.get(0))
        .extracting(Turn::text)
        .containsExactly("First question.", "First answer.", "Second question.", "Second answer.");
    assertThat(ingested.get(0)).allSatisfy(t -> assertThat(t.episode()).isEqualTo("maya"));
  }

  @Test
  void aNonRetriableFailure_isThrown() {
    Mnemo broken =
        (Mnemo)
            Proxy.newProxyInstance(
                Mnemo.class.getClassLoader(),
                new Class<?>[] {Mnemo.class},
                (p, m, a) -> {
                  if (m.getName().equals("ingest")) throw new MnemoException("unauthorized", false);
                  return null;
                });
    MnemoChatMemory memory = MnemoChatMemory.builder(broken).build("maya");
    memory.add(UserMessage.from("Hi."));
    assertThatThrownBy(() -> memory.add(AiMessage.from("Hello."))).hasMessage("unauthorized");
  }

  @Test
  void theRetriever_recallsTheMemoryIdsOwner_only() {
    mnemo.remember(NewMemory.builder("maya", "Maya's locker code is 4312.").build());
    mnemo.remember(NewMemory.builder("bob", "Bob's locker code is 9876.").build());
    Assistant rag =
        AiServices.builder(Assistant.class)
            .chatModel(model)
            .chatMemoryProvider(id -> MessageWindowChatMemory.withMaxMessages(10))
            .contentRetriever(MnemoContentRetriever.builder(mnemo).budgetTokens(200).build())
            .build();
    rag.chat("bob", "What is my locker code?");
    assertThat(model.lastPromptText()).contains("9876").doesNotContain("4312");
    rag.chat("maya", "What is my locker code?");
    assertThat(model.lastPromptText()).contains("4312").doesNotContain("9876");

    MnemoContentRetriever fixed = MnemoContentRetriever.builder(mnemo).owner("maya").build();
    assertThat(fixed.retrieve(Query.from("locker code")))
        .singleElement()
        .satisfies(c -> assertThat(c.textSegment().metadata().getString("mnemo_ids")).isNotBlank());
    assertThat(fixed.retrieve(Query.from("quantum chromodynamics lecture"))).isEmpty();
    assertThatThrownBy(
            () -> MnemoContentRetriever.builder(mnemo).build().retrieve(Query.from("locker code")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("no owner");
  }

  @Test
  void settingsAreChecked_whenBuilt() {
    assertThatThrownBy(() -> MnemoChatMemory.builder(mnemo).budgetTokens(-1).provider())
        .hasMessageContaining("budget_tokens");
    assertThatThrownBy(() -> MnemoContentRetriever.builder(mnemo).k(0).build())
        .hasMessageContaining("k must be");
    assertThat(IngestReceipt.class).isNotNull();
  }
}

package dev.mnemo.spring.ai;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mnemo.MemoryRecord;
import dev.mnemo.Mnemo;
import dev.mnemo.MnemoException;
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
import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.chat.memory.ChatMemory;

/** The advisor in a real ChatClient, with a scripted chat model that records its prompts. */
class MnemoAdvisorTest {
  @TempDir Path dir;
  final MutableClock clock = MutableClock.at("2026-05-01T09:00:00Z");
  final ScriptedChatModel model = new ScriptedChatModel();
  Mnemo mnemo;
  ChatClient chat;

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
    chat =
        ChatClient.builder(model)
            .defaultSystem("You are a helpful assistant.")
            .defaultAdvisors(MnemoAdvisor.builder(mnemo).clock(clock).build())
            .build();
  }

  @AfterEach
  void close() {
    mnemo.close();
  }

  private String say(String owner, String conversation, String text) {
    clock.advance(Duration.ofMinutes(5));
    return chat.prompt()
        .user(text)
        .advisors(
            a -> a.param(MnemoAdvisor.OWNER, owner).param(ChatMemory.CONVERSATION_ID, conversation))
        .call()
        .content();
  }

  @Test
  void aFactToldInOneConversation_isRecalledInAnother() {
    assertThat(say("maya", "c1", "My dog is called Biscuit and he loves the beach."))
        .isEqualTo("Noted.");
    clock.advance(Duration.ofDays(2));
    say("maya", "c2", "What is my dog called?");
    assertThat(model.lastSystemText())
        .startsWith("You are a helpful assistant.")
        .contains("Biscuit");
    List<MemoryRecord> stored = new ArrayList<>();
    mnemo.export("maya", stored::add);
    assertThat(stored)
        .anySatisfy(
            r -> {
              assertThat(r.text()).contains("Biscuit");
              assertThat(r.episode()).isEqualTo("c1");
            });
  }

  @Test
  void theAnswer_reportsTheRecalledRecordsItUsed() {
    MemoryRecord locker =
        mnemo.remember(dev.mnemo.NewMemory.builder("maya", "Maya's locker code is 4312.").build());
    MemoryRecord changed =
        mnemo.remember(
            dev.mnemo.NewMemory.builder("maya", "Maya changed her locker code in March.").build());
    model.reply = "Your code is 4312.";
    var response =
        chat.prompt()
            .user("What is my locker code?")
            .advisors(a -> a.param(MnemoAdvisor.OWNER, "maya"))
            .call()
            .chatClientResponse();
    assertThat(model.lastSystemText())
        .contains("4312")
        .contains("changed her locker code"); // both recalled
    assertThat(response.context().get(MnemoAdvisor.RECALLED))
        .asInstanceOf(org.assertj.core.api.InstanceOfAssertFactories.list(MemoryRecord.class))
        .extracting(MemoryRecord::id)
        .contains(locker.id(), changed.id());
    MemoryRecord used = mnemo.get("maya", locker.id()).orElseThrow();
    assertThat(used.accessCount()).isEqualTo(1);
    assertThat(used.lastAccessedAt()).isEqualTo(clock.instant());
    assertThat(mnemo.get("maya", changed.id()).orElseThrow().accessCount())
        .as("recalled, not used")
        .isZero();
  }

  @Test
  void usageFeedbackOff_reportsNothing_theApplicationCanReportItself() {
    MnemoAdvisor advisor = MnemoAdvisor.builder(mnemo).clock(clock).usageFeedback(false).build();
    ChatClient quiet = ChatClient.builder(model).defaultAdvisors(advisor).build();
    MemoryRecord locker =
        mnemo.remember(dev.mnemo.NewMemory.builder("maya", "Maya's locker code is 4312.").build());
    model.reply = "Your code is 4312.";
    quiet
        .prompt()
        .user("What is my locker code?")
        .advisors(a -> a.param(MnemoAdvisor.OWNER, "maya"))
        .call()
        .content();
    assertThat(mnemo.get("maya", locker.id()).orElseThrow().accessCount()).isZero();
    assertThat(advisor.markUsed("maya", List.of(locker.id()))).isEqualTo(1);
    assertThat(mnemo.get("maya", locker.id()).orElseThrow().accessCount()).isEqualTo(1);
  }

  @Test
  void aCorrectionWins() {
    say("maya", "c1", "I live in Lisbon, by the river.");
    clock.advance(Duration.ofDays(30));
    say("maya", "c2", "Big news: I moved to Porto last week.");
    clock.advance(Duration.ofDays(1));
    say("maya", "c3", "What is my home city these days?");
    assertThat(model.lastSystemText()).contains("Porto").doesNotContain("Lisbon");
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
  void aCallWithoutOwner_isRefused_unlessADefaultOwnerIsSet() {
    assertThatThrownBy(() -> chat.prompt().user("Hello").call().content())
        .hasMessageContaining("no owner");
    ChatClient single =
        ChatClient.builder(model)
            .defaultAdvisors(MnemoAdvisor.builder(mnemo).clock(clock).defaultOwner("me").build())
            .build();
    single.prompt().user("My locker code is 1234.").call().content();
    single.prompt().user("What is my locker code?").call().content();
    assertThat(model.lastSystemText()).contains("1234");
  }

  @Test
  void aRetriableIngestFailure_keepsTheTurns_forTheOwnersNextExchange() {
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
    ChatClient client =
        ChatClient.builder(model)
            .defaultAdvisors(MnemoAdvisor.builder(flaky).clock(clock).defaultOwner("maya").build())
            .build();
    client.prompt().user("First question.").call().content();
    assertThat(ingested).isEmpty();
    client.prompt().user("Second question.").call().content();
    assertThat(ingested)
        .singleElement()
        .satisfies(
            turns ->
                assertThat(turns)
                    .extracting(Turn::text)
                    .containsExactly("First question.", "Noted.", "Second question.", "Noted."));
  }

  /** The real engine, with every recall request kept in {@code requests}. */
  private Mnemo recording(List<dev.mnemo.RecallRequest> requests) {
    return (Mnemo)
        Proxy.newProxyInstance(
            Mnemo.class.getClassLoader(),
            new Class<?>[] {Mnemo.class},
            (p, m, args) -> {
              if (m.getName().equals("recall")) requests.add((dev.mnemo.RecallRequest) args[0]);
              try {
                return m.invoke(mnemo, args);
              } catch (InvocationTargetException e) {
                throw e.getCause();
              }
            });
  }

  @Test
  void theRecall_focusesOnTheMessagesQuestionsByDefault_orOnTheCallsFocus() {
    String chatty =
        "Ugh, the weather is awful and my train was late again. Which editor does Maya use?";
    List<dev.mnemo.RecallRequest> requests = new java.util.concurrent.CopyOnWriteArrayList<>();
    ChatClient c =
        ChatClient.builder(model)
            .defaultAdvisors(MnemoAdvisor.builder(recording(requests)).clock(clock).build())
            .build();
    c.prompt().user(chatty).advisors(a -> a.param(MnemoAdvisor.OWNER, "maya")).call().content();
    dev.mnemo.Focus task = new dev.mnemo.Focus(null, "set up Maya's laptop", null, List.of("Maya"));
    c.prompt()
        .user(chatty)
        .advisors(a -> a.param(MnemoAdvisor.OWNER, "maya").param(MnemoAdvisor.FOCUS, task))
        .call()
        .content();

    assertThat(requests).hasSize(2);
    assertThat(requests.get(0).query()).isEqualTo(chatty);
    assertThat(requests.get(0).focus()).isEqualTo(dev.mnemo.Focus.fromMessage(chatty));
    assertThat(requests.get(0).retrievalText())
        .startsWith("Which editor does Maya use?")
        .doesNotContain("weather");
    assertThat(requests.get(1).focus()).isEqualTo(task);
  }

  @Test
  void theRecall_runsWithTheCallsPrincipals_soALabelledMemoryReachesOnlyItsAudience() {
    mnemo.remember(
        dev.mnemo.NewMemory.builder("acme", "The payroll run is on the 25th.")
            .access(List.of("team:payments"))
            .build());
    mnemo.remember(
        dev.mnemo.NewMemory.builder("acme", "Payroll questions go to the finance desk.").build());
    ChatClient c =
        ChatClient.builder(model)
            .defaultAdvisors(
                MnemoAdvisor.builder(mnemo)
                    .clock(clock)
                    .request(r -> r.minRelevance(0.0).threshold(0).relativeThreshold(0))
                    .build())
            .build();

    c.prompt()
        .user("When is the payroll run?")
        .advisors(a -> a.param(MnemoAdvisor.OWNER, "acme"))
        .call()
        .content();
    assertThat(model.lastSystemText()).contains("finance desk").doesNotContain("25th");
    c.prompt()
        .user("When is the payroll run?")
        .advisors(
            a ->
                a.param(MnemoAdvisor.OWNER, "acme")
                    .param(MnemoAdvisor.PRINCIPALS, List.of("team:payments")))
        .call()
        .content();
    assertThat(model.lastSystemText()).contains("25th");
  }
}

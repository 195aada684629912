package dev.mnemo.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.mnemo.Mnemo;
import dev.mnemo.client.MnemoClient;
import dev.mnemo.spi.Extractor;
import dev.mnemo.spring.ai.MnemoAdvisor;
import dev.mnemo.store.lucene.LuceneMemoryStore;
import dev.mnemo.testkit.CityFactExtractor;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.chat.memory.ChatMemory;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.model.Generation;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * The auto-configuration from properties, in both modes, driving a ChatClient with a scripted
 * model.
 */
class MnemoAutoConfigurationIT {
  final ApplicationContextRunner runner =
      new ApplicationContextRunner()
          .withConfiguration(AutoConfigurations.of(MnemoAutoConfiguration.class));

  /** Answers {@code reply} ("Noted.") and keeps the system text of every prompt. */
  static final class ScriptedChatModel implements ChatModel {
    final List<String> systems = new CopyOnWriteArrayList<>();
    final List<String> prompts = new CopyOnWriteArrayList<>();
    volatile String reply = "Noted.";

    @Override
    public ChatResponse call(Prompt prompt) {
      systems.add(prompt.getSystemMessage() == null ? "" : prompt.getSystemMessage().getText());
      prompts.add(prompt.getInstructions().toString());
      return new ChatResponse(List.of(new Generation(new AssistantMessage(reply))));
    }
  }

  static void say(ChatClient chat, String owner, String conversation, String text) {
    chat.prompt()
        .user(text)
        .advisors(
            a -> a.param(MnemoAdvisor.OWNER, owner).param(ChatMemory.CONVERSATION_ID, conversation))
        .call()
        .content();
  }

  /** A fact told in one conversation is recalled in another; another user's fact never appears. */
  static void factsStayWithTheirOwner(ChatClient chat, ScriptedChatModel model) {
    say(chat, "maya", "c1", "My dog is called Biscuit and my locker code is 4312.");
    say(chat, "maya", "c2", "What is my dog called?");
    assertThat(model.systems.getLast()).contains("Biscuit");
    say(chat, "bob", "c1", "What is my locker code?");
    assertThat(model.prompts.getLast()).doesNotContain("4312").doesNotContain("Biscuit");
  }

  @Test
  void embedded_fromProperties_remembers_andACorrectionWins_withTheApplicationsExtractor(
      @TempDir Path dir) {
    runner
        .withPropertyValues(
            "mnemo.directory=" + dir,
            "mnemo.embedder=none",
            "mnemo.synchronous-ingest=true",
            "mnemo.advisor.budget-tokens=300")
        .withBean(Extractor.class, CityFactExtractor::new)
        .run(
            ctx -> {
              assertThat(ctx)
                  .hasNotFailed()
                  .hasSingleBean(Mnemo.class)
                  .hasSingleBean(MnemoAdvisor.class);
              assertThat(ctx.getBean(Mnemo.class)).isNotInstanceOf(MnemoClient.class);
              ScriptedChatModel model = new ScriptedChatModel();
              ChatClient chat =
                  ChatClient.builder(model)
                      .defaultAdvisors(ctx.getBean(MnemoAdvisor.class))
                      .build();
              factsStayWithTheirOwner(chat, model);
              say(chat, "maya", "c3", "I live in Lisbon, by the river.");
              say(chat, "maya", "c4", "Big news: I moved to Porto last week.");
              say(chat, "maya", "c5", "What is my home city these days?");
              assertThat(model.systems.getLast()).contains("Porto").doesNotContain("Lisbon");
            });
  }

  @Test
  void embedded_usageFeedback_isOnByDefault_andAPropertyTurnsItOff(@TempDir Path dir) {
    for (boolean on : new boolean[] {true, false}) {
      runner
          .withPropertyValues(
              "mnemo.directory=" + dir.resolve("on-" + on),
              "mnemo.embedder=none",
              "mnemo.advisor.usage-feedback=" + on)
          .run(
              ctx -> {
                Mnemo mnemo = ctx.getBean(Mnemo.class);
                var locker =
                    mnemo.remember(
                        dev.mnemo.NewMemory.builder("maya", "Maya's locker code is 4312.").build());
                ScriptedChatModel model = new ScriptedChatModel();
                model.reply = "It is 4312.";
                ChatClient chat =
                    ChatClient.builder(model)
                        .defaultAdvisors(ctx.getBean(MnemoAdvisor.class))
                        .build();
                say(chat, "maya", "c1", "What is my locker code?");
                assertThat(model.systems.getLast()).contains("4312");
                assertThat(mnemo.get("maya", locker.id()).orElseThrow().accessCount())
                    .as("usage-feedback=" + on)
                    .isEqualTo(on ? 1 : 0);
              });
    }
  }

  @Test
  void embedded_byDefault_hasTheDenseSignal_becauseTheStarterBringsTheLocalEmbedder(
      @TempDir Path dir) {
    runner
        .withPropertyValues("mnemo.directory=" + dir)
        .run(
            ctx -> {
              assertThat(ctx).hasNotFailed();
              Mnemo mnemo = ctx.getBean(Mnemo.class);
              mnemo.remember(
                  dev.mnemo.NewMemory.builder("maya", "Maya's dog is called Biscuit.").build());
              var r =
                  mnemo.recall(
                      dev.mnemo.RecallRequest.builder("maya", "What is the name of her puppy?")
                          .explain(true)
                          .build());
              assertThat(r.trace().candidates())
                  .isNotEmpty()
                  .allSatisfy(c -> assertThat(c.signals().dense()).as("dense signal").isPositive());
            });
  }

  @Test
  void remote_fromProperties_sendsTheKey_recallsIntoThePrompt_andIngestsTheExchange()
      throws Exception {
    List<String> seen = new CopyOnWriteArrayList<>();
    HttpServer stub = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    stub.createContext(
        "/",
        ex -> {
          String body = new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
          seen.add(
              ex.getRequestMethod()
                  + " "
                  + ex.getRequestURI().getPath()
                  + " "
                  + ex.getRequestHeaders().getFirst("Authorization")
                  + " "
                  + body);
          String answer =
              ex.getRequestURI().getPath().equals("/v1/recall")
                  ? "{\"records\":[],\"block\":\"Relevant memories (newest first):\\n- [2026-05-01] My dog is called Biscuit.\","
                      + "\"tokens_used\":7,\"block_tokens\":20}"
                  : "{\"accepted\":[],\"duplicates\":[],\"queued\":0,\"records\":[]}";
          byte[] b = answer.getBytes(StandardCharsets.UTF_8);
          ex.getResponseHeaders().add("Content-Type", "application/json");
          ex.sendResponseHeaders(200, b.length);
          ex.getResponseBody().write(b);
          ex.close();
        });
    stub.start();
    try {
      runner
          .withPropertyValues(
              "mnemo.mode=remote",
              "mnemo.url=http://127.0.0.1:" + stub.getAddress().getPort(),
              "mnemo.api-key=mnemo_k_secret",
              "mnemo.advisor.budget-tokens=250")
          .run(
              ctx -> {
                assertThat(ctx).hasNotFailed().getBean(Mnemo.class).isInstanceOf(MnemoClient.class);
                ScriptedChatModel model = new ScriptedChatModel();
                ChatClient chat =
                    ChatClient.builder(model)
                        .defaultAdvisors(ctx.getBean(MnemoAdvisor.class))
                        .build();
                say(chat, "maya", "c2", "What is my dog called?");
                assertThat(model.systems.getLast()).contains("My dog is called Biscuit.");
              });
      assertThat(seen).hasSize(2);
      assertThat(seen.get(0))
          .startsWith("POST /v1/recall Bearer mnemo_k_secret ")
          .contains("\"owner\":\"maya\"")
          .contains("\"budget_tokens\":250");
      assertThat(seen.get(1))
          .startsWith("POST /v1/ingest Bearer mnemo_k_secret ")
          .contains("What is my dog called?")
          .contains("\"episode\":\"c2\"")
          .contains("Noted.");
    } finally {
      stub.stop(0);
    }
  }

  @Test
  void remote_withoutUrl_failsTheStart_namingTheProperty() {
    runner
        .withPropertyValues("mnemo.mode=remote")
        .run(
            ctx ->
                assertThat(ctx)
                    .hasFailed()
                    .getFailure()
                    .rootCause()
                    .hasMessageContaining("mnemo.url must be set"));
    runner
        .withPropertyValues("mnemo.mode=sideways")
        .run(ctx -> assertThat(ctx).hasFailed().getFailure().hasStackTraceContaining("mnemo.mode"));
  }

  @Test
  void theAdvisorCanBeTurnedOff_andAnApplicationsOwnMnemoWins(@TempDir Path dir) {
    runner
        .withPropertyValues(
            "mnemo.directory=" + dir, "mnemo.embedder=none", "mnemo.advisor.enabled=false")
        .run(ctx -> assertThat(ctx).hasSingleBean(Mnemo.class).doesNotHaveBean(MnemoAdvisor.class));
    Mnemo own =
        Mnemo.builder().store(LuceneMemoryStore.open(dir.resolve("own"))).withoutEmbedder().build();
    runner
        .withBean(Mnemo.class, () -> own)
        .run(ctx -> assertThat(ctx.getBean(Mnemo.class)).isSameAs(own));
  }

  @Test
  void everyPropertyIsDescribed_forIdes() throws Exception {
    try (var in =
        MnemoAutoConfiguration.class.getResourceAsStream(
            "/META-INF/spring-configuration-metadata.json")) {
      assertThat(in).as("generated by spring-boot-configuration-processor").isNotNull();
      String json = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      assertThat(json)
          .contains(
              "\"mnemo.mode\"",
              "\"mnemo.url\"",
              "\"mnemo.api-key\"",
              "\"mnemo.advisor.budget-tokens\"");
    }
  }
}

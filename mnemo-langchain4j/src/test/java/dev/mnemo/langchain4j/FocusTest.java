package dev.mnemo.langchain4j;

import static org.assertj.core.api.Assertions.assertThat;

import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.rag.query.Query;
import dev.mnemo.Focus;
import dev.mnemo.Mnemo;
import dev.mnemo.RecallRequest;
import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The retriever and the chat memory recall with a focus: built from the message by rule, or as
 * configured.
 */
class FocusTest {
  private static final String CHATTY =
      "Ugh, the weather is awful and my train was late again. Which editor does Maya use?";

  @TempDir Path dir;
  private Mnemo real;
  private Mnemo mnemo;
  private final List<RecallRequest> requests = new CopyOnWriteArrayList<>();

  @BeforeEach
  void open() {
    real = Mnemo.builder().directory(dir).withoutEmbedder().build();
    // The real engine, with every recall request kept for the assertions.
    mnemo =
        (Mnemo)
            Proxy.newProxyInstance(
                Mnemo.class.getClassLoader(),
                new Class<?>[] {Mnemo.class},
                (p, m, args) -> {
                  if (m.getName().equals("recall")) requests.add((RecallRequest) args[0]);
                  try {
                    return m.invoke(real, args);
                  } catch (java.lang.reflect.InvocationTargetException e) {
                    throw e.getCause();
                  }
                });
  }

  @AfterEach
  void close() {
    real.close();
  }

  @Test
  void retriever_byDefault_focusesOnTheQuestionsOfTheMessage() {
    MnemoContentRetriever.builder(mnemo).owner("maya").build().retrieve(Query.from(CHATTY));
    assertThat(requests)
        .singleElement()
        .satisfies(
            r -> {
              assertThat(r.query()).isEqualTo(CHATTY);
              assertThat(r.focus()).isEqualTo(Focus.fromMessage(CHATTY));
              assertThat(r.retrievalText())
                  .startsWith("Which editor does Maya use?")
                  .doesNotContain("weather");
            });
  }

  @Test
  void retriever_withAFocusFunction_usesIt_andNoneSearchesTheWholeMessage() {
    MnemoContentRetriever.builder(mnemo)
        .owner("maya")
        .focus(m -> new Focus(null, "set up Maya's laptop", null, List.of()))
        .build()
        .retrieve(Query.from(CHATTY));
    MnemoContentRetriever.builder(mnemo)
        .owner("maya")
        .focus(m -> Focus.NONE)
        .build()
        .retrieve(Query.from(CHATTY));
    assertThat(requests.get(0).retrievalText()).isEqualTo("set up Maya's laptop");
    assertThat(requests.get(1).retrievalText()).isEqualTo(CHATTY);
  }

  @Test
  void chatMemory_byDefault_focusesOnTheQuestionsOfTheUsersMessage() {
    MnemoChatMemory memory = MnemoChatMemory.builder(mnemo).build("maya");
    memory.add(UserMessage.from(CHATTY));
    memory.messages();
    assertThat(requests)
        .isNotEmpty()
        .allSatisfy(r -> assertThat(r.focus()).isEqualTo(Focus.fromMessage(CHATTY)));
  }
}

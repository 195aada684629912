package dev.mnemo.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.Authority;
import dev.mnemo.Category;
import dev.mnemo.Mnemo;
import dev.mnemo.NewMemory;
import dev.mnemo.RecallRequest;
import dev.mnemo.RecallResult;
import dev.mnemo.spi.Embedder;
import dev.mnemo.spi.ForwardingEmbedder;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The fetch gate's invariances, on the default engine a user gets ({@code Mnemo.builder()
 * .directory(..)}: the Lucene store, local e5 embeddings, the shipped relevance model and its
 * default {@code min_relevance}). A clear match is selected whatever the record's importance,
 * category, authority or dates, in a store of one record and among a hundred unrelated ones, in the
 * first person as in the third; the gate's probability does not move with a write-time prior at all
 * (none is an input of the model).
 */
class GateInvarianceTest {
  @TempDir Path dir;

  private static final Instant T0 = Instant.parse("2026-01-05T10:00:00Z");

  private Mnemo open(String name) {
    return Mnemo.builder().directory(dir.resolve(name)).build();
  }

  private static RecallResult ask(Mnemo m, String owner, String question) {
    return m.recall(RecallRequest.builder(owner, question).explain(true).build());
  }

  private static double probability(RecallResult r, String text) {
    return r.trace().candidates().stream()
        .filter(c -> c.text().equals(text))
        .findFirst()
        .orElseThrow()
        .relevance()
        .probability();
  }

  private static List<String> texts(RecallResult r) {
    return r.selected().stream().map(s -> s.record().text()).toList();
  }

  /** A dozen facts of Hanna's, the cat among them with {@code cat}'s priors. */
  private static List<NewMemory> hanna(String owner, UnaryOperator<NewMemory.Builder> cat) {
    String[] facts = {
      "Hanna works as a pharmacist in Graz.",
      "Hanna plays the violin in a string quartet.",
      "Hanna is allergic to walnuts.",
      "Hanna drives a blue Skoda estate.",
      "Hanna grew up near Lake Constance.",
      "Hanna runs along the river on Sunday mornings.",
      "Hanna is learning Japanese for a trip next year.",
      "Hanna prefers green tea to coffee.",
      "Hanna's brother Felix lives in Vienna.",
      "Hanna volunteers at the animal shelter.",
      "Hanna reads crime novels on the train.",
    };
    List<NewMemory> out = new ArrayList<>();
    for (int i = 0; i < facts.length; i++)
      out.add(NewMemory.builder(owner, facts[i]).recordedAt(T0.plusSeconds(86_400L * i)).build());
    out.add(
        cat.apply(
                NewMemory.builder(owner, "Hanna has a grey cat named Pixel.")
                    .recordedAt(T0.plusSeconds(86_400L * 20)))
            .build());
    return out;
  }

  @Test
  void aClearMatchPassesWhateverItsPriors() {
    List<UnaryOperator<NewMemory.Builder>> priors =
        List.of(
            b -> b,
            b -> b.importance(0.05),
            b -> b.importance(0.44),
            b -> b.importance(0.8),
            b -> b.importance(1.0),
            b -> b.authority(Authority.DERIVED),
            b -> b.authority(Authority.VERIFIED),
            b -> b.category(Category.EPISODIC),
            b -> b.category(Category.PROCEDURAL),
            b -> b.validFrom(Instant.parse("2019-03-01T00:00:00Z")),
            b -> b.recordedAt(T0.minusSeconds(86_400L * 400)));
    String question = "What's the name of Hanna's cat?";
    List<Double> seen = new ArrayList<>();
    try (Mnemo m = open("priors")) {
      for (int i = 0; i < priors.size(); i++) {
        String owner = "hanna-" + i;
        m.rememberAll(hanna(owner, priors.get(i)));
        RecallResult r = ask(m, owner, question);
        assertThat(texts(r)).as("variant %d", i).contains("Hanna has a grey cat named Pixel.");
        seen.add(probability(r, "Hanna has a grey cat named Pixel."));
      }
    }
    // Importance and authority are not inputs at all: the same match, the same probability.
    for (int i = 1; i <= 6; i++) assertThat(seen.get(i)).isEqualTo(seen.get(0));
  }

  @Test
  void plainFactsInAStoreOfOneRecord() {
    String[][] cases = {
      {"Maya writes all her code in Vim.", "Which editor does Maya use?"},
      {"Zora keeps her spare key under the blue flowerpot.", "Where is the spare key?"},
      {"Tom is allergic to penicillin.", "Is Tom allergic to any medication?"},
      {"Priya has a golden retriever called Mango.", "What's the name of Priya's dog?"},
    };
    try (Mnemo m = open("one")) {
      for (int i = 0; i < cases.length; i++) {
        String owner = "one-" + i;
        m.remember(NewMemory.builder(owner, cases[i][0]).recordedAt(T0).build());
        assertThat(texts(ask(m, owner, cases[i][1]))).as(cases[i][1]).containsExactly(cases[i][0]);
      }
    }
  }

  /**
   * Without the embedder's companion model (a remote embedder, none, or one that failed to load)
   * the name-free comparison is missing, and the trees decide on the other features: a plain match
   * still passes the default gate, and with no embedder at all a request's own threshold.
   */
  @Test
  void aMatchPassesWithoutTheCompanionModel() {
    String fact = "Maya writes all her code in Vim.";
    String question = "Which editor does Maya use?";
    try (Embedder e5 = new dev.mnemo.embed.E5SmallEmbedder()) {
      Embedder alone =
          new ForwardingEmbedder(e5) {
            @Override
            public Embedder companion() {
              return null;
            }
          };
      try (Mnemo m = Mnemo.builder().directory(dir.resolve("alone")).embedder(alone).build()) {
        m.remember(NewMemory.builder("maya", fact).recordedAt(T0).build());
        assertThat(texts(ask(m, "maya", question))).containsExactly(fact);
      }
    }
    try (Mnemo m = Mnemo.builder().directory(dir.resolve("none")).withoutEmbedder().build()) {
      m.remember(NewMemory.builder("maya", "Maya is allergic to peanuts.").recordedAt(T0).build());
      RecallResult r =
          m.recall(
              RecallRequest.builder("maya", "is Maya allergic to peanuts")
                  .minRelevance(0.01)
                  .build());
      assertThat(texts(r)).containsExactly("Maya is allergic to peanuts.");
    }
  }

  /**
   * The other side of a store of one record: a question the record does not answer gets nothing,
   * though the record names the same person (the owner's name is a match a retrieval model reads as
   * relevance; the gate's name-free comparison does not).
   */
  @Test
  void anUnrelatedQuestionGetsNothingInAStoreOfOneRecord() {
    String[][] cases = {
      {"Wyn keeps bees in her garden.", "How tall is Wyn?"},
      {"Leo works as a nurse at the city hospital.", "What's Leo's favourite band?"},
      {"Ben is training for the Berlin marathon in September.", "What is Ben's favourite food?"},
      {"I take my coffee black with no sugar.", "What time do I usually wake up?"},
    };
    try (Mnemo m = open("unrelated")) {
      for (int i = 0; i < cases.length; i++) {
        String owner = "unrelated-" + i;
        m.remember(NewMemory.builder(owner, cases[i][0]).recordedAt(T0).build());
        assertThat(texts(ask(m, owner, cases[i][1]))).as(cases[i][1]).isEmpty();
      }
    }
  }

  @Test
  void theFirstPersonIsTheOwner() {
    try (Mnemo m = open("first")) {
      m.rememberAll(
          List.of(
              NewMemory.builder("me", "I have a golden retriever called Mango.")
                  .recordedAt(T0)
                  .build(),
              NewMemory.builder("me", "I work as a nurse in Leeds.")
                  .recordedAt(T0.plusSeconds(60))
                  .build()));
      assertThat(texts(ask(m, "me", "What's the name of my dog?")))
          .contains("I have a golden retriever called Mango.");
      assertThat(texts(ask(m, "me", "Where does Sarah work?")))
          .as("a first-person record does not lack the name a question uses for its owner")
          .contains("I work as a nurse in Leeds.");
    }
  }

  @Test
  void aMatchStaysSelectedAmongAHundredUnrelatedRecords() {
    String question = "What's the name of Hanna's cat?";
    try (Mnemo m = open("crowd")) {
      m.rememberAll(hanna("h", b -> b));
      assertThat(texts(ask(m, "h", question))).contains("Hanna has a grey cat named Pixel.");
      List<NewMemory> noise = new ArrayList<>();
      String[] topics = {
        "the quarterly budget review", "a broken printer", "the team offsite", "a delayed parcel",
        "the new parking rules", "a cancelled train", "the office plants", "a software update",
        "the canteen menu", "a fire drill"
      };
      for (int i = 0; i < 100; i++)
        noise.add(
            NewMemory.builder("h", "Note " + i + " about " + topics[i % topics.length] + ".")
                .recordedAt(T0.plusSeconds(86_400L * 30 + i))
                .build());
      m.rememberAll(noise);
      assertThat(texts(ask(m, "h", question))).contains("Hanna has a grey cat named Pixel.");
    }
  }

  @Test
  void aRecordHoldingTheQuestionsRareWordsIsSelected() {
    try (Mnemo m = open("words")) {
      m.rememberAll(hanna("h", b -> b));
      m.remember(
          NewMemory.builder("h", "Hanna's locker code at the climbing gym is 4471.")
              .recordedAt(T0.plusSeconds(86_400L * 40))
              .build());
      assertThat(texts(ask(m, "h", "What is the locker code at the climbing gym?")))
          .contains("Hanna's locker code at the climbing gym is 4471.");
    }
  }

  /**
   * An empty answer says what the gate withheld, traced or not, and the CLI line names {@code
   * min_relevance}; a selected record's relevance is the probability the gate compared. (The
   * threshold is the request's here: what is under test is the report, not the default's
   * abstention.)
   */
  @Test
  void anAnswerSaysWhatTheGateWithheld() {
    String airline = "Which airline does Hanna usually fly with?";
    try (Mnemo m = open("withheld")) {
      m.rememberAll(hanna("h", b -> b));
      RecallResult none = m.recall(RecallRequest.builder("h", airline).minRelevance(0.5).build());
      assertThat(none.selected()).isEmpty();
      RecallResult.Withheld w = none.withheld();
      assertThat(w.searched()).isTrue();
      assertThat(w.minRelevance()).isPositive();
      assertThat(w.count()).isPositive();
      assertThat(w.bestRelevance()).isLessThan(w.minRelevance());
      assertThat(ExplainPrinter.nothingSelected(none))
          .startsWith(w.count() + " candidate")
          .contains("withheld below min_relevance")
          .contains("0 turns the gate off");
      RecallResult traced =
          m.recall(RecallRequest.builder("h", airline).minRelevance(0.5).explain(true).build());
      assertThat(RecallResult.Withheld.of(traced.trace()).bestRelevance())
          .isEqualTo(traced.withheld().bestRelevance());

      RecallResult cat = ask(m, "h", "What's the name of Hanna's cat?");
      assertThat(cat.selected()).isNotEmpty();
      assertThat(cat.selected().get(0).relevance())
          .isEqualTo(probability(cat, "Hanna has a grey cat named Pixel."))
          .isGreaterThanOrEqualTo(cat.withheld().minRelevance());

      RecallResult thanks = m.recall(RecallRequest.builder("h", "Thanks a lot!").build());
      assertThat(thanks.withheld().searched()).isFalse();
      assertThat(ExplainPrinter.nothingSelected(thanks)).contains("--min-relevance 0");
    }
  }
}

package dev.mnemo.nlp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.text.Entities;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Function;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The model-based entity finder against the capitalization heuristic on a small hand-written
 * fixture (chat-like sentences, the names a person would mark). Prints both scores; asserts what
 * the model must do.
 */
class OpenNlpEntitiesTest {
  static OpenNlpEntities nlp;
  static long loadMillis;

  @BeforeAll
  static void load() {
    long t0 = System.nanoTime();
    nlp = OpenNlpEntities.load();
    loadMillis = (System.nanoTime() - t0) / 1_000_000;
  }

  /** Sentence, then the names it contains (normalized keys). */
  static final List<List<String>> FIXTURE =
      List.of(
          List.of("Maya moved to Lisbon last spring.", "maya", "lisbon"),
          List.of("Which editor does Maya use?", "maya"),
          List.of("Thanks! That sounds great.", ""),
          List.of("I had lunch with Sam's sister in New York.", "sam", "new york", "new", "york"),
          List.of("SAM says the deadline moved to Friday.", "sam"),
          List.of("Honestly I think the new job at Google suits her.", "google"),
          List.of("Great news, Caroline got the adoption approved!", "caroline"),
          List.of("We drove from Porto to Madrid in one day.", "porto", "madrid"),
          List.of(
              "Melanie painted a sunset over Lake Tahoe.",
              "melanie",
              "lake tahoe",
              "lake",
              "tahoe"),
          List.of("Yesterday I finally finished reading Dune.", "dune"),
          List.of("My dog Biscuit hates the vacuum cleaner.", "biscuit"),
          List.of("Absolutely, let's meet on Monday near the station.", ""),
          List.of("Omar recommended a Thai place called Baan.", "omar", "baan"),
          List.of("Wow, Paris in April must have been lovely.", "paris"),
          List.of("Sounds good, see you soon!", ""),
          List.of("Jon started a bakery with his friend Gina in Boston.", "jon", "gina", "boston"),
          List.of("Maybe we could try the hiking trail again.", ""),
          List.of("Did Priya ever finish the Kyoto trip plan?", "priya", "kyoto"),
          List.of("Congrats on the marathon, Tom!", "tom"),
          List.of(
              "Spotify keeps recommending Taylor Swift to me.",
              "spotify",
              "taylor swift",
              "taylor",
              "swift"));

  @Test
  void sam_samsAndSAM_meet_andFunctionWordsAreNotNames() {
    assertThat(nlp.apply("Sam's bike")).contains("sam");
    assertThat(nlp.apply("SAM called")).contains("sam");
    assertThat(nlp.apply("Which editor does Maya use?")).containsExactly("maya");
    assertThat(nlp.apply("thanks, that sounds great")).isEmpty();
    assertThat(nlp.apply("")).isEmpty();
  }

  @Test
  void onTheFixture_theModelIsMeasuredAgainstTheHeuristic() {
    double[] model = score(nlp);
    double[] heuristic = score(Entities::extract);
    System.out.printf(
        Locale.ROOT,
        "entity fixture (%d sentences): opennlp P %.3f R %.3f F1 %.3f; heuristic P %.3f R %.3f "
            + "F1 %.3f; model load %d ms%n",
        FIXTURE.size(),
        model[0],
        model[1],
        model[2],
        heuristic[0],
        heuristic[1],
        heuristic[2],
        loadMillis);
    assertThat(model[2])
        .as("F1 of the model-confirmed names against the heuristic's")
        .isGreaterThan(heuristic[2]);
  }

  private static double[] score(Function<String, List<String>> finder) {
    int tp = 0;
    int fp = 0;
    int fn = 0;
    for (List<String> row : FIXTURE) {
      Set<String> gold = new HashSet<>(row.subList(1, row.size()));
      gold.remove("");
      Set<String> got = new HashSet<>(finder.apply(row.get(0)));
      for (String g : got)
        if (gold.contains(g)) tp++;
        else fp++;
      for (String g : gold) if (!got.contains(g)) fn++;
    }
    double p = tp + fp == 0 ? 1 : (double) tp / (tp + fp);
    double r = tp + fn == 0 ? 1 : (double) tp / (tp + fn);
    return new double[] {p, r, p + r == 0 ? 0 : 2 * p * r / (p + r)};
  }
}

package dev.mnemo.write;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.write.SameFact.Kind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SameFactTest {

  /** A preference match: the attribute is the liking of the thing, in the newer text's words. */
  private static SameFact.Match preference(Kind kind, String attribute) {
    return new SameFact.Match(kind, "subject+attribute", true, false, attribute);
  }

  @Test
  void oppositePreferences_ofTheSameSubjectAndThing_contradict() {
    assertThat(SameFact.match("I have come to enjoy maths.", "I do not like maths."))
        .contains(preference(Kind.CONTRADICTS, "likes math"));
    assertThat(SameFact.match("I no longer like maths.", "I love maths."))
        .contains(preference(Kind.CONTRADICTS, "likes math"));
    assertThat(SameFact.match("Maya hates cold showers.", "Maya enjoys cold showers."))
        .contains(preference(Kind.CONTRADICTS, "likes cold shower"));
  }

  @Test
  void samePreference_saidAgainInOtherWords_restates() {
    assertThat(SameFact.match("I really enjoy jazz.", "I like jazz a lot."))
        .contains(preference(Kind.RESTATES, "likes jazz"));
    assertThat(SameFact.match("I don't like mushrooms.", "I hate mushrooms."))
        .contains(preference(Kind.RESTATES, "likes mushroom"));
  }

  @Test
  void nearDuplicateText_restatesOrContradicts() {
    assertThat(
            SameFact.match(
                "Maya writes all her code in Vim.", "Maya writes all of her code in Vim!"))
        .contains(new SameFact.Match(Kind.RESTATES, "near-duplicate"));
    assertThat(SameFact.match("Alex is not allergic to peanuts.", "Alex is allergic to peanuts."))
        .contains(new SameFact.Match(Kind.CONTRADICTS, "near-duplicate"));
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "I like jazz.|I like hiking.",
        "Maya likes tea.|Lena likes tea.",
        "I love my sister Ana.|I love Lisbon in the spring.",
        "She likes maths.|I like maths.",
        "The deploy runs on Fridays.|The backup runs on Sundays.",
        "I like tea in the morning.|I like coffee after lunch."
      })
  void differentSubjectsOrThings_neverMatch(String a, String b) {
    assertThat(SameFact.match(a, b)).isEmpty();
  }
}

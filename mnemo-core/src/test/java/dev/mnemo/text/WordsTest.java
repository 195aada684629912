package dev.mnemo.text;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Set;
import org.junit.jupiter.api.Test;

class WordsTest {

  @Test
  void aFactKeyReadsAsTheWordsOfItsAttribute() {
    assertThat(Words.factKeyWords("home_city")).isEqualTo("home city");
    assertThat(Words.factKeyWords("homeCity")).isEqualTo("home city");
    assertThat(Words.factKeyWords("user.home-city")).isEqualTo("home city");
    assertThat(Words.factKeyWords("maya/diet")).isEqualTo("maya diet");
    assertThat(Words.factKeyWords("preferredIDE")).isEqualTo("preferred ide");
    assertThat(Words.factKeyWords("HTTPServer")).isEqualTo("http server");
    // Opaque and derived keys say nothing about the attribute.
    assertThat(Words.factKeyWords("k17")).isEmpty();
    assertThat(Words.factKeyWords("3f2a9c1e-77b0-4c1d-9a55-0e4b1f6d2c10")).isEmpty();
    assertThat(Words.factKeyWords("auto/mem_7f3a")).isEmpty();
    assertThat(Words.factKeyWords(null)).isEmpty();
    assertThat(Words.withFactKey("diet", "Maya eats fish but no meat."))
        .isEqualTo("diet: Maya eats fish but no meat.");
    assertThat(Words.withFactKey(null, "Maya eats fish.")).isEqualTo("Maya eats fish.");
  }

  @Test
  void greetingsThanksAndAcknowledgementsAreSmallTalk() {
    assertThat(Words.isSmallTalk("Hi!")).isTrue();
    assertThat(Words.isSmallTalk("Thanks, that was helpful.")).isTrue();
    assertThat(Words.isSmallTalk("Hey Sam, how's it going?")).isTrue();
    assertThat(Words.isSmallTalk("ok")).isTrue();
    assertThat(Words.isSmallTalk("Good morning!")).isTrue();
  }

  @Test
  void aMessageWithContentIsNotSmallTalk() {
    assertThat(Words.isSmallTalk("What's my sister's name?")).isFalse();
    assertThat(Words.isSmallTalk("What does Alice like?")).isFalse();
    assertThat(Words.isSmallTalk("What does Bob do? Allergies?")).isFalse();
    assertThat(Words.isSmallTalk("Hi, which editor does Maya use?")).isFalse();
    assertThat(Words.isSmallTalk("Convert 30 degrees Celsius to Fahrenheit")).isFalse();
    assertThat(Words.isSmallTalk("")).isFalse();
  }

  @Test
  void contentStemsLeaveOutAskingWordsAndIgnoredNames() {
    assertThat(Words.contentStems("What is Maya's blood type?", Set.of("maya")))
        .containsExactly("blood");
    assertThat(Words.contentStems("Where did Maya move to?", Set.of()))
        .containsExactly("maya", "move");
  }

  @Test
  void stemsMeetAcrossInflections() {
    assertThat(Words.stem("moving")).isEqualTo(Words.stem("moves")).isEqualTo("mov");
    assertThat(Words.stem("cats")).isEqualTo("cat");
    assertThat(Words.stem("glass")).isEqualTo("glass");
  }
}

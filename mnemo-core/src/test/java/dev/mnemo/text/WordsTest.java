package dev.mnemo.text;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Set;
import org.junit.jupiter.api.Test;

class WordsTest {

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
    assertThat(Words.contentStems("What is Maya's blood type?", Set.of("maya"))).containsExactly("blood");
    assertThat(Words.contentStems("Where did Maya move to?", Set.of())).containsExactly("maya", "move");
  }

  @Test
  void stemsMeetAcrossInflections() {
    assertThat(Words.stem("moving")).isEqualTo(Words.stem("moves")).isEqualTo("mov");
    assertThat(Words.stem("cats")).isEqualTo("cat");
    assertThat(Words.stem("glass")).isEqualTo("glass");
  }
}

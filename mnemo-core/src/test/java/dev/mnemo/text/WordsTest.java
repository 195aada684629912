package dev.mnemo.text;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Set;
import org.junit.jupiter.api.Test;

class WordsTest {

  /** What {@link Words#words} scans for, as the regular expression it replaced. */
  private static final java.util.regex.Pattern WORD =
      java.util.regex.Pattern.compile("[\\p{L}\\p{N}][\\p{L}\\p{N}'’]*");

  @Test
  void theWordScan_findsWhatTheRegularExpressionFinds() {
    // letters and numbers of several scripts and categories (Nd, Nl, No), apostrophes, combining
    // marks, surrogate pairs (a letter and an emoji), a lone surrogate, punctuation and spaces
    int[] alphabet = {
      'a', 'Z', 'é', 'ß', '0', '9', '\'', '’', ' ', '-', '.', ',', '_', '\n', 'Σ', 'ж', '中', 'ア',
      '٣', '६', 'Ⅻ', '²', '½', '\u0301', '\u00A0', 0x1D400, 0x1F600, 0xD800, 'İ', 'ǅ', 'ʰ', '$'
    };
    java.util.Random random = new java.util.Random(17);
    for (int round = 0; round < 20_000; round++) {
      StringBuilder text = new StringBuilder();
      int length = random.nextInt(40);
      for (int i = 0; i < length; i++)
        text.appendCodePoint(alphabet[random.nextInt(alphabet.length)]);
      java.util.List<String> expected = new java.util.ArrayList<>();
      var m = WORD.matcher(text);
      while (m.find()) expected.add(Words.lower(m.group()));
      assertThat(Words.words(text.toString())).as(text.toString()).isEqualTo(expected);
    }
    assertThat(Words.words("Maya's flat, 2 rooms")).containsExactly("maya", "flat", "2", "rooms");
    assertThat(Words.words(null)).isEmpty();
  }

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

  @Test
  void aDerivedKey_givesTheWordsOfTheAttributeItNames_andNoneOfTheId() {
    String id = "0aeaf7c5-4167-abcd-9747-387e12982706";
    assertThat(Words.derivedKey(id, "lives in")).isEqualTo("auto/" + id + "/slot:lives-in");
    assertThat(Words.factKeyWords(Words.derivedKey(id, "lives in"))).isEqualTo("lives in");
    assertThat(Words.factKeyWords(Words.derivedKey(id, "uses for editing code")))
        .isEqualTo("uses for editing code");
    // without an attribute: the opaque key of before, which gives no words
    assertThat(Words.derivedKey(id, "")).isEqualTo("auto/" + id);
    assertThat(Words.factKeyWords("auto/" + id)).isEmpty();
    assertThat(Words.withFactKey(Words.derivedKey(id, "works at"), "I joined Globex."))
        .isEqualTo("works at: I joined Globex.");
    // an attribute's punctuation is a separator; a long one is cut at a word
    assertThat(Words.derivedKey(id, "  Lives, in! ")).isEqualTo("auto/" + id + "/slot:lives-in");
    assertThat(Words.derivedKey(id, "word ".repeat(40)).length())
        .isLessThanOrEqualTo(("auto/" + id + "/slot:").length() + 64);
  }
}

package dev.mnemo.write;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.write.SameFact.Kind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The slot a statement fills, and how two slots of the same subject make one fact. */
class SlotsTest {

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "I live in Berlin.|self|residence|false",
        "I moved to Lisbon last month.|self|residence|true",
        "Lena relocated to Porto.|lena|residence|true",
        "Lena is based in Munich.|lena|residence|false",
        "Lena moved from Munich to Lisbon in 2024.|lena|residence|true",
        "I'm living in Hamburg now.|self|residence|false",
        "I work at Acme.|self|employer|false",
        "I joined Globex last week, so I'm done with Acme.|self|employer|true",
        "I'm vegetarian.|self|diet|false",
        "Pia went vegan.|pia|diet|true",
        "I started eating meat again last month.|self|diet|true",
      })
  void aStatement_fillsTheSlotOfItsSubjectAndAttribute(
      String text, String subject, String attribute, boolean change) {
    Slots.Slot s = Slots.of(text);
    assertThat(s).as(text).isNotNull();
    assertThat(s.subject()).isEqualTo(subject);
    assertThat(s.attribute()).isEqualTo(attribute);
    assertThat(s.change()).as("change").isEqualTo(change);
  }

  @Test
  void theValue_isTheClauseAfterTheVerb_withoutItsTimeWords() {
    assertThat(Slots.of("I moved to Lisbon last month.").value()).containsExactly("lisbon");
    Slots.Slot moved = Slots.of("Lena moved from Lisbon to Porto last month.");
    assertThat(moved.value()).containsExactly("porto");
    assertThat(moved.from()).containsExactly("lisbon");
  }

  @Test
  void aToolWithoutWhatItIsFor_isAnUncertainSlot() {
    assertThat(Slots.of("I use Vim for editing code.").certain()).isTrue();
    assertThat(Slots.of("I use Vim.").certain()).isFalse();
    assertThat(Slots.of("I use Vim.").attribute()).isEqualTo("tool:");
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "I am planning to move to Berlin.",
        "I will move to Lisbon next year.",
        "She lives in Rome.",
        "They moved to Porto.",
        "The weather in Lisbon is lovely.",
      })
  void plansPronounsAndOtherStatements_fillNoSlot(String text) {
    assertThat(Slots.of(text)).as(text).isNull();
  }

  @Test
  void livesInMovedToRelocatedToIsBasedIn_areOneSlot() {
    for (String older : new String[] {"I live in Berlin.", "I'm based in Berlin."}) {
      for (String newer :
          new String[] {"I moved to Lisbon.", "I relocated to Lisbon.", "I live in Lisbon now."}) {
        var m = SameFact.match(newer, older);
        assertThat(m).as(newer + " / " + older).isPresent();
        assertThat(m.get().kind()).isEqualTo(Kind.UPDATES);
        assertThat(m.get().rule()).isEqualTo("slot residence");
        assertThat(m.get().certain()).isTrue();
      }
    }
  }

  @Test
  void aMove_startsAState_aRestatementOfTheSameValue_restates() {
    var moved = SameFact.match("I moved to Lisbon last month.", "I live in Berlin.").orElseThrow();
    assertThat(moved.startsState()).isTrue();
    var same = SameFact.match("I live in Lisbon.", "I moved to Lisbon.").orElseThrow();
    assertThat(same.kind()).isEqualTo(Kind.RESTATES);
    assertThat(same.startsState()).isFalse();
  }

  @Test
  void aSwitchFromAValue_updatesTheRecordThatSaysIt() {
    var m =
        SameFact.match(
                "Lena moved from Lisbon to Porto last month.",
                "Lena moved from Munich to Lisbon in 2024.")
            .orElseThrow();
    assertThat(m.kind()).isEqualTo(Kind.UPDATES);
    var job =
        SameFact.match("I joined Globex last week, so I'm done with Acme.", "I work at Acme.")
            .orElseThrow();
    assertThat(job.kind()).isEqualTo(Kind.UPDATES);
    assertThat(job.rule()).isEqualTo("slot employer");
    var diet =
        SameFact.match("I started eating meat again last month.", "I'm vegetarian.").orElseThrow();
    assertThat(diet.rule()).isEqualTo("slot diet");
    var editor =
        SameFact.match(
                "I switched to VS Code for editing code last month.", "I use Vim for editing code.")
            .orElseThrow();
    assertThat(editor.kind()).isEqualTo(Kind.UPDATES);
    assertThat(editor.certain()).isTrue();
  }

  @Test
  void aToolWithoutItsPurpose_matchesUncertainly() {
    var m = SameFact.match("I use Emacs.", "I use Vim for editing code.").orElseThrow();
    assertThat(m.kind()).isEqualTo(Kind.UPDATES);
    assertThat(m.certain()).isFalse();
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "Lena lives in Porto.|Maya lives in Lisbon.",
        "I live in Porto.|Lena lives in Lisbon.",
        "I work at Globex.|I live in Berlin.",
        "I use Vim for editing code.|I use Slack for team chat.",
        "I'm vegetarian.|Lena is vegan.",
      })
  void otherSubjectsOrOtherAttributes_areNotTheSameFact(String newer, String older) {
    assertThat(SameFact.match(newer, older)).as(newer + " / " + older).isEmpty();
  }

  @ParameterizedTest
  @CsvSource({
    "I moved to Lisbon last month., I live in Berlin., 'home, lives in'",
    "Lena relocated to Porto., Lena is based in Lisbon., 'home, lives in'",
    "I joined Globex last week., I work at Acme., 'employer, works at'",
    "I started as a nurse., I work as a teacher., 'job, works as'",
    "I started eating meat again last month., I'm vegetarian., diet",
    "I switched to VS Code for editing code., I use Vim for editing code., uses for editing code",
    "I use Emacs., I use Vim for editing code., uses for editing code",
    "My birthday is actually June 19., My birthday is June 18., birthday",
    "I have come to love running., I don't like running., likes running",
  })
  void aMatch_namesTheAttribute_inTheWordsOfTheStateNotOfTheChange(
      String newer, String older, String attribute) {
    assertThat(SameFact.match(newer, older).orElseThrow().attribute())
        .as(newer + " / " + older)
        .isEqualTo(attribute);
  }

  @Test
  void aNearDuplicateOrASwitchFromAnUnknownSlot_namesNoAttribute() {
    assertThat(
            SameFact.match(
                    "Maya writes all her code in Vim.", "Maya writes all of her code in Vim!")
                .orElseThrow()
                .attribute())
        .isEmpty();
    assertThat(Slots.attributeWords(Slots.of("I switched from tea to coffee."))).isEmpty();
  }
}

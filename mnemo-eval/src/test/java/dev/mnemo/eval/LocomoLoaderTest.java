package dev.mnemo.eval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mnemo.eval.LocomoConversation.Question;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class LocomoLoaderTest {

  static final Path DIR = Path.of("src/test/resources/locomo");

  @Test
  void load_readsSpeakersSessionsAndTurns_namedAfterTheFile() {
    LocomoConversation c = LocomoLoader.load(DIR.resolve("tiny.json"));
    assertThat(c.name()).isEqualTo("tiny");
    assertThat(c.speakerA()).isEqualTo("Ana");
    assertThat(c.speakerB()).isEqualTo("Ben");
    assertThat(c.sessions()).extracting(LocomoConversation.Session::number).containsExactly(1, 2);
    assertThat(c.sessions().get(0).at()).isEqualTo(Instant.parse("2023-05-08T13:56:00Z"));
    assertThat(c.sessions().get(1).at()).isEqualTo(Instant.parse("2023-06-02T10:05:00Z"));
    assertThat(c.turns()).hasSize(7);
    assertThat(c.lastSessionAt()).isEqualTo(Instant.parse("2023-06-02T10:05:00Z"));
  }

  @Test
  void memoryText_isSpeakerAndText_withTheImageCaption() {
    LocomoConversation c = LocomoLoader.load(DIR.resolve("tiny.json"));
    assertThat(c.turns().get(0).memoryText())
        .isEqualTo("Ana: Hi Ben! I adopted a grey kitten called Pixel yesterday.");
    assertThat(c.turns().get(2).memoryText())
        .isEqualTo(
            "Ana: The one on Harbour Street. Look at her! [shares an image: a photo of a small grey cat on a sofa]");
  }

  @Test
  void annotations_areNeverPartOfTheConversation() {
    LocomoConversation c = LocomoLoader.load(DIR.resolve("tiny.json"));
    assertThat(c.turns()).noneMatch(t -> t.memoryText().contains("zeppelin"));
  }

  @Test
  void evidence_isNormalized_andIdsThatNameNoTurnAreSkipped() {
    List<Question> qs = LocomoLoader.load(DIR.resolve("tiny.json")).questions();
    assertThat(qs).extracting(Question::category).containsExactly(4, 1, 2, 5);
    assertThat(qs.get(1).evidence()).containsExactly("D1:4", "D2:1");
    assertThat(qs.get(1).skippedEvidence()).containsExactly("D9:9");
    assertThat(qs.get(2).evidence()).containsExactly("D1:1");
  }

  @Test
  void normalizeEvidence_splitsAndRepairsMalformedIds() {
    assertThat(LocomoLoader.normalizeEvidence("D8:6; D9:17")).containsExactly("D8:6", "D9:17");
    assertThat(LocomoLoader.normalizeEvidence("D:11:26")).containsExactly("D11:26");
    assertThat(LocomoLoader.normalizeEvidence("D30:05")).containsExactly("D30:5");
    assertThat(LocomoLoader.normalizeEvidence(" D1:3 ")).containsExactly("D1:3");
    assertThat(LocomoLoader.normalizeEvidence("D1:3,D1:4")).containsExactly("D1:3", "D1:4");
    assertThat(LocomoLoader.normalizeEvidence("nonsense")).containsExactly("nonsense");
  }

  @Test
  void sessionTime_readsAmAndPm_andRejectsOtherShapes() {
    assertThat(LocomoLoader.sessionTime("12:48 am on 1 February, 2023", "x"))
        .isEqualTo(Instant.parse("2023-02-01T00:48:00Z"));
    assertThat(LocomoLoader.sessionTime("9:55 AM on 22 October, 2023", "x"))
        .isEqualTo(Instant.parse("2023-10-22T09:55:00Z"));
    assertThatThrownBy(() -> LocomoLoader.sessionTime("2023-10-22", "f: session_3_date_time"))
        .hasMessageStartingWith("f: session_3_date_time must look like");
  }

  @Test
  void loadDir_readsEveryJsonFile() {
    assertThat(LocomoLoader.loadDir(DIR))
        .extracting(LocomoConversation::name)
        .containsExactly("tiny");
  }
}

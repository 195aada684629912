package dev.mnemo;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The hand-written answers the usage heuristic's thresholds were chosen on (docs/read-path.md). */
class UsedRecordsTest {
  private static final Instant T = Instant.parse("2026-04-01T10:00:00Z");

  private static MemoryRecord record(
      String id, String text, List<String> entities, Map<String, String> metadata) {
    return new MemoryRecord(
        id,
        "u",
        null,
        Category.SEMANTIC,
        text,
        null,
        List.of("s-" + id),
        null,
        -1,
        T,
        null,
        T,
        null,
        null,
        0,
        null,
        0.5,
        Authority.EXPLICIT,
        ConflictPolicy.SUPERSEDE,
        entities,
        0,
        null,
        null,
        null,
        metadata,
        List.of());
  }

  private final MemoryRecord tea =
      record("tea", "Maya likes green tea in the morning.", List.of("maya"), Map.of());
  private final MemoryRecord editor =
      record(
          "editor",
          "Maya: I switched from Vim to Emacs last year.",
          List.of("vim", "emacs", "maya"),
          Map.of("speaker", "Maya"));
  private final MemoryRecord trip =
      record(
          "trip",
          "Maya plans a trip to Kyoto in 2027 with Sam.",
          List.of("maya", "kyoto", "sam"),
          Map.of());
  private final MemoryRecord hiking =
      record(
          "hiking", "Maya goes hiking in the mountains most weekends.", List.of("maya"), Map.of());
  private final List<MemoryRecord> recalled = List.of(tea, editor, trip, hiking);

  @Test
  void aSharedNameOrNumber_marksARecordUsed() {
    assertThat(
            UsedRecords.in(
                "Which editor should I set up for Maya?", "Set up Emacs for her.", recalled))
        .containsExactly("editor");
    assertThat(UsedRecords.in("When is the big trip?", "The trip is planned for 2027.", recalled))
        .containsExactly("trip");
    assertThat(UsedRecords.in("Who is going along?", "Sam is going with her.", recalled))
        .containsExactly("trip");
  }

  @Test
  void twoSharedContentWords_markARecordUsed_oneDoesNot() {
    assertThat(
            UsedRecords.in(
                "What should I bring Maya?", "Some green tea would please her.", recalled))
        .containsExactly("tea");
    // one shared content word is staying on the topic, not using the record
    assertThat(
            UsedRecords.in(
                "What should I bring Maya?", "I don't know which drink she likes.", recalled))
        .isEmpty();
    assertThat(
            UsedRecords.in(
                "What does Maya do at weekends?", "She hikes in the mountains.", recalled))
        .containsExactly("hiking");
  }

  @Test
  void wordsOfTheQuestionAndTheSpeakersNameCountForNothing() {
    // "tea" and "morning" are the question's own words; "Maya" is every record's speaker or subject
    assertThat(
            UsedRecords.in(
                "Does Maya drink tea in the morning?",
                "Yes, Maya drinks tea in the morning.",
                recalled))
        .isEmpty();
    assertThat(UsedRecords.in("What editor does Maya use?", "Maya uses an editor.", recalled))
        .isEmpty();
    assertThat(UsedRecords.in(null, "I cannot tell.", recalled)).isEmpty();
    assertThat(UsedRecords.in("q", "", recalled)).isEmpty();
  }

  @Test
  void anAnswerCanUseSeveralRecords_inTheOrderGiven() {
    assertThat(
            UsedRecords.in(
                "Plan a weekend for Maya.",
                "Take her hiking in the mountains, then to a green tea house; she loves Kyoto.",
                recalled))
        .containsExactly("tea", "trip", "hiking");
  }
}

package dev.mnemo.write;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The time a statement is about, read at write time relative to when it was recorded. */
class EventTimesTest {
  private static final ZoneId UTC = ZoneOffset.UTC;

  private static EventTimes.Found find(String text, String recorded) {
    return EventTimes.find(text, Instant.parse(recorded), UTC).orElseThrow();
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        // text | recorded at | from | to
        "Lena moved from Munich to Lisbon in 2024.|2025-03-10T09:00:00Z|2024-01-01T00:00:00Z|2025-01-01T00:00:00Z",
        "Lena moved from Lisbon to Porto last month.|2026-03-12T09:00:00Z|2026-02-01T00:00:00Z|2026-03-01T00:00:00Z",
        "I ran the Berlin marathon last Sunday.|2026-04-28T10:00:00Z|2026-04-26T00:00:00Z|2026-04-27T00:00:00Z",
        "My dentist appointment was on the 3rd of July.|2026-07-10T10:00:00Z|2026-07-03T00:00:00Z|2026-07-04T00:00:00Z",
        "We went hiking 3 days ago.|2026-05-10T10:00:00Z|2026-05-07T00:00:00Z|2026-05-08T00:00:00Z",
      })
  void aStatement_isAboutTheTimeItNames_resolvedAgainstItsRecordedTime(
      String text, String recorded, String from, String to) {
    EventTimes.Found f = find(text, recorded);
    assertThat(f.time().from()).as(text).isEqualTo(Instant.parse(from));
    assertThat(f.time().to()).as(text).isEqualTo(Instant.parse(to));
    assertThat(text.toLowerCase()).contains(f.time().phrase().toLowerCase());
    assertThat(f.startsState()).isFalse();
  }

  @Test
  void since_startsAState_thatHoldsUntilTheStatementWasWritten() {
    EventTimes.Found f = find("I've been vegan since March.", "2026-06-01T10:00:00Z");
    assertThat(f.startsState()).isTrue();
    assertThat(f.time().from()).isEqualTo(Instant.parse("2026-03-01T00:00:00Z"));
    assertThat(f.time().to()).isEqualTo(Instant.parse("2026-06-01T10:00:00Z"));
    assertThat(f.time().phrase()).startsWithIgnoringCase("since");
  }

  @Test
  void aPlan_isAboutTheComingMonth_notTheLastOne() {
    EventTimes.Found plan = find("I'm planning a trip to Kyoto in April.", "2026-02-10T10:00:00Z");
    assertThat(plan.time().from()).isEqualTo(Instant.parse("2026-04-01T00:00:00Z"));
    assertThat(plan.time().to()).isEqualTo(Instant.parse("2026-05-01T00:00:00Z"));
    // Not a plan: the most recent April, as in a question.
    EventTimes.Found past = find("I was in Kyoto in April.", "2026-02-10T10:00:00Z");
    assertThat(past.time().from()).isEqualTo(Instant.parse("2025-04-01T00:00:00Z"));
    // A plan word in the past tense is not a plan: the appointment was this July, not next.
    EventTimes.Found was =
        find("My dentist appointment was on the 3rd of July.", "2026-07-10T10:00:00Z");
    assertThat(was.time().from()).isEqualTo(Instant.parse("2026-07-03T00:00:00Z"));
    EventTimes.Found is =
        find("My dentist appointment is on the 3rd of July.", "2026-07-10T10:00:00Z");
    assertThat(is.time().from()).isEqualTo(Instant.parse("2027-07-03T00:00:00Z"));
  }

  @Test
  void theMostSpecificExpression_wins() {
    EventTimes.Found f =
        find(
            "In 2025 I started climbing, my first lead was on the 3rd of July.",
            "2026-01-10T10:00:00Z");
    assertThat(f.time().from()).isEqualTo(Instant.parse("2025-07-03T00:00:00Z"));
  }

  @Test
  void theZone_decidesWhereADayStarts() {
    var f =
        EventTimes.find(
                "We met yesterday.",
                Instant.parse("2026-05-10T10:00:00Z"),
                ZoneId.of("Europe/Lisbon"))
            .orElseThrow();
    assertThat(f.time().from()).isEqualTo(Instant.parse("2026-05-08T23:00:00Z"));
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "I like tea.",
        "I live in Berlin.",
        "Maya may come along.",
        "I have lived here before 2024.",
      })
  void noTimeOrAnOpenBound_isNoEventTime(String text) {
    assertThat(
            EventTimes.find(text == null ? "" : text, Instant.parse("2026-05-10T10:00:00Z"), UTC))
        .as(text)
        .isEmpty();
  }
}

package dev.mnemo.write;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.Category;
import dev.mnemo.NewMemory;
import dev.mnemo.Turn;
import dev.mnemo.spi.Extractor;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class OfflineExtractorTest {
  private final OfflineExtractor x = new OfflineExtractor();
  private static final Instant WED = Instant.parse("2026-04-15T09:00:00Z"); // a Wednesday

  private List<NewMemory> extract(Turn... turns) {
    return x.extract(new Extractor.Batch("u", List.of(), List.of(turns), ZoneOffset.UTC));
  }

  private static Turn user(String id, String text) {
    return Turn.of("u", id, Turn.Role.USER, "Maya", text, WED);
  }

  @Test
  void greetingsThanksAndSmallTalk_areFiller_substantiveTurnsAreKept() {
    assertThat(OfflineExtractor.isSubstantive("Hey Mel! How are you doing today?")).isFalse();
    assertThat(OfflineExtractor.isSubstantive("Thanks so much, that sounds great!")).isFalse();
    assertThat(OfflineExtractor.isSubstantive("ok lol")).isFalse();
    assertThat(OfflineExtractor.isSubstantive("I moved to Berlin")).isTrue();
    assertThat(OfflineExtractor.isSubstantive("I love hiking")).isTrue();
    assertThat(extract(user("a", "Hi!"), user("b", "I finished my first marathon")))
        .extracting(NewMemory::sources)
        .containsExactly(List.of("b"));
  }

  private static Turn said(String id, String speaker, String text) {
    return Turn.of("u", id, Turn.Role.USER, speaker, text, WED).inEpisode("s1");
  }

  @Test
  void chatterEchoesAndBareQuestions_sayNothing_factsAboutPeopleDo() {
    List<NewMemory> out =
        extract(
            said(
                "1",
                "Jon",
                "Lost my job as a banker yesterday, so I'm gonna start my own business."),
            said(
                "2",
                "Gina",
                "Sorry about your job Jon, starting your own business sounds awesome!"), // echo +
            // reaction
            said("3", "Gina", "What business are you thinking of?"), // a bare question
            said(
                "4",
                "Jon",
                "I'm opening a dance studio, dancing has been my passion since I was a kid."),
            said(
                "5",
                "Gina",
                "Wow, your studio will look great! You'll be an awesome teacher. Keep it up!"), // compliments
            said("6", "Jon", "I'm after Marley flooring, it's grippy but still lets you move."),
            said(
                "7",
                "Gina",
                "Marley flooring is perfect, grippy and lets you move!"), // an echo of 6
            said("8", "Gina", "It's Shia Labeouf!"), // a name: says who
            said(
                "9",
                "Gina",
                "Should I pick the downtown space or the riverside loft for my store?"), // about
            // her
            said("10", "Gina", "The landlord wants 2 months of deposit."), // a number
            said(
                "11",
                "Gina",
                "They were awestruck and humbled by the festival crowd."), // a third party
            said("12", "Jon", "Great, you got this! We got this!"));
    assertThat(out)
        .extracting(m -> m.sources().get(0))
        .containsExactly("1", "4", "6", "8", "9", "10", "11");
    assertThat(
            OfflineExtractor.saysSomething(
                "Marley's perfect!", "I'm after Marley flooring", Set.of()))
        .isFalse();
    assertThat(OfflineExtractor.saysSomething("Marley's perfect!", null, Set.of()))
        .isFalse(); // no name inside
    assertThat(OfflineExtractor.saysSomething("I'm after Marley flooring.", null, Set.of()))
        .isTrue();
    // the dropped turns still serve as their neighbours' context
    assertThat(out.get(1).context()).contains("What business are you thinking of?");
  }

  @Test
  void relativeTimePhrases_resolveAgainstTheTurnsTime() {
    assertThat(extract(user("a", "I went to a pottery class last Saturday")).get(0).validFrom())
        .isEqualTo(Instant.parse("2026-04-11T00:00:00Z"));
    // "two weeks ago" is a calendar week (docs/time-expressions.md): the one starting Monday
    // 2026-03-30
    assertThat(extract(user("a", "We adopted the puppy two weeks ago")).get(0).validFrom())
        .isEqualTo(Instant.parse("2026-03-30T00:00:00Z"));
    NewMemory future = extract(user("a", "I will start a pottery class next month")).get(0);
    assertThat(future.validFrom()).isEqualTo(WED); // a future phrase is not when the fact began
    assertThat(future.metadata()).doesNotContainKey("time_expression");
  }

  @Test
  void cues_giveSemanticRecordsAndFactKeysWhereARuleNamesTheSlot() {
    NewMemory pref = extract(user("a", "My favourite colour is teal")).get(0);
    assertThat(pref.category()).isEqualTo(Category.SEMANTIC);
    assertThat(pref.factKey()).isEqualTo("maya/favorite colour");
    assertThat(pref.metadata()).containsEntry("kind", "preference");
    assertThat(extract(user("a", "I moved to Porto in March")).get(0).factKey())
        .isEqualTo("maya/residence");
    NewMemory goal = extract(user("a", "I want to run a marathon before I turn forty")).get(0);
    assertThat(goal.metadata()).containsEntry("kind", "goal");
    assertThat(goal.factKey()).isNull();
    assertThat(extract(user("a", "I'm struggling with the tax forms again")).get(0).metadata())
        .containsEntry("kind", "difficulty");
    NewMemory plain = extract(user("a", "The weather in Porto was rainy all weekend")).get(0);
    assertThat(plain.category()).isEqualTo(Category.EPISODIC);
    Turn assistant =
        Turn.of("u", "b", Turn.Role.ASSISTANT, "assistant", "I love that idea for the garden", WED);
    assertThat(extract(assistant).get(0).category()).isEqualTo(Category.EPISODIC);
    // speaker and role are what the read path's speaker signal reads
    assertThat(plain.metadata()).containsEntry("speaker", "Maya").containsEntry("role", "user");
    assertThat(extract(assistant).get(0).metadata()).containsEntry("role", "assistant");
  }

  @Test
  void textIsPrefixedWithTheSpeaker_entitiesIncludeIt_andImportanceFollowsTheRules() {
    NewMemory m = extract(user("a", "I decided to visit Kyoto with Sam in 2027")).get(0);
    assertThat(m.text()).isEqualTo("Maya: I decided to visit Kyoto with Sam in 2027");
    assertThat(m.entities()).contains("kyoto", "sam", "maya");
    assertThat(m.importance()).isEqualTo(0.9); // 0.4 + cue 0.3 + number 0.1 + other entity 0.1
    NewMemory q =
        extract(user("b", "should I cook the lasagne for my sister's dinner yesterday evening?"))
            .get(0);
    assertThat(q.importance()).isEqualTo(0.4); // 0.4 + past time 0.1 - question 0.1
  }

  @Test
  void neighbouringTurnsOfTheSameEpisode_areTheContext() {
    List<NewMemory> out =
        extract(
            user("a", "I planted tomatoes in the garden").inEpisode("s1"),
            user("b", "They need a lot of water in summer").inEpisode("s1"),
            user("c", "Different session about bicycles and repairs").inEpisode("s2"));
    assertThat(out.get(1).context()).contains("planted tomatoes").doesNotContain("bicycles");
    assertThat(out.get(2).context()).isNull();
  }
}

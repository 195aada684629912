package dev.mnemo.eval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.mnemo.MemoryRecord;
import dev.mnemo.Mnemo;
import dev.mnemo.NewMemory;
import dev.mnemo.json.JsonCodec;
import dev.mnemo.spi.Eligibility;
import dev.mnemo.testkit.HashingEmbedder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HistoryGeneratorTest {

  private static final HistoryGenerator GEN = new HistoryGenerator(HistoryGenerator.DEFAULT_SEED);

  /**
   * The default seed and a few others: the structural checks must hold for any seed, not one lucky
   * draw.
   */
  private static final long[] SEEDS = {HistoryGenerator.DEFAULT_SEED, 1, 2, 3, 7, 2024};

  private static List<Scenario> scenarios(HistoryGenerator gen, String split, int n) {
    List<Scenario> out = new ArrayList<>();
    List<String> lines = gen.lines(split, n);
    for (int i = 0; i < lines.size(); i++) {
      out.add(
          ScenarioReader.parse(lines.get(i), "seed " + gen.seed() + " " + split + ":" + (i + 1)));
    }
    return out;
  }

  private static List<Scenario> scenarios(String split, int n) {
    return scenarios(GEN, split, n);
  }

  /** The default-sized splits of every seed of {@link #SEEDS}. */
  private static List<Scenario> both() {
    List<Scenario> all = new ArrayList<>();
    for (long seed : SEEDS) {
      HistoryGenerator gen = new HistoryGenerator(seed);
      all.addAll(scenarios(gen, "dev", HistoryGenerator.DEFAULT_DEV));
      all.addAll(scenarios(gen, "heldout", HistoryGenerator.DEFAULT_HELDOUT));
    }
    return all;
  }

  @Test
  void write_sameSeed_givesTheSameBytes_anotherSeedDoesNot(@TempDir Path tmp) throws IOException {
    List<Path> a = GEN.write(tmp.resolve("a"), 3, 4);
    List<Path> b =
        new HistoryGenerator(HistoryGenerator.DEFAULT_SEED).write(tmp.resolve("b"), 3, 4);
    List<Path> c = new HistoryGenerator(7).write(tmp.resolve("c"), 3, 4);
    assertThat(a)
        .extracting(p -> p.getFileName().toString())
        .containsExactly("dev.jsonl", "heldout.jsonl");
    for (int i = 0; i < 2; i++) {
      assertThat(Files.readAllBytes(a.get(i))).isEqualTo(Files.readAllBytes(b.get(i)));
      assertThat(Files.readAllBytes(a.get(i))).isNotEqualTo(Files.readAllBytes(c.get(i)));
    }
    assertThat(Files.readAllLines(a.get(0))).hasSize(3);
    assertThat(Files.readAllLines(a.get(1))).hasSize(4);
  }

  @Test
  void lines_moreHeldout_leavesEveryEarlierScenarioUnchanged() {
    assertThat(GEN.lines("heldout", 5)).isEqualTo(GEN.lines("heldout", 8).subList(0, 5));
    assertThat(GEN.lines("dev", 2)).isEqualTo(GEN.lines("dev", 10).subList(0, 2));
  }

  @Test
  void everyScenario_parses_withItsSplit_andIdsUniqueAcrossSplits(@TempDir Path tmp) {
    List<Path> files =
        GEN.write(tmp, HistoryGenerator.DEFAULT_DEV, HistoryGenerator.DEFAULT_HELDOUT);
    List<Scenario> all = ScenarioReader.read(files);
    assertThat(all).hasSize(30);
    assertThat(all.subList(0, 10)).allSatisfy(s -> assertThat(s.split()).isEqualTo("dev"));
    assertThat(all.subList(10, 30)).allSatisfy(s -> assertThat(s.split()).isEqualTo("heldout"));
    assertThat(all).allSatisfy(s -> assertThat(s.queries().size()).isBetween(10, 60));
  }

  @Test
  void everyExpectedAndForbiddenId_isAWriteOfItsScenario() {
    for (Scenario s : both()) {
      Set<String> ids = s.ownerByWriteId().keySet();
      for (ScenarioQuery q : s.queries()) {
        assertThat(ids)
            .as("%s %s", s.origin(), q.id())
            .containsAll(q.expect())
            .containsAll(q.forbid());
        assertThat(q.expectNone() || !q.expect().isEmpty())
            .as("%s %s tests something", s.origin(), q.id())
            .isTrue();
      }
    }
  }

  @Test
  void everyHistory_hasTwoOwnersWithTheSameFirstName_andForbidsTheOthersVersions() {
    for (Scenario s : both()) {
      Map<String, Set<String>> wordsInEveryText = new HashMap<>();
      for (NewMemory m : s.writes()) {
        Set<String> words = new HashSet<>(List.of(m.text().split("[^\\p{L}]+")));
        wordsInEveryText.merge(
            m.owner(),
            words,
            (x, y) -> {
              x.retainAll(y);
              return x;
            });
      }
      assertThat(wordsInEveryText.size()).as(s.origin()).isBetween(2, 4);
      List<String> owners = new ArrayList<>(wordsInEveryText.keySet());
      boolean shared = false;
      for (int i = 0; i < owners.size(); i++) {
        for (int j = i + 1; j < owners.size(); j++) {
          Set<String> common = new HashSet<>(wordsInEveryText.get(owners.get(i)));
          common.retainAll(wordsInEveryText.get(owners.get(j)));
          shared |=
              common.stream().anyMatch(w -> !w.isEmpty() && Character.isUpperCase(w.charAt(0)));
        }
      }
      assertThat(shared).as("%s: two owners named alike in every text", s.origin()).isTrue();
      Map<String, String> ownerOf = s.ownerByWriteId();
      assertThat(
              s.queries().stream()
                  .flatMap(q -> q.forbid().stream().filter(f -> !ownerOf.get(f).equals(q.owner()))))
          .as("%s: some query forbids the same-name owner's record", s.origin())
          .isNotEmpty();
    }
  }

  @Test
  void everyHistory_hasCorrectionsRetroactiveCorrectionsExpiriesEventsAndEveryKindOfQuestion() {
    for (Scenario s : both()) {
      Map<String, Integer> versions = new HashMap<>();
      boolean retro = false;
      boolean expiry = false;
      boolean episodic = false;
      for (NewMemory m : s.writes()) {
        if (m.factKey() != null) versions.merge(m.owner() + "/" + m.factKey(), 1, Integer::sum);
        if (m.validFrom() != null
            && m.validFrom().isBefore(m.recordedAt().minus(30, ChronoUnit.DAYS))) retro = true;
        if (m.validTo() != null) expiry = true;
        if (m.category() == dev.mnemo.Category.EPISODIC && m.validFrom() != null) episodic = true;
      }
      assertThat(versions.values()).as(s.origin()).anyMatch(n -> n >= 2);
      assertThat(retro).as("%s retroactive", s.origin()).isTrue();
      assertThat(expiry).as("%s expiry", s.origin()).isTrue();
      assertThat(episodic).as("%s events", s.origin()).isTrue();
      Set<String> modes = new HashSet<>();
      s.queries().forEach(q -> modes.add(q.mode().code()));
      assertThat(modes).as(s.origin()).contains("current", "valid_at", "known_at");
      assertThat(s.queries()).as(s.origin()).anyMatch(ScenarioQuery::expectNone);
      assertThat(s.queries())
          .as("%s time words", s.origin())
          .anyMatch(
              q ->
                  q.k() == 1
                      && q.text()
                          .matches(".*(last month|last week|two months ago|in [A-Z][a-z]+\\?).*"));
    }
  }

  @Test
  void questions_doNotRepeatTheirAnswersWording() {
    // No three consecutive words (the owner's name aside) of an expected memory appear in its
    // question.
    for (Scenario s : both()) {
      Map<String, String> text = new HashMap<>();
      s.writes().forEach(m -> text.put(m.sources().get(0), m.text()));
      for (ScenarioQuery q : s.queries()) {
        Set<String> qs = shingles(q.text());
        for (String e : q.expect()) {
          Set<String> common = new HashSet<>(shingles(text.get(e)));
          common.retainAll(qs);
          assertThat(common)
              .as("%s %s: '%s' vs '%s'", s.origin(), q.id(), q.text(), text.get(e))
              .isEmpty();
        }
      }
    }
  }

  private static Set<String> shingles(String text) {
    List<String> words =
        Stream.of(text.toLowerCase(Locale.ROOT).split("[^\\p{L}\\p{N}]+"))
            .filter(w -> !w.isEmpty())
            .toList();
    Set<String> out = new HashSet<>();
    for (int i = 0; i + 3 <= words.size(); i++) out.add(String.join(" ", words.subList(i, i + 3)));
    return out;
  }

  @Test
  void splits_drawFromDisjointPhrasings() {
    List<HistoryVocabulary.Pool> pools = new ArrayList<>();
    for (HistoryVocabulary.Vocab v : HistoryVocabulary.VOCABS) {
      Stream.of(v.state(), v.change(), v.retro(), v.temporary(), v.now(), v.past(), v.known())
          .filter(p -> p != null)
          .forEach(pools::add);
    }
    HistoryVocabulary.EVENTS.forEach(
        e -> {
          pools.add(e.texts());
          pools.add(e.question());
        });
    pools.add(HistoryVocabulary.ABSENT);
    pools.add(HistoryVocabulary.NAMES);
    for (HistoryVocabulary.Pool p : pools)
      assertThat(p.dev()).doesNotContainAnyElementsOf(p.heldout());
    assertThat(HistoryVocabulary.NOTES_DEV)
        .doesNotContainAnyElementsOf(HistoryVocabulary.NOTES_HELDOUT);
    assertThat(HistoryVocabulary.VOCABS).hasSize(10);
  }

  /**
   * The generator's labels agree with the engine's own eligibility: in the store, as of each query,
   * every expected record is eligible and every forbidden record of the query's owner is not (a
   * superseded, expired or not-yet-recorded version). Retrieval quality is not tested here.
   */
  @Test
  void labels_agreeWithTheEnginesEligibility() {
    Function<Path, Mnemo> engines = TestEngines.lucene(new HashingEmbedder());
    List<Scenario> some = new ArrayList<>(scenarios("dev", 3));
    some.addAll(scenarios("heldout", 3));
    for (Scenario s : some) {
      Path dir = TempDirs.create("mnemo-gen-test-", s.id());
      try (Mnemo mnemo = engines.apply(dir)) {
        mnemo.rememberAll(s.writes());
        var e = mnemo.diagnostics().orElseThrow();
        Map<String, String> ownerOf = s.ownerByWriteId();
        for (ScenarioQuery q : s.queries()) {
          Instant asked = q.askedAt();
          Eligibility el =
              new Eligibility(
                  q.owner(),
                  null,
                  Set.of(),
                  Map.of(),
                  q.mode().validTime(asked),
                  q.mode().knownTime(asked),
                  null);
          Set<String> eligible = new HashSet<>();
          for (MemoryRecord r : e.store().latest(el, 1000)) eligible.addAll(r.sources());
          assertThat(eligible).as("%s %s expected", s.origin(), q.id()).containsAll(q.expect());
          for (String f : q.forbid()) {
            if (ownerOf.get(f).equals(q.owner()))
              assertThat(eligible).as("%s %s forbidden", s.origin(), q.id()).doesNotContain(f);
          }
        }
      } finally {
        TempDirs.delete(dir);
      }
    }
  }

  @Test
  void lines_badArguments_areRejectedWithTheValue() {
    assertThatThrownBy(() -> GEN.lines("test", 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("split must be one of [dev, heldout], was 'test'");
    assertThatThrownBy(() -> GEN.lines("dev", -1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("dev count must be between 0 and 10000, was -1");
  }

  @Test
  void scenarioJson_usesOnlyTheFieldsOfTheFormat() throws IOException {
    JsonNode n = JsonCodec.READER.readTree(GEN.lines("dev", 1).get(0));
    assertThat(n.fieldNames()).toIterable().containsExactly("id", "split", "writes", "queries");
    assertThat(n.get("id").asText()).isEqualTo("gen-dev-01");
  }
}

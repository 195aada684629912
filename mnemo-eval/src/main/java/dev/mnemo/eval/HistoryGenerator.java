package dev.mnemo.eval;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mnemo.eval.HistoryVocabulary.EventKind;
import dev.mnemo.eval.HistoryVocabulary.Note;
import dev.mnemo.eval.HistoryVocabulary.Vocab;
import dev.mnemo.json.JsonCodec;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.DayOfWeek;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.time.format.TextStyle;
import java.time.temporal.ChronoUnit;
import java.time.temporal.TemporalAdjusters;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;

/**
 * Generates synthetic memory histories in the scenario format of {@code docs/scenarios.md}: seeded,
 * deterministic (the same seed, split and count give the same bytes on every JVM), one scenario per
 * line.
 *
 * <p>Each history has 2-4 owners. The first two share a first name (the texts say "Maya" for both,
 * the owner ids differ) and hold facts of the same kinds with different values, so a read that
 * ignores the owner picks the wrong person's. Their facts come from ten vocabularies ({@link
 * HistoryVocabulary}: home city, employer, diet, editor, phone, partner, sport, programming
 * language, commute, coffee order), each fact one of five histories:
 *
 * <ul>
 *   <li><b>simple</b>: one version;
 *   <li><b>correction</b>: a later version with the same {@code fact_key} and a later {@code
 *       valid_from} supersedes it;
 *   <li><b>retroactive</b>: the correction is recorded weeks after the date it is valid from, so
 *       what was true then (as known now) differs from what was believed then;
 *   <li><b>override</b>: a temporary version with a {@code valid_to} (a secondment, a loaner phone)
 *       interrupts a standing one, which is true again once it ends;
 *   <li><b>expired</b>: only a temporary version, over by the time of the questions.
 * </ul>
 *
 * The first owner always has a correction, a retroactive correction and an expiry. Beside the
 * facts: dated episodic events (trips, purchases, parties...) of which two of a kind lie in
 * different months, and off-topic notes (hobbies, errands) that answer nothing.
 *
 * <p>Queries, all asked at one "now" some weeks after the last write: current questions (expect the
 * current version; forbid the superseded or expired one and the same-name owner's versions), {@code
 * valid_at} questions (true then, as known now), {@code known_at} questions (what was believed
 * then), event questions with time words ("last month", "in March", "two months ago") at {@code k =
 * 1} so that the time words must pick the right one of two similar events, and {@code expect_none}
 * questions about things never stored or about a kind of fact only the same-name owner has.
 * Questions are paraphrases, never the memory's own words.
 *
 * <p>The two splits draw memory texts, question templates, notes and names from disjoint halves of
 * every pool, so held-out numbers say how a configuration tuned on {@code dev} fares on different
 * wording; values (cities, employers...) are shared. Each scenario has its own random stream
 * derived from the seed, the split and its index: adding held-out scenarios does not change the dev
 * ones. Immutable and thread-safe.
 */
public final class HistoryGenerator {

  public static final long DEFAULT_SEED = 42;
  public static final int DEFAULT_DEV = 10;
  public static final int DEFAULT_HELDOUT = 20;
  public static final String DEV_FILE = "dev.jsonl";
  public static final String HELDOUT_FILE = "heldout.jsonl";

  private enum Pattern {
    SIMPLE,
    CORRECTION,
    RETRO,
    OVERRIDE,
    EXPIRED
  }

  private final long seed;

  public HistoryGenerator(long seed) {
    this.seed = seed;
  }

  public long seed() {
    return seed;
  }

  /**
   * Writes {@value #DEV_FILE} and {@value #HELDOUT_FILE} into {@code dir} (created if missing),
   * replacing existing files; a split with count 0 is written as an empty file.
   *
   * @return the two files
   */
  public List<Path> write(Path dir, int dev, int heldout) {
    checkCount("dev", dev);
    checkCount("heldout", heldout);
    try {
      Files.createDirectories(dir);
      Path d = dir.resolve(DEV_FILE);
      Path h = dir.resolve(HELDOUT_FILE);
      Files.writeString(d, join(lines("dev", dev)), StandardCharsets.UTF_8);
      Files.writeString(h, join(lines("heldout", heldout)), StandardCharsets.UTF_8);
      return List.of(d, h);
    } catch (IOException e) {
      throw new UncheckedIOException(
          "cannot write generated scenarios to " + dir + ": " + e.getMessage(), e);
    }
  }

  /**
   * Statements without a fact key for {@code owners} owners of {@code split}: restatement and
   * contradiction pairs among distractors ({@link SameFactPairs}), from this generator's seed.
   */
  public List<SameFactPairs.Statement> sameFactPairs(String split, int owners) {
    if (!split.equals("dev") && !split.equals("heldout")) {
      throw new IllegalArgumentException("split must be dev or heldout, was '" + split + "'");
    }
    checkCount("owners", owners);
    return SameFactPairs.generate(seed, split, owners);
  }

  private static String join(List<String> lines) {
    StringBuilder sb = new StringBuilder();
    // "\n", not the platform's separator: the same seed gives the same bytes everywhere.
    for (String l : lines) sb.append(l).append('\n');
    return sb.toString();
  }

  /**
   * The JSON lines of {@code count} scenarios of {@code split} ({@code dev} or {@code heldout}).
   */
  public List<String> lines(String split, int count) {
    if (!"dev".equals(split) && !"heldout".equals(split)) {
      throw new IllegalArgumentException(
          "split must be one of [dev, heldout], was '" + split + "'");
    }
    checkCount(split, count);
    List<String> out = new ArrayList<>(count);
    for (int i = 1; i <= count; i++) {
      ObjectNode s = new History(split, i, new Random(mix(seed, split, i))).build();
      try {
        out.add(JsonCodec.WRITER.writeValueAsString(s));
      } catch (JsonProcessingException e) {
        throw new IllegalStateException(
            "cannot serialize generated scenario " + s.path("id").asText(), e);
      }
    }
    return out;
  }

  private static void checkCount(String split, int n) {
    if (n < 0 || n > 10_000)
      throw new IllegalArgumentException(split + " count must be between 0 and 10000, was " + n);
  }

  /** SplitMix64 finalizer over the seed, split and index: independent streams per scenario. */
  static long mix(long seed, String split, int index) {
    long z =
        seed * 0x9E3779B97F4A7C15L
            + ("dev".equals(split) ? 0x1234_5678L : 0x8765_4321L) * 31
            + index;
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }

  // ---- one history
  // --------------------------------------------------------------------------------

  private static final class Write {
    final String id;
    final String owner;
    final Instant recorded;
    final String text;
    String category;
    String factKey;
    LocalDate validFrom;
    LocalDate validTo;
    double importance = 0.5;

    Write(String id, String owner, Instant recorded, String text) {
      this.id = id;
      this.owner = owner;
      this.recorded = recorded;
      this.text = text;
    }
  }

  /** One owner's history of one vocabulary. */
  private record Fact(
      int owner, Vocab vocab, Pattern pattern, Write first, Write second, Write temp) {
    List<String> ids() {
      List<String> out = new ArrayList<>(3);
      for (Write w : new Write[] {first, second, temp}) if (w != null) out.add(w.id);
      return out;
    }
  }

  private final class History {
    private final String split;
    private final int index;
    private final Random rnd;
    private final LocalDate start;
    private final Instant now;
    private final LocalDate lastWrite;
    private final List<String> ownerIds = new ArrayList<>();
    private final List<String> names = new ArrayList<>();
    private final List<Write> writes = new ArrayList<>();
    private final List<ObjectNode> queries = new ArrayList<>();
    private final List<Fact> facts = new ArrayList<>();

    History(String split, int index, Random rnd) {
      this.split = split;
      this.index = index;
      this.rnd = rnd;
      this.start = LocalDate.of(2024, 1, 1).plusDays(rnd.nextInt(540));
      LocalDate asked = start.plusDays(300 + rnd.nextInt(30));
      this.now = asked.atTime(9, 0).toInstant(ZoneOffset.UTC);
      this.lastWrite = asked.minusDays(20);
    }

    ObjectNode build() {
      int owners = 2 + rnd.nextInt(3);
      List<String> namePool = new ArrayList<>(HistoryVocabulary.NAMES.of(split));
      shuffle(namePool);
      String shared = namePool.get(0);
      Set<String> usedIds = new HashSet<>();
      for (int o = 0; o < owners; o++) {
        String id;
        do {
          id = String.format(Locale.ROOT, "u-%06x", rnd.nextInt(1 << 24));
        } while (!usedIds.add(id));
        ownerIds.add(id);
        names.add(o < 2 ? shared : namePool.get(o - 1));
      }

      List<Vocab> vocabs = new ArrayList<>(HistoryVocabulary.VOCABS);
      shuffle(vocabs);
      // Owner 1: 4-6 kinds, one of them with a temporary form, so that it can expire.
      List<Vocab> first = new ArrayList<>(vocabs.subList(0, 4 + rnd.nextInt(3)));
      if (first.stream().noneMatch(Vocab::hasTemporary)) {
        Vocab t =
            vocabs.stream()
                .filter(v -> v.hasTemporary() && !first.contains(v))
                .findFirst()
                .orElseThrow();
        first.set(first.size() - 1, t);
      }
      // Owner 2 (same name): two or three of owner 1's kinds, plus one or two owner 1 lacks.
      List<Vocab> rest = vocabs.stream().filter(v -> !first.contains(v)).toList();
      List<Vocab> shuffledFirst = new ArrayList<>(first);
      shuffle(shuffledFirst);
      List<Vocab> second = new ArrayList<>(shuffledFirst.subList(0, 2 + rnd.nextInt(2)));
      second.addAll(rest.subList(0, Math.min(rest.size(), 1 + rnd.nextInt(2))));

      addFacts(0, first, true);
      addFacts(1, second, false);
      for (int o = 2; o < owners; o++) {
        List<Vocab> own = new ArrayList<>(HistoryVocabulary.VOCABS);
        shuffle(own);
        for (Vocab v : own.subList(0, 2 + rnd.nextInt(2))) facts.add(simple(o, v, Set.of()));
      }
      List<String> notes = new ArrayList<>();
      List<Note> notePool = new ArrayList<>(HistoryVocabulary.notes(split));
      shuffle(notePool);
      int noteIndex = 0;
      for (int o = 0; o < owners; o++) {
        int n = o < 2 ? 3 + rnd.nextInt(3) : 1 + rnd.nextInt(2);
        for (int i = 1; i <= n; i++) {
          Note note = notePool.get(noteIndex++ % notePool.size());
          Write w =
              write(
                  label(o) + "-note-" + i,
                  o,
                  instant(start, lastWrite),
                  fill(note.text(), o, Map.of()));
          w.category = note.category();
          w.importance = importance();
          notes.add(w.id);
        }
      }

      for (Fact f : facts) askAbout(f);
      List<EventKind> kinds = new ArrayList<>(HistoryVocabulary.EVENTS);
      shuffle(kinds);
      List<String> timeWords = new ArrayList<>(HistoryVocabulary.TIME_WORDS.of(split));
      shuffle(timeWords);
      events(0, kinds.get(0), timeWords.get(0));
      events(0, kinds.get(1), timeWords.get(1 % timeWords.size()));
      events(1, kinds.get(2), timeWords.get(rnd.nextInt(timeWords.size())));
      // One more dated event each that no question is about.
      for (int o = 0; o < 2; o++) {
        EventKind k = kinds.get(3 + o);
        Write w =
            event(
                label(o) + "-" + k.code() + "-1",
                o,
                pick(k.texts().of(split)),
                date(start, lastWrite));
        w.importance = 0.5;
      }
      absent(0);
      absent(1);
      unknownKind(first, second);
      smallTalk(0);
      for (Fact f : facts) if (f.owner == 0) indirect(f);

      writes.sort(Comparator.comparing((Write w) -> w.recorded));
      ObjectNode s = JsonCodec.object();
      s.put("id", String.format(Locale.ROOT, "gen-%s-%02d", split, index));
      s.put("split", split);
      ArrayNode ws = s.putArray("writes");
      for (Write w : writes) ws.add(json(w));
      ArrayNode qs = s.putArray("queries");
      queries.forEach(qs::add);
      return s;
    }

    // ---- facts ----

    private void addFacts(int owner, List<Vocab> kinds, boolean guaranteeEveryPattern) {
      Set<String> avoid = new HashSet<>();
      // The same-name owner's values for a kind are avoided, so that confusing the two is visible.
      for (Fact f : facts) {
        for (Write w : new Write[] {f.first, f.second, f.temp})
          if (w != null) avoid.add(f.vocab.key() + "=" + valueOf(w));
      }
      List<Pattern> patterns = new ArrayList<>();
      if (guaranteeEveryPattern) {
        patterns.add(rnd.nextBoolean() ? Pattern.OVERRIDE : Pattern.EXPIRED);
        patterns.add(Pattern.CORRECTION);
        patterns.add(Pattern.RETRO);
      }
      // The temporary pattern goes to a kind that has a temporary form.
      List<Vocab> ordered = new ArrayList<>(kinds);
      if (guaranteeEveryPattern) {
        Vocab t = ordered.stream().filter(Vocab::hasTemporary).findFirst().orElseThrow();
        ordered.remove(t);
        ordered.add(0, t);
      }
      for (int i = 0; i < ordered.size(); i++) {
        Vocab v = ordered.get(i);
        Pattern p = i < patterns.size() ? patterns.get(i) : randomPattern(v);
        facts.add(
            switch (p) {
              case SIMPLE -> simple(owner, v, avoid);
              case CORRECTION -> correction(owner, v, avoid);
              case RETRO -> retro(owner, v, avoid);
              case OVERRIDE -> override(owner, v, avoid);
              case EXPIRED -> expired(owner, v, avoid);
            });
      }
    }

    private Pattern randomPattern(Vocab v) {
      int r = rnd.nextInt(100);
      if (r < 40) return Pattern.SIMPLE;
      if (r < 65) return Pattern.CORRECTION;
      if (r < 80) return Pattern.RETRO;
      if (!v.hasTemporary()) return Pattern.SIMPLE;
      return r < 90 ? Pattern.OVERRIDE : Pattern.EXPIRED;
    }

    /** Distinct values of a kind for one owner's versions, avoiding the other owner's. */
    private List<String> values(Vocab v, int n, Set<String> avoid) {
      List<String> pool =
          new ArrayList<>(
              v.values().stream().filter(x -> !avoid.contains(v.key() + "=" + x)).toList());
      shuffle(pool);
      return pool.subList(0, n);
    }

    private final Map<Write, String> valueOfWrite = new LinkedHashMap<>();

    private String valueOf(Write w) {
      return valueOfWrite.get(w);
    }

    private Write factWrite(
        String id,
        int owner,
        Vocab v,
        Instant recorded,
        String template,
        String value,
        String old,
        Map<String, String> extra) {
      Map<String, String> vars = new LinkedHashMap<>(extra);
      vars.put("v", phrasing(value));
      if (old != null) vars.put("old", phrasing(old));
      Write w = write(id, owner, recorded, fill(template, owner, vars));
      w.factKey = v.key();
      w.importance = importance();
      valueOfWrite.put(w, value);
      return w;
    }

    private Fact simple(int owner, Vocab v, Set<String> avoid) {
      String value = values(v, 1, avoid).get(0);
      Write w =
          factWrite(
              label(owner) + "-" + v.key() + "-1",
              owner,
              v,
              instant(start, lastWrite.minusDays(30)),
              pick(v.state().of(split)),
              value,
              null,
              Map.of());
      return new Fact(owner, v, Pattern.SIMPLE, w, null, null);
    }

    private Fact correction(int owner, Vocab v, Set<String> avoid) {
      List<String> vals = values(v, 2, avoid);
      Instant r1 = instant(start, start.plusDays(90));
      LocalDate d1 = day(r1);
      Instant r2 = instant(d1.plusDays(100), lastWrite);
      Write a =
          factWrite(
              label(owner) + "-" + v.key() + "-1",
              owner,
              v,
              r1,
              pick(v.state().of(split)),
              vals.get(0),
              null,
              Map.of());
      Write b =
          factWrite(
              label(owner) + "-" + v.key() + "-2",
              owner,
              v,
              r2,
              pick(v.change().of(split)),
              vals.get(1),
              vals.get(0),
              Map.of());
      b.validFrom = day(r2).minusDays(rnd.nextInt(8));
      return new Fact(owner, v, Pattern.CORRECTION, a, b, null);
    }

    private Fact retro(int owner, Vocab v, Set<String> avoid) {
      List<String> vals = values(v, 2, avoid);
      Instant r1 = instant(start, start.plusDays(80));
      LocalDate since = date(day(r1).plusDays(50), day(r1).plusDays(120));
      Instant r3 = instant(since.plusDays(60), lastWrite);
      Write a =
          factWrite(
              label(owner) + "-" + v.key() + "-1",
              owner,
              v,
              r1,
              pick(v.state().of(split)),
              vals.get(0),
              null,
              Map.of());
      Write b =
          factWrite(
              label(owner) + "-" + v.key() + "-2",
              owner,
              v,
              r3,
              pick(v.retro().of(split)),
              vals.get(1),
              vals.get(0),
              Map.of("since", monthDay(since)));
      b.validFrom = since;
      return new Fact(owner, v, Pattern.RETRO, a, b, null);
    }

    private Fact override(int owner, Vocab v, Set<String> avoid) {
      List<String> vals = values(v, 2, avoid);
      Instant r1 = instant(start, start.plusDays(60));
      Write a =
          factWrite(
              label(owner) + "-" + v.key() + "-1",
              owner,
              v,
              r1,
              pick(v.state().of(split)),
              vals.get(0),
              null,
              Map.of());
      Write t = temporary(owner, v, vals.get(1), date(day(r1).plusDays(30), day(r1).plusDays(100)));
      return new Fact(owner, v, Pattern.OVERRIDE, a, null, t);
    }

    private Fact expired(int owner, Vocab v, Set<String> avoid) {
      String value = values(v, 1, avoid).get(0);
      Write t = temporary(owner, v, value, date(start.plusDays(20), start.plusDays(150)));
      return new Fact(owner, v, Pattern.EXPIRED, null, null, t);
    }

    /**
     * A version valid from {@code from} to the first of a month 6-10 weeks later, recorded on its
     * first day.
     */
    private Write temporary(int owner, Vocab v, String value, LocalDate from) {
      LocalDate to =
          from.plusDays(45 + rnd.nextInt(30)).with(TemporalAdjusters.firstDayOfNextMonth());
      String until = "the end of " + monthName(to.minusDays(1));
      Instant recorded =
          from.atTime(LocalTime.of(8 + rnd.nextInt(12), rnd.nextInt(60))).toInstant(ZoneOffset.UTC);
      Write t =
          factWrite(
              label(owner) + "-" + v.key() + "-tmp",
              owner,
              v,
              recorded,
              pick(v.temporary().of(split)),
              value,
              null,
              Map.of("until", until));
      t.validFrom = from;
      t.validTo = to;
      return t;
    }

    // ---- questions about facts ----

    private void askAbout(Fact f) {
      List<String> other = sameNameIds(f.owner, f.vocab);
      boolean all = f.owner == 0;
      String o = label(f.owner);
      String key = f.vocab.key();
      switch (f.pattern) {
        case SIMPLE ->
            query(
                o + "-" + key + "-now",
                f.owner,
                pick(f.vocab.now().of(split)),
                Map.of(),
                null,
                null,
                List.of(f.first.id),
                other,
                false);
        case CORRECTION -> {
          query(
              o + "-" + key + "-now",
              f.owner,
              pick(f.vocab.now().of(split)),
              Map.of(),
              null,
              null,
              List.of(f.second.id),
              plus(other, f.first.id),
              false);
          boolean valid = all || rnd.nextBoolean();
          if (valid) {
            LocalDate at =
                date(day(f.first.recorded).plusDays(10), f.second.validFrom.minusDays(10));
            askValidAt(
                o + "-" + key + "-valid",
                f,
                at,
                day(f.first.recorded),
                f.second.validFrom,
                f.first.id,
                plus(other, f.second.id));
          }
          if (all || !valid) {
            LocalDate at =
                date(day(f.first.recorded).plusDays(10), day(f.second.recorded).minusDays(5));
            askKnownAt(o + "-" + key + "-known", f, at, f.first.id, plus(other, f.second.id));
          }
        }
        case RETRO -> {
          query(
              o + "-" + key + "-now",
              f.owner,
              pick(f.vocab.now().of(split)),
              Map.of(),
              null,
              null,
              List.of(f.second.id),
              plus(other, f.first.id),
              false);
          LocalDate at =
              date(f.second.validFrom.plusDays(10), day(f.second.recorded).minusDays(10));
          boolean valid = all || rnd.nextBoolean();
          // The same day, asked two ways: true then as known now (the correction), believed then
          // (the old value).
          if (valid)
            askValidAt(
                o + "-" + key + "-valid",
                f,
                at,
                f.second.validFrom,
                null,
                f.second.id,
                plus(other, f.first.id));
          if (all || !valid)
            askKnownAt(o + "-" + key + "-known", f, at, f.first.id, plus(other, f.second.id));
        }
        case OVERRIDE -> {
          // The temporary version is over: the standing one holds again.
          query(
              o + "-" + key + "-now",
              f.owner,
              pick(f.vocab.now().of(split)),
              Map.of(),
              null,
              null,
              List.of(f.first.id),
              plus(other, f.temp.id),
              false);
          LocalDate at = date(f.temp.validFrom.plusDays(5), f.temp.validTo.minusDays(5));
          askValidAt(
              o + "-" + key + "-valid",
              f,
              at,
              f.temp.validFrom,
              f.temp.validTo,
              f.temp.id,
              plus(other, f.first.id));
        }
        case EXPIRED -> {
          query(
              o + "-" + key + "-now",
              f.owner,
              pick(f.vocab.now().of(split)),
              Map.of(),
              null,
              null,
              List.of(),
              plus(other, f.temp.id),
              true);
          if (all || rnd.nextBoolean()) {
            LocalDate at = date(f.temp.validFrom.plusDays(5), f.temp.validTo.minusDays(5));
            askValidAt(
                o + "-" + key + "-valid",
                f,
                at,
                f.temp.validFrom,
                f.temp.validTo,
                f.temp.id,
                other);
          }
        }
      }
    }

    /**
     * A valid_at question at noon of {@code at}; "in March 2025" when that whole month lies in
     * [from, to).
     */
    private void askValidAt(
        String id,
        Fact f,
        LocalDate at,
        LocalDate from,
        LocalDate to,
        String expect,
        List<String> forbid) {
      LocalDate monthStart = at.withDayOfMonth(1);
      LocalDate monthEnd = monthStart.plusMonths(1);
      boolean wholeMonth =
          !monthStart.isBefore(from) && (to == null || !monthEnd.isAfter(to)) && rnd.nextBoolean();
      String when =
          wholeMonth ? "in " + monthName(at) + " " + at.getYear() : "on " + monthDayYear(at);
      query(
          id,
          f.owner,
          pick(f.vocab.past().of(split)),
          Map.of("when", when),
          "valid_at",
          noon(at),
          List.of(expect),
          forbid,
          false);
    }

    private void askKnownAt(String id, Fact f, LocalDate at, String expect, List<String> forbid) {
      query(
          id,
          f.owner,
          pick(f.vocab.known().of(split)),
          Map.of("at", monthDayYear(at)),
          "known_at",
          noon(at),
          List.of(expect),
          forbid,
          false);
    }

    /** Every write of the other same-name owner about this kind: selecting one is a leak. */
    private List<String> sameNameIds(int owner, Vocab v) {
      if (owner > 1) return List.of();
      List<String> out = new ArrayList<>();
      for (Fact f : facts) if (f.owner == 1 - owner && f.vocab == v) out.addAll(f.ids());
      return out;
    }

    // ---- events and time words ----

    /**
     * Two events of one kind, one inside the range the time words denote and one well outside; a
     * k=1 question.
     */
    private void events(int owner, EventKind kind, String timeWords) {
      LocalDate today = day(now);
      LocalDate from;
      LocalDate to;
      String phrase = timeWords;
      switch (timeWords) {
        case "last month" -> {
          to = today.withDayOfMonth(1);
          from = to.minusMonths(1);
        }
        case "two months ago" -> {
          from = today.withDayOfMonth(1).minusMonths(2);
          to = from.plusMonths(1);
        }
        case "last week" -> {
          to = today.with(TemporalAdjusters.previousOrSame(DayOfWeek.MONDAY));
          from = to.minusDays(7);
        }
        case "in {Month}" -> {
          from = today.withDayOfMonth(1).minusMonths(2 + rnd.nextInt(4));
          to = from.plusMonths(1);
          phrase = "in " + monthName(from);
        }
        default ->
            throw new IllegalStateException("no range known for time words '" + timeWords + "'");
      }
      LocalDate last = to.minusDays(1).isBefore(today) ? to.minusDays(1) : today.minusDays(1);
      LocalDate inside = date(from, last);
      LocalDate outside;
      boolean after = rnd.nextBoolean() && to.plusDays(10).isBefore(today.minusDays(2));
      outside = after ? date(to.plusDays(10), today.minusDays(2)) : date(start, from.minusDays(20));
      List<String> texts = new ArrayList<>(kind.texts().of(split));
      shuffle(texts);
      String o = label(owner);
      Write in = event(o + "-" + kind.code() + "-1", owner, texts.get(0), inside);
      event(o + "-" + kind.code() + "-2", owner, texts.get(1), outside);
      ObjectNode q =
          query(
              o + "-when-" + kind.code(),
              owner,
              pick(kind.question().of(split)),
              Map.of("time", phrase),
              null,
              null,
              List.of(in.id),
              List.of(),
              false);
      q.put("k", 1);
    }

    private Write event(String id, int owner, String template, LocalDate on) {
      Instant recorded =
          on.atTime(LocalTime.of(17 + rnd.nextInt(5), rnd.nextInt(60)))
              .toInstant(ZoneOffset.UTC)
              .plus(rnd.nextInt(2), ChronoUnit.DAYS);
      Write w = write(id, owner, recorded, fill(template, owner, Map.of()));
      w.category = "episodic";
      w.validFrom = on;
      w.importance = 0.5;
      return w;
    }

    // ---- nothing to find ----

    private void absent(int owner) {
      query(
          label(owner) + "-absent",
          owner,
          pick(HistoryVocabulary.ABSENT.of(split)),
          Map.of(),
          null,
          null,
          List.of(),
          List.of(),
          true);
    }

    /** A message that needs no memory: a correct engine selects nothing. */
    private void smallTalk(int owner) {
      query(
          label(owner) + "-smalltalk",
          owner,
          pick(HistoryVocabulary.SMALL_TALK.of(split)),
          Map.of(),
          null,
          null,
          List.of(),
          List.of(),
          true);
    }

    /**
     * A request that depends on the current value of a fact it does not name; only for facts with
     * one.
     */
    private void indirect(Fact f) {
      HistoryVocabulary.Pool pool = HistoryVocabulary.INDIRECT.get(f.vocab.key());
      if (pool == null) return;
      Write current =
          switch (f.pattern) {
            case SIMPLE, OVERRIDE -> f.first;
            case CORRECTION, RETRO -> f.second;
            case EXPIRED -> null;
          };
      if (current == null) return;
      List<String> forbid = new ArrayList<>(sameNameIds(f.owner, f.vocab));
      for (String id : f.ids()) if (!id.equals(current.id)) forbid.add(id);
      query(
          label(f.owner) + "-" + f.vocab.key() + "-indirect",
          f.owner,
          pick(pool.of(split)),
          Map.of(),
          null,
          null,
          List.of(current.id),
          forbid,
          false);
    }

    /**
     * A kind only the same-name owner has: owner 1 must get nothing, and certainly not owner 2's
     * value.
     */
    private void unknownKind(List<Vocab> first, List<Vocab> second) {
      for (Vocab v : second) {
        if (first.contains(v)) continue;
        query(
            label(0) + "-" + v.key() + "-unknown",
            0,
            pick(v.now().of(split)),
            Map.of(),
            null,
            null,
            List.of(),
            sameNameIds(0, v),
            true);
        return;
      }
    }

    // ---- plumbing ----

    private ObjectNode query(
        String id,
        int owner,
        String template,
        Map<String, String> vars,
        String mode,
        Instant at,
        List<String> expect,
        List<String> forbid,
        boolean expectNone) {
      ObjectNode q = JsonCodec.object();
      q.put("id", id);
      q.put("owner", ownerIds.get(owner));
      q.put("asked_at", now.toString());
      q.put("text", fill(template, owner, vars));
      if (mode != null) {
        q.put("mode", mode);
        q.put("at", at.toString());
      }
      if (!expect.isEmpty()) expect.forEach(q.putArray("expect")::add);
      if (!forbid.isEmpty()) forbid.forEach(q.putArray("forbid")::add);
      if (expectNone) q.put("expect_none", true);
      queries.add(q);
      return q;
    }

    private Write write(String id, int owner, Instant recorded, String text) {
      Write w = new Write(id, ownerIds.get(owner), recorded, text);
      writes.add(w);
      return w;
    }

    /**
     * A write's importance, drawn alike for facts and notes, and absent (NaN: the engine's default)
     * for a quarter of them, as users send it: drawn apart from whether any question needs the
     * record. The generator used to give facts 0.6-0.8 and notes 0.3-0.5, and relevance trees
     * fitted on its histories read importance as relevance.
     */
    private double importance() {
      return pick(List.of(Double.NaN, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, Double.NaN));
    }

    private ObjectNode json(Write w) {
      ObjectNode o = JsonCodec.object();
      o.put("id", w.id);
      o.put("owner", w.owner);
      o.put("recorded_at", w.recorded.toString());
      o.put("text", w.text);
      if (w.category != null) o.put("category", w.category);
      if (w.factKey != null) o.put("fact_key", w.factKey);
      if (w.validFrom != null) o.put("valid_from", w.validFrom.toString());
      if (w.validTo != null) o.put("valid_to", w.validTo.toString());
      if (!Double.isNaN(w.importance)) o.put("importance", w.importance);
      return o;
    }

    private String fill(String template, int owner, Map<String, String> vars) {
      String s = template.replace("{N}", names.get(owner));
      for (var e : vars.entrySet()) s = s.replace("{" + e.getKey() + "}", e.getValue());
      if (s.contains("{"))
        throw new IllegalStateException(
            "unfilled placeholder in '" + s + "' from '" + template + "'");
      return Character.toUpperCase(s.charAt(0)) + s.substring(1);
    }

    /** One phrasing of a value ({@code a|b} gives a or b). */
    private String phrasing(String value) {
      String[] alts = value.split("\\|");
      return alts[rnd.nextInt(alts.length)];
    }

    private <T> T pick(List<T> xs) {
      return xs.get(rnd.nextInt(xs.size()));
    }

    /**
     * Fisher-Yates with this history's random stream (Collections.shuffle's algorithm is not
     * specified).
     */
    private <T> void shuffle(List<T> xs) {
      for (int i = xs.size() - 1; i > 0; i--) {
        int j = rnd.nextInt(i + 1);
        T t = xs.get(i);
        xs.set(i, xs.get(j));
        xs.set(j, t);
      }
    }

    /** A uniformly random day in [from, to] (from when to is earlier). */
    private LocalDate date(LocalDate from, LocalDate to) {
      long span = ChronoUnit.DAYS.between(from, to);
      return span <= 0 ? from : from.plusDays(rnd.nextInt((int) span + 1));
    }

    /** A random daytime instant on a random day in [from, to]. */
    private Instant instant(LocalDate from, LocalDate to) {
      return date(from, to)
          .atTime(LocalTime.of(8 + rnd.nextInt(12), rnd.nextInt(60)))
          .toInstant(ZoneOffset.UTC);
    }

    private String label(int owner) {
      return "o" + (owner + 1);
    }
  }

  private static List<String> plus(List<String> xs, String x) {
    List<String> out = new ArrayList<>(xs);
    out.add(0, x);
    return out;
  }

  private static LocalDate day(Instant t) {
    return LocalDate.ofInstant(t, ZoneOffset.UTC);
  }

  private static Instant noon(LocalDate d) {
    return d.atTime(12, 0).toInstant(ZoneOffset.UTC);
  }

  private static String monthName(LocalDate d) {
    return d.getMonth().getDisplayName(TextStyle.FULL, Locale.ENGLISH);
  }

  private static String monthDay(LocalDate d) {
    return monthName(d) + " " + d.getDayOfMonth();
  }

  private static String monthDayYear(LocalDate d) {
    return monthDay(d) + ", " + d.getYear();
  }
}

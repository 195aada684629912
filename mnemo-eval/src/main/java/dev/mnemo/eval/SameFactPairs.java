package dev.mnemo.eval;

import dev.mnemo.MemoryRecord;
import dev.mnemo.Mnemo;
import dev.mnemo.NewMemory;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;

/**
 * Statements without a fact key that say the same fact twice (restatements), or the opposite
 * (contradictions), among statements that must stay apart (the same person on another topic,
 * another person on the same topic), for measuring the write path's same-fact rules ({@code
 * dev.mnemo.write.SameFact}): how many pairs it finds, how many statements it merges that it should
 * not. Part of {@link HistoryGenerator}'s synthetic histories ({@link
 * HistoryGenerator#sameFactPairs}); seeded and deterministic.
 *
 * <p>Each owner writes, in order: two restatement pairs, two contradiction pairs (one each way: "I
 * do not like maths" then "I have come to enjoy maths", and the reverse) and four distractors, each
 * about a topic or a person no other statement of the owner shares, except that two distractors
 * share a pair's topic with another person and a pair's person with another topic. The split
 * decides the wording: dev and heldout draw templates from disjoint halves.
 */
public final class SameFactPairs {

  /** One statement to write, with the pair it belongs to (null for a distractor). */
  public record Statement(String owner, String text, String pair) {}

  /**
   * What the rules did: pairs written, pairs given one fact key, statements merged that should not
   * have been.
   */
  public record Report(
      int pairs,
      int found,
      int restatementsFound,
      int contradictionsFound,
      int statements,
      int falseMerges) {
    public double recall() {
      return pairs == 0 ? 0 : (double) found / pairs;
    }
  }

  private static final List<String> NAMES =
      List.of("Maya", "Lena", "Tom", "Ana", "Omar", "Priya", "Jonas", "Sofia", "Ravi", "Ines");
  private static final List<String> TOPICS =
      List.of(
          "maths",
          "jazz",
          "hiking",
          "sushi",
          "cold showers",
          "board games",
          "horror films",
          "spicy food",
          "early mornings",
          "crossword puzzles",
          "gardening",
          "opera",
          "camping",
          "cycling to work",
          "karaoke",
          "museums",
          "running in the rain",
          "chess",
          "pineapple on pizza",
          "long meetings");

  /** {0}: subject, {1}: topic; first person and third person forms. */
  private record Template(String first, String third) {
    String say(String subject, String topic) {
      return (subject == null ? first : third)
          .replace("{S}", subject == null ? "I" : subject)
          .replace("{T}", topic);
    }
  }

  private static final List<Template> POSITIVE =
      List.of(
          new Template("{S} like {T}.", "{S} likes {T}."),
          new Template("{S} really enjoy {T}.", "{S} really enjoys {T}."),
          new Template("{S} love {T}.", "{S} loves {T}."),
          new Template("{S} have come to enjoy {T}.", "{S} has come to enjoy {T}."),
          new Template("{S} prefer {T} these days.", "{S} prefers {T} these days."),
          new Template("{S} have always loved {T}.", "{S} has always loved {T}."),
          new Template("{S} am really into {T}.", "{S} is really into {T}."),
          new Template("{S} enjoy {T} a lot.", "{S} enjoys {T} a lot."));
  private static final List<Template> NEGATIVE =
      List.of(
          new Template("{S} do not like {T}.", "{S} does not like {T}."),
          new Template("{S} hate {T}.", "{S} hates {T}."),
          new Template("{S} no longer enjoy {T}.", "{S} no longer enjoys {T}."),
          new Template("{S} dislike {T}.", "{S} dislikes {T}."),
          new Template("{S} don't enjoy {T} at all.", "{S} doesn't enjoy {T} at all."),
          new Template("{S} can't stand {T}.", "{S} can't stand {T}."),
          new Template("{S} never liked {T}.", "{S} never liked {T}."),
          new Template("{S} have stopped liking {T}.", "{S} has stopped liking {T}."));

  private SameFactPairs() {}

  /** The statements of {@code owners} owners, in writing order. */
  static List<Statement> generate(long seed, String split, int owners) {
    boolean dev = split.equals("dev");
    Random rnd = new Random(Objects.hash(seed, split, "same-fact"));
    List<Statement> out = new ArrayList<>();
    for (int o = 0; o < owners; o++) {
      String owner = split + "-sf-" + o;
      List<String> topics = new ArrayList<>(TOPICS);
      java.util.Collections.shuffle(topics, rnd);
      List<String> names = new ArrayList<>(NAMES);
      java.util.Collections.shuffle(names, rnd);
      int t = 0;
      int n = 0;
      String firstPairSubject = null;
      String firstPairTopic = null;
      for (int p = 0; p < 4; p++) {
        String subject = rnd.nextBoolean() ? null : names.get(n++);
        String topic = topics.get(t++);
        if (p == 0) {
          firstPairSubject = subject;
          firstPairTopic = topic;
        }
        String pair = owner + "-p" + p + (p < 2 ? "-restates" : "-contradicts");
        if (p < 2) {
          Template a = pick(POSITIVE, dev, rnd);
          Template b = other(POSITIVE, a, dev, rnd);
          out.add(new Statement(owner, a.say(subject, topic), pair));
          out.add(new Statement(owner, b.say(subject, topic), pair));
        } else {
          boolean negFirst = p == 2;
          Template neg = pick(NEGATIVE, dev, rnd);
          Template pos = pick(POSITIVE, dev, rnd);
          out.add(new Statement(owner, (negFirst ? neg : pos).say(subject, topic), pair));
          out.add(new Statement(owner, (negFirst ? pos : neg).say(subject, topic), pair));
        }
      }
      // distractors: another person on the first pair's topic, the first pair's person on a new
      // topic,
      // and two statements on topics nobody else mentions
      String otherPerson = firstPairSubject == null ? names.get(n++) : null;
      out.add(
          new Statement(owner, pick(POSITIVE, dev, rnd).say(otherPerson, firstPairTopic), null));
      out.add(
          new Statement(
              owner,
              pick(rnd.nextBoolean() ? POSITIVE : NEGATIVE, dev, rnd)
                  .say(firstPairSubject, topics.get(t++)),
              null));
      for (int d = 0; d < 2; d++) {
        String subject = rnd.nextBoolean() ? null : names.get(n++);
        out.add(
            new Statement(
                owner,
                pick(rnd.nextBoolean() ? POSITIVE : NEGATIVE, dev, rnd)
                    .say(subject, topics.get(t++)),
                null));
      }
    }
    return out;
  }

  /**
   * Writes the statements (one day apart, no fact key) into {@code mnemo} and counts what the rules
   * did. Two atomic batches per owner, so that a run costs few commits: first every pair's first
   * statement and the distractors, then every pair's second statement, which the rules therefore
   * match against the stored records.
   */
  public static Report measure(Mnemo mnemo, List<Statement> statements, Instant start) {
    Map<String, List<MemoryRecord>> byPair = new HashMap<>();
    Map<String, String> pairOf = new HashMap<>();
    Map<String, List<Integer>> firsts = new java.util.LinkedHashMap<>();
    Map<String, List<Integer>> seconds = new java.util.LinkedHashMap<>();
    java.util.Set<String> seenPairs = new java.util.HashSet<>();
    for (int i = 0; i < statements.size(); i++) {
      Statement s = statements.get(i);
      boolean second = s.pair() != null && !seenPairs.add(s.pair());
      (second ? seconds : firsts).computeIfAbsent(s.owner(), k -> new ArrayList<>()).add(i);
    }
    MemoryRecord[] byIndex = new MemoryRecord[statements.size()];
    for (Map<String, List<Integer>> round : List.of(firsts, seconds)) {
      for (List<Integer> idx : round.values()) {
        List<NewMemory> batch = new ArrayList<>();
        for (int i : idx) {
          batch.add(
              NewMemory.builder(statements.get(i).owner(), statements.get(i).text())
                  .source("sf-" + i)
                  .recordedAt(start.plusSeconds(86_400L * i))
                  .build());
        }
        List<MemoryRecord> stored = mnemo.rememberAll(batch);
        for (int j = 0; j < idx.size(); j++) byIndex[idx.get(j)] = stored.get(j);
      }
    }
    List<MemoryRecord> written = List.of(byIndex);
    for (int i = 0; i < statements.size(); i++) {
      Statement s = statements.get(i);
      if (s.pair() != null) {
        byPair.computeIfAbsent(s.pair(), k -> new ArrayList<>()).add(byIndex[i]);
        pairOf.put(byIndex[i].id(), s.pair());
      }
    }
    int found = 0;
    int restates = 0;
    int contradicts = 0;
    Map<String, String> keyOf = new HashMap<>();
    for (MemoryRecord r : written) {
      keyOf.put(r.id(), mnemo.get(r.owner(), r.id()).map(MemoryRecord::factKey).orElse(null));
    }
    for (var e : byPair.entrySet()) {
      String a = keyOf.get(e.getValue().get(0).id());
      String b = keyOf.get(e.getValue().get(1).id());
      if (a != null && a.equals(b)) {
        found++;
        if (e.getKey().endsWith("-restates")) restates++;
        else contradicts++;
      }
    }
    // a false merge: a statement that shares its fact key with a statement of another pair (or any,
    // for a distractor)
    int falseMerges = 0;
    for (int i = 0; i < written.size(); i++) {
      String key = keyOf.get(written.get(i).id());
      if (key == null) continue;
      for (int j = 0; j < written.size(); j++) {
        if (i == j || !key.equals(keyOf.get(written.get(j).id()))) continue;
        String pi = pairOf.get(written.get(i).id());
        if (pi == null || !pi.equals(pairOf.get(written.get(j).id()))) {
          falseMerges++;
          break;
        }
      }
    }
    return new Report(byPair.size(), found, restates, contradicts, written.size(), falseMerges);
  }

  private static Template pick(List<Template> pool, boolean dev, Random rnd) {
    int half = pool.size() / 2;
    return pool.get((dev ? 0 : half) + rnd.nextInt(half));
  }

  private static Template other(List<Template> pool, Template not, boolean dev, Random rnd) {
    Template t;
    do {
      t = pick(pool, dev, rnd);
    } while (t.equals(not));
    return t;
  }
}

package dev.mnemo.eval;

import dev.mnemo.Category;
import dev.mnemo.Mnemo;
import dev.mnemo.NewMemory;
import dev.mnemo.RecallRequest;
import dev.mnemo.RecallResult;
import dev.mnemo.Recalled;
import dev.mnemo.eval.LocomoRunner.Ranking;
import dev.mnemo.eval.LongMemEvalQuestion.Session;
import dev.mnemo.eval.LongMemEvalQuestion.Turn;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * LongMemEval retrieval: indexes each question's haystack as its own owner and measures where the
 * engine ranks the evidence turns and sessions, under several {@link Ranking}s.
 *
 * <p>Indexing, per question, on a fresh engine: every non-empty turn, the user's and the
 * assistant's (answers can sit in either), is one episodic memory: owner = the question id, text =
 * the turn's content, recorded_at = valid_from = its session's date, episode = the session id with
 * the turn's position, source = the turn id ({@code <session key>:<index>}), metadata {@code role};
 * with neighbour context on, {@code context} = the previous and the next turn of the same session
 * (indexed, never returned). A turn longer than the engine's default text limit ({@value
 * #MAX_CHARS} characters; a few LongMemEval turns paste whole documents) is split at white space
 * into several memories with the same source, so that nothing of it is dropped; it then ranks by
 * its best piece.
 *
 * <p>Asking: the question at the end of its {@code question_date}'s day (UTC; mode current), k =
 * {@code kMax} records, thresholds off and a budget that never binds, so that what is measured is
 * the ranking. The end of the day, not the minute: the dataset dates some sessions of the
 * question's own day hours after its {@code question_date} (on the dev split, 15 evidence sessions
 * of 7 temporal-reasoning questions; none on a later day), and asked at the minute they would not
 * yet be known. The retrieved records are read off as a ranking of turns (distinct sources, best
 * first) and of sessions (each session at the rank of its best turn; the two copies of a repeated
 * session count as one, as their shared id does in the dataset). Not thread-safe.
 */
public final class LongMemEvalRunner {

  /** Longest text of one memory: the engine's default limit. */
  static final int MAX_CHARS = 8_000;

  private final Function<Path, Mnemo> engines;
  private final boolean neighbourContext;
  private final int kMax;
  private final List<Ranking> rankings;
  private final Consumer<String> progress;

  /**
   * @param engines opens a fresh engine on an empty directory; the runner closes it and deletes the
   *     directory after each question
   * @param neighbourContext whether turns are indexed with their neighbours as context
   * @param kMax records retrieved per question, 1..1000; sessions are read off these
   * @param rankings the rankings compared, in report order
   * @param progress receives one line per question (elapsed time, rate, what is left)
   */
  public LongMemEvalRunner(
      Function<Path, Mnemo> engines,
      boolean neighbourContext,
      int kMax,
      List<Ranking> rankings,
      Consumer<String> progress) {
    this.engines = Objects.requireNonNull(engines, "engines");
    new LocomoRunner(engines, neighbourContext, kMax); // validates kMax with LocomoRunner's message
    this.neighbourContext = neighbourContext;
    this.kMax = kMax;
    this.rankings = List.copyOf(rankings);
    if (this.rankings.isEmpty()) throw new IllegalArgumentException("rankings must not be empty");
    this.progress = Objects.requireNonNull(progress, "progress");
  }

  /** Indexes and asks every question, one fresh engine each. */
  public LongMemEvalReport run(List<LongMemEvalQuestion> questions) {
    List<LongMemEvalReport.Answer> answers = new ArrayList<>();
    int memories = 0;
    long ingestNanos = 0;
    long start = System.nanoTime();
    for (int i = 0; i < questions.size(); i++) {
      LongMemEvalQuestion q = questions.get(i);
      Path dir = TempDirs.create("mnemo-longmemeval-", "question " + q.id());
      try (Mnemo mnemo = engines.apply(dir)) {
        List<NewMemory> ms = memories(q, neighbourContext);
        long t0 = System.nanoTime();
        mnemo.rememberAll(ms);
        long took = System.nanoTime() - t0;
        ingestNanos += took;
        memories += ms.size();
        for (Ranking r : rankings) answers.add(ask(mnemo, q, r));
        double elapsed = (System.nanoTime() - start) / 1e9;
        double eta = elapsed / (i + 1) * (questions.size() - i - 1);
        progress.accept(
            String.format(
                Locale.ROOT,
                "[%d/%d] %s %s: %d memories written in %.1f s (%.0f/s); "
                    + "elapsed %.0f s, about %.0f s left",
                i + 1,
                questions.size(),
                q.id(),
                q.type(),
                ms.size(),
                took / 1e9,
                ms.size() / Math.max(took / 1e9, 1e-9),
                elapsed,
                eta));
      } finally {
        TempDirs.delete(dir);
      }
    }
    return new LongMemEvalReport(
        neighbourContext, kMax, rankings, questions.size(), memories, ingestNanos / 1e9, answers);
  }

  /** The memories of a question's haystack, in order (see the class comment). */
  static List<NewMemory> memories(LongMemEvalQuestion q, boolean neighbourContext) {
    List<NewMemory> out = new ArrayList<>();
    for (Session s : q.sessions()) {
      List<String> texts = new ArrayList<>();
      List<String> sources = new ArrayList<>();
      List<String> roles = new ArrayList<>();
      for (int i = 0; i < s.turns().size(); i++) {
        Turn t = s.turns().get(i);
        for (String piece : pieces(t.content(), MAX_CHARS)) {
          texts.add(piece);
          sources.add(s.turnId(i));
          roles.add(t.role());
        }
      }
      for (int i = 0; i < texts.size(); i++) {
        NewMemory.Builder b =
            NewMemory.builder(q.id(), texts.get(i))
                .category(Category.EPISODIC)
                .recordedAt(s.at())
                .validFrom(s.at())
                .source(sources.get(i))
                .episode(s.key(), i)
                .metadata(Map.of("role", roles.get(i)));
        if (neighbourContext) b.context(LocomoRunner.neighbours(texts, i));
        out.add(b.build());
      }
    }
    return out;
  }

  /**
   * A text cut at white space into pieces of at most {@code max} characters; none for a blank text.
   */
  static List<String> pieces(String text, int max) {
    List<String> out = new ArrayList<>();
    String rest = text.strip();
    while (!rest.isEmpty()) {
      if (rest.length() <= max) {
        out.add(rest);
        break;
      }
      int cut = rest.lastIndexOf(' ', max);
      int nl = rest.lastIndexOf('\n', max);
      cut = Math.max(cut, nl);
      if (cut < max / 2) cut = max; // no white space in the second half: cut inside a word
      out.add(rest.substring(0, cut).strip());
      rest = rest.substring(cut).strip();
    }
    return out;
  }

  /**
   * When a question is asked: the last second of its {@code question_date}'s day (see the class
   * comment).
   */
  static Instant askedAt(LongMemEvalQuestion q) {
    return q.askedAt().truncatedTo(ChronoUnit.DAYS).plus(1, ChronoUnit.DAYS).minusSeconds(1);
  }

  private LongMemEvalReport.Answer ask(Mnemo mnemo, LongMemEvalQuestion q, Ranking r) {
    RecallRequest req =
        r.apply(LocomoRunner.rankingRequest(q.id(), q.question(), askedAt(q), kMax)).build();
    long t0 = System.nanoTime();
    RecallResult res = mnemo.recall(req);
    double ms = (System.nanoTime() - t0) / 1e6;
    Map<String, Integer> turnTokens = new LinkedHashMap<>();
    for (Recalled x : res.selected()) {
      for (String source : x.record().sources()) turnTokens.merge(source, x.tokens(), Integer::sum);
    }
    Map<String, String> sessionOf = new HashMap<>();
    for (Session s : q.sessions())
      for (int i = 0; i < s.turns().size(); i++) sessionOf.put(s.turnId(i), s.id());
    List<String> sessions =
        turnTokens.keySet().stream()
            .map(sessionOf::get)
            .filter(Objects::nonNull)
            .distinct()
            .toList();
    return new LongMemEvalReport.Answer(
        q.id(),
        q.type(),
        q.abstention(),
        r,
        q.evidenceTurnIds(),
        List.copyOf(q.answerSessionIds()),
        List.copyOf(turnTokens.keySet()),
        List.copyOf(turnTokens.values()),
        sessions,
        ms);
  }
}

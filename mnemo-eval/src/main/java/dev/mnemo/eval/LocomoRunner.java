package dev.mnemo.eval;

import dev.mnemo.Category;
import dev.mnemo.Fusion;
import dev.mnemo.Mnemo;
import dev.mnemo.NewMemory;
import dev.mnemo.RecallRequest;
import dev.mnemo.RecallResult;
import dev.mnemo.Recalled;
import dev.mnemo.Weights;
import dev.mnemo.eval.LocomoConversation.Question;
import dev.mnemo.eval.LocomoConversation.Session;
import dev.mnemo.eval.LocomoConversation.Turn;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import java.util.regex.Pattern;

/**
 * LoCoMo evidence retrieval: indexes each conversation's turns as memories and measures how many of
 * each question's evidence turns the engine ranks among its top k, under several rankings.
 *
 * <p>Indexing, per conversation, on a fresh engine (so that one conversation's BM25 statistics do
 * not depend on which other files are in the directory): every turn one memory, owner = the
 * conversation's name, text = {@link Turn#memoryText()}, category episodic, recorded_at =
 * valid_from = its session's date-time, source = its dia_id, episode = {@code session_N} with the
 * turn's position, metadata {@code speaker} = who said it; with neighbour context on, {@code
 * context} = the memory texts of the {@value #CONTEXT_SPAN} turns before and after it in the same
 * session (the architecture's neighbour context: indexed, never returned).
 *
 * <p>Asking: every question of categories 1-4 that has at least one evidence turn, at {@value
 * #ASK_AFTER_HOURS} hour after the conversation's last session (mode current), with threshold 0, k
 * = {@code kMax} and a budget of {@value #BUDGET} tokens, so that what is measured is the ranking,
 * not the threshold or the budget. Records of zero relevance can still fill the tail of the top k
 * (ordered by the ranking extras, then newest first). Category 5 questions (a statement attributed
 * to the wrong speaker) are asked the same way, and {@link LocomoReport} reports how much of the
 * top 5 comes from the speaker the question names. Not thread-safe.
 */
public final class LocomoRunner {

  static final int BUDGET = 100_000;

  /**
   * Neighbouring turns on each side that make a turn's context. 2 was chosen on the dev split over
   * 1 (R@10 .802 -> .822 with the defaults) and 3 (.826, within noise of 2, at more text per
   * record).
   */
  static final int CONTEXT_SPAN = 2;

  static final long ASK_AFTER_HOURS = 1;

  /** The rankings compared; each is a change to a request with the engine's defaults. */
  public enum Ranking {
    /**
     * The engine's defaults: weighted fusion of dense, BM25 and entity, plus the ranking extras.
     */
    FULL("full", b -> b),
    /** Dense only: BM25, entity and window weights 0, no ranking extras. */
    DENSE(
        "dense",
        b -> b.weights(Weights.DEFAULT.withBm25(0).withEntity(0).withWindow(0).relevanceOnly())),
    /** BM25 only (over text and context): dense, entity and window weights 0, no ranking extras. */
    BM25(
        "bm25",
        b -> b.weights(Weights.DEFAULT.withDense(0).withEntity(0).withWindow(0).relevanceOnly())),
    /** The defaults with reciprocal rank fusion instead of the weighted sum. */
    FULL_RRF("full-rrf", b -> b.fusion(Fusion.rrf()));

    private final String code;
    private final UnaryOperator<RecallRequest.Builder> change;

    Ranking(String code, UnaryOperator<RecallRequest.Builder> change) {
      this.code = code;
      this.change = change;
    }

    public String code() {
      return code;
    }

    /** Applies this ranking's change to a request builder, returning it. */
    public RecallRequest.Builder apply(RecallRequest.Builder b) {
      return change.apply(b);
    }
  }

  /** How a conversation's turns reach the store. */
  public enum WritePath {
    /** Every turn one episodic memory through {@code rememberAll} (the baseline). */
    RAW("raw"),
    /**
     * Every session's turns through {@code ingest} (one call per session, acknowledged when the
     * turns are durable), extracted in the background by the engine's configured extractor (the
     * offline one by default) and consolidated; questions are asked once extraction drained.
     */
    OFFLINE("offline"),
    /**
     * As {@link #OFFLINE}, with the engine opened with the language-model extractor (the caller's
     * job: {@code mnemo eval locomo --write-path llm} sets {@code --extractor llm}).
     */
    LLM("llm");

    private final String code;

    WritePath(String code) {
      this.code = code;
    }

    public String code() {
      return code;
    }

    public static WritePath fromCode(String code) {
      for (WritePath w : values()) if (w.code.equals(code)) return w;
      throw new IllegalArgumentException(
          "write path must be one of raw, offline, llm, was '" + code + "'");
    }
  }

  private final Function<Path, Mnemo> engines;
  private final boolean neighbourContext;
  private final int kMax;
  private final WritePath writePath;
  private final dev.mnemo.spi.Tokenizer tokenizer = dev.mnemo.text.JTokkitTokenizer.cl100k();

  /**
   * @param engines opens a fresh engine on an empty directory; the runner closes it and deletes the
   *     directory after each conversation
   * @param neighbourContext whether turns are indexed with their neighbours as context
   * @param kMax how many records each question retrieves (the largest k measured), 1..1000
   */
  public LocomoRunner(Function<Path, Mnemo> engines, boolean neighbourContext, int kMax) {
    this(engines, neighbourContext, kMax, WritePath.RAW);
  }

  /**
   * @param writePath how turns reach the store; with {@link WritePath#OFFLINE}, neighbourContext is
   *     the extractor's
   */
  public LocomoRunner(
      Function<Path, Mnemo> engines, boolean neighbourContext, int kMax, WritePath writePath) {
    this.writePath = Objects.requireNonNull(writePath, "writePath");
    this.engines = Objects.requireNonNull(engines, "engines");
    if (kMax < 1 || kMax > RecallRequest.MAX_K) {
      throw new IllegalArgumentException(
          "k-max must be between 1 and " + RecallRequest.MAX_K + ", was " + kMax);
    }
    this.neighbourContext = neighbourContext;
    this.kMax = kMax;
  }

  /** Indexes and asks every conversation, one fresh engine each. */
  public LocomoReport run(List<LocomoConversation> conversations) {
    return run(conversations, line -> {});
  }

  /** As {@link #run(List)}, telling {@code progress} one line per conversation. */
  public LocomoReport run(List<LocomoConversation> conversations, Consumer<String> progress) {
    List<LocomoReport.Answer> answers = new ArrayList<>();
    int turns = 0;
    long ingestNanos = 0;
    long records = 0;
    long tokens = 0;
    long currentRecords = 0;
    long currentSources = 0;
    List<Double> acks = new ArrayList<>();
    long start = System.nanoTime();
    for (LocomoConversation c : conversations) {
      Path dir = TempDirs.create("mnemo-locomo-", "conversation " + c.name());
      int before = turns;
      try (Mnemo mnemo = engines.apply(dir)) {
        long t0 = System.nanoTime();
        if (writePath == WritePath.RAW) {
          List<NewMemory> memories = memories(c, neighbourContext);
          mnemo.rememberAll(memories);
          turns += memories.size();
        } else {
          for (Session s : c.sessions()) {
            List<dev.mnemo.Turn> ts = turns(c, s);
            long a0 = System.nanoTime();
            mnemo.ingest(ts);
            acks.add((System.nanoTime() - a0) / 1e6);
            turns += ts.size();
          }
          if (!mnemo.awaitIngested(Duration.ofHours(1))) {
            throw new IllegalStateException(
                "extraction of " + c.name() + " did not drain within an hour");
          }
        }
        ingestNanos += System.nanoTime() - t0;
        List<dev.mnemo.MemoryRecord> stored = new ArrayList<>();
        mnemo.export(c.name(), stored::add);
        records += stored.size();
        for (dev.mnemo.MemoryRecord r : stored) {
          tokens += tokenizer.count(r.text());
          if (r.expiredAt() == null) {
            currentRecords++;
            currentSources += r.sources().size();
          }
        }
        answers.addAll(ask(mnemo, c));
        progress.accept(
            String.format(
                java.util.Locale.ROOT,
                "[%d/%d] %s: %d turns; elapsed %.0f s",
                conversations.indexOf(c) + 1,
                conversations.size(),
                c.name(),
                turns - before,
                (System.nanoTime() - start) / 1e9));
      } finally {
        TempDirs.delete(dir);
      }
    }
    double seconds = ingestNanos / 1e9;
    acks.sort(Double::compare);
    LocomoReport.WriteStats write =
        new LocomoReport.WriteStats(
            writePath.code(),
            records,
            tokens,
            currentRecords == 0 ? Double.NaN : (double) currentSources / currentRecords,
            percentile(acks, 0.5),
            percentile(acks, 0.95),
            seconds == 0 ? Double.NaN : turns / seconds);
    return new LocomoReport(
        neighbourContext,
        kMax,
        conversations.stream().map(LocomoConversation::name).toList(),
        turns,
        seconds,
        answers,
        write);
  }

  private static double percentile(List<Double> sorted, double p) {
    if (sorted.isEmpty()) return Double.NaN;
    return sorted.get(Math.min(sorted.size() - 1, (int) Math.floor(p * sorted.size())));
  }

  /**
   * A session's turns as the write path receives them: owner = the conversation, id = the dia_id,
   * episode = {@code session_N}, role user (both speakers are people), speaker, at = the session's
   * time, text = the turn's text plus {@code " [shares an image: caption]"} as in {@link
   * Turn#memoryText()}.
   */
  static List<dev.mnemo.Turn> turns(LocomoConversation c, Session s) {
    List<dev.mnemo.Turn> out = new ArrayList<>();
    for (Turn t : s.turns()) {
      String text =
          t.imageCaption() == null || t.imageCaption().isBlank()
              ? t.text()
              : t.text() + " [shares an image: " + t.imageCaption() + "]";
      out.add(
          dev.mnemo.Turn.of(
                  c.name(), t.diaId(), dev.mnemo.Turn.Role.USER, t.speaker(), text, s.at())
              .inEpisode(s.episode()));
    }
    return out;
  }

  /** The memories of a conversation's turns, in order (see the class comment). */
  static List<NewMemory> memories(LocomoConversation c, boolean neighbourContext) {
    List<NewMemory> out = new ArrayList<>();
    for (Session s : c.sessions()) {
      List<Turn> ts = s.turns();
      for (int i = 0; i < ts.size(); i++) {
        Turn t = ts.get(i);
        NewMemory.Builder b =
            NewMemory.builder(c.name(), t.memoryText())
                .category(Category.EPISODIC)
                .recordedAt(s.at())
                .validFrom(s.at())
                .source(t.diaId())
                .episode(s.episode(), i)
                .metadata(java.util.Map.of("speaker", t.speaker()));
        if (neighbourContext) b.context(neighbours(ts.stream().map(Turn::memoryText).toList(), i));
        out.add(b.build());
      }
    }
    return out;
  }

  /**
   * The previous and the next of an episode's texts around {@code i}, one per line; null when there
   * are none.
   */
  static String neighbours(List<String> episode, int i) {
    List<String> around = new ArrayList<>(2 * CONTEXT_SPAN);
    for (int d = -CONTEXT_SPAN; d <= CONTEXT_SPAN; d++) {
      if (d != 0 && i + d >= 0 && i + d < episode.size()) around.add(episode.get(i + d));
    }
    return around.isEmpty() ? null : String.join("\n", around);
  }

  private List<LocomoReport.Answer> ask(Mnemo mnemo, LocomoConversation c) {
    List<LocomoReport.Answer> out = new ArrayList<>();
    List<Turn> all = c.turns();
    for (int qi = 0; qi < c.questions().size(); qi++) {
      Question q = c.questions().get(qi);
      boolean adversarial = q.category() == 5;
      if (!adversarial && (q.category() < 1 || q.category() > 4 || q.evidence().isEmpty()))
        continue;
      String named = adversarial ? namedSpeaker(q.text(), c.speakerA(), c.speakerB()) : null;
      if (adversarial && named == null) continue;
      for (Ranking r : Ranking.values()) {
        RecallRequest req = r.apply(request(c, q, kMax)).build();
        long t0 = System.nanoTime();
        RecallResult res = mnemo.recall(req);
        double ms = (System.nanoTime() - t0) / 1e6;
        List<String> top = res.sourceIds();
        List<List<String>> topRecords =
            res.selected().stream().map(x -> x.record().sources()).toList();
        double share = Double.NaN;
        double base = Double.NaN;
        if (adversarial) {
          List<Recalled> top5 = res.selected().subList(0, Math.min(5, res.selected().size()));
          String prefix = named + ":";
          share =
              top5.isEmpty()
                  ? Double.NaN
                  : (double) top5.stream().filter(x -> x.record().text().startsWith(prefix)).count()
                      / top5.size();
          base = (double) all.stream().filter(t -> t.speaker().equals(named)).count() / all.size();
        }
        out.add(
            new LocomoReport.Answer(
                c.name(), qi, q.category(), r, q.evidence(), top, ms, share, base, topRecords));
      }
    }
    return out;
  }

  /**
   * The request every ranking starts from: the question asked {@value #ASK_AFTER_HOURS} hour after
   * the last session, k = kMax, a budget that never binds and the thresholds off, so that what is
   * measured is the ranking.
   */
  static RecallRequest.Builder request(LocomoConversation c, Question q, int kMax) {
    return rankingRequest(
        c.name(), q.text(), c.lastSessionAt().plus(Duration.ofHours(ASK_AFTER_HOURS)), kMax);
  }

  /**
   * A request that measures the ranking alone: k = kMax, a budget that never binds, the thresholds
   * off.
   */
  static RecallRequest.Builder rankingRequest(
      String owner, String question, Instant askedAt, int kMax) {
    return RecallRequest.builder(owner, question)
        .askedAt(askedAt)
        .k(kMax)
        .budgetTokens(BUDGET)
        .threshold(0)
        .relativeThreshold(0)
        .minRelevance(0.0);
  }

  /**
   * The one speaker whose name the question contains as a word, or null when it names both or
   * neither.
   */
  static String namedSpeaker(String question, String a, String b) {
    boolean hasA = Pattern.compile("\\b" + Pattern.quote(a) + "\\b").matcher(question).find();
    boolean hasB = Pattern.compile("\\b" + Pattern.quote(b) + "\\b").matcher(question).find();
    return hasA == hasB ? null : hasA ? a : b;
  }
}

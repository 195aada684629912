package dev.mnemo.internal;

import dev.mnemo.CandidateTrace;
import dev.mnemo.ConflictPolicy;
import dev.mnemo.Fusion;
import dev.mnemo.LoggedRecall;
import dev.mnemo.MemoryRecord;
import dev.mnemo.Outcome;
import dev.mnemo.RecallRequest;
import dev.mnemo.RecallResult;
import dev.mnemo.RecallTrace;
import dev.mnemo.Recalled;
import dev.mnemo.RelevanceModel;
import dev.mnemo.RelevanceTrace;
import dev.mnemo.Signals;
import dev.mnemo.TimeFilter;
import dev.mnemo.Weights;
import dev.mnemo.spi.Candidate;
import dev.mnemo.spi.CandidateQuery;
import dev.mnemo.spi.CandidateSet;
import dev.mnemo.spi.Eligibility;
import dev.mnemo.spi.Embedder;
import dev.mnemo.spi.MemoryStore;
import dev.mnemo.spi.Tokenizer;
import dev.mnemo.text.Entities;
import dev.mnemo.text.QueryPerson;
import dev.mnemo.text.Words;
import dev.mnemo.time.TimeExpressions;
import dev.mnemo.time.TimeRange;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The read path, stage by stage: eligibility, candidates, fusion, ranking, threshold, packing,
 * conflicts, render, trace. Each stage is a method below whose javadoc states its strategy and
 * parameters. Stateless apart from its collaborators; thread-safe.
 */
final class ReadPath {
  /** The metadata key naming who said a record (set by the write path from a turn's speaker). */
  static final String SPEAKER = "speaker";

  /**
   * Metadata key of the conversation role a record was said in (user, assistant): the speaker
   * signal reads it.
   */
  static final String ROLE = "role";

  /**
   * Metadata key of a record's fact kind (preference, plan, status, ...): {@link
   * dev.mnemo.Freshness} reads it.
   */
  static final String KIND = "kind";

  private final MemoryStore store;
  private final Embedder embedder;
  private final Tokenizer tokenizer;
  private final InstantSource clock;
  private final ZoneId zone;
  private final DenseCalibration calibration;
  private final RelevanceModel relevanceModel;

  /** The name-free comparison when the embedder has a companion, else null. */
  private final TopicMatch topics;

  /**
   * Whether the relevance model reads {@code tcos}; a traced recall computes it either way (the fit
   * reads traces).
   */
  private final boolean usesTopics;

  /**
   * Set once when the companion could not be loaded; recalls then go on with {@code tcos} missing,
   * as without a companion.
   */
  private volatile String topicsFailed;

  /** {@link #relevanceModel} reading {@link RelevanceFeatures#NAMES}-ordered values. */
  private final RelevanceModel.Binding relevance;

  /** The store's freshness, under each request's. */
  private final dev.mnemo.Freshness freshness;

  /**
   * Whether the query is embedded on a thread of its own while the store searches the signals that
   * need no vector ({@link MemoryStore#candidates(CandidateQuery, java.util.function.Supplier)}).
   */
  private final boolean parallelSignals;

  ReadPath(
      MemoryStore store,
      Embedder embedder,
      Tokenizer tokenizer,
      InstantSource clock,
      ZoneId zone,
      dev.mnemo.Freshness freshness,
      RelevanceModel relevanceModel,
      boolean parallelSignals) {
    this.parallelSignals = parallelSignals;
    this.relevanceModel = relevanceModel;
    this.relevance = relevanceModel.bind(RelevanceFeatures.NAMES);
    this.freshness = freshness;
    this.store = store;
    this.embedder = embedder;
    this.tokenizer = tokenizer;
    this.clock = clock;
    this.zone = zone;
    this.calibration = embedder == null ? null : new DenseCalibration(embedder);
    this.topics = embedder == null ? null : new TopicMatch(embedder::companion);
    this.usesTopics = relevanceModel.features().contains("tcos");
  }

  /**
   * Where a query is embedded while the store searches (parallel signals): a new virtual thread per
   * query, so concurrent recalls never queue behind each other and nothing idles between them.
   */
  private static final java.util.concurrent.Executor EMBED_THREADS =
      task -> Thread.ofVirtual().name("mnemo-embed-query").start(task);

  /** The embedded vector, or the embedder's own exception (not wrapped). */
  private static float[] joined(java.util.concurrent.CompletableFuture<float[]> embedding) {
    try {
      return embedding.join();
    } catch (java.util.concurrent.CompletionException e) {
      if (e.getCause() instanceof RuntimeException r) throw r;
      if (e.getCause() instanceof Error err) throw err;
      throw e;
    }
  }

  /** One candidate moving through the stages. */
  static final class Scored {
    final Candidate c;
    final MemoryRecord r;
    final Set<String> foundBy = new TreeSet<>();
    double cosine = Double.NaN;

    /** The companion model's cosine of the name-free message and record ({@link TopicMatch}). */
    double topic = Double.NaN;

    double dense;
    double window;
    double speaker;
    double bm25;
    double entity;
    double relevance;
    double fused;
    double rrf = Double.NaN;
    double pairFloor;
    double recency;
    double frequency;
    double authority;
    double timeMatch;

    /**
     * 1, or 0 for a record (not a conversation turn) outside the time the question names in the
     * current mode: the first key of the order, so a named time is a constraint (every record
     * inside it ranks before any outside), not a hint.
     */
    int tier = 1;

    double score;
    int tokens = -1;

    /** Tokens of the record's rendered line (its share of the block), or -1 when not packed. */
    int lineTokens = -1;

    Outcome outcome;
    String reason;

    /**
     * The relevance model's features (values in {@link RelevanceFeatures#NAMES} order) and
     * probability.
     */
    double[] features;

    double probability = Double.NaN;

    /** Whether the fetch gate withheld it (its probability below min_relevance). */
    boolean withheld;

    final List<String> conflictsWith = new ArrayList<>();

    Scored(Candidate c) {
      this.c = c;
      this.r = c.record();
    }
  }

  RecallResult recall(RecallRequest req) {
    return recall(req, null);
  }

  /**
   * A recall whose dense signal uses {@code vector} instead of embedding the query (null: embed
   * it): the ingest pipeline looks for records similar to a candidate with the candidate's own
   * passage vector, computed once for its write, which saves one model call per candidate.
   */
  RecallResult recall(RecallRequest req, float[] queryVector) {
    return recall(req, queryVector, false);
  }

  /**
   * A recall that builds the trace when the request asks for {@code explain} or when {@code
   * keepTrace} is set (the retrieval log needs the candidates of every logged recall; the trace is
   * collected from the stages' own data, so it costs only the objects that hold it).
   */
  RecallResult recall(RecallRequest req, float[] queryVector, boolean keepTrace) {
    Map<String, Long> timings = new LinkedHashMap<>();
    long t0 = System.nanoTime();
    // Stores keep milliseconds; so does the read path, so the store's filter and the reference
    // semantics of Eligibility.admits agree to the instant.
    Instant askedAt = millis(req.askedAt() == null ? clock.instant() : req.askedAt());
    Instant validTime = millis(req.mode().validTime(askedAt));
    Instant knownTime = millis(req.mode().knownTime(askedAt));
    String text = req.retrievalText();
    TimeRange range =
        req.timeFilter() == TimeFilter.OFF
            ? null
            : TimeExpressions.parse(text, askedAt, zone).orElse(null);

    RecallTrace.Gate gate = gate(req, text);
    if (gate.fetch().equals(SKIP)) {
      timings.put("total", System.nanoTime() - t0);
      String rendered = Renderer.render(List.of(), Renderer.Style.PLAIN);
      // Traced as the full path is: for explain, and for the retrieval log (a skipped message is a
      // logged recall too, with the gate's reason).
      RecallTrace trace =
          !req.explain() && !keepTrace
              ? null
              : new RecallTrace(
                  req.owner(),
                  req.query(),
                  askedAt,
                  req.mode().code(),
                  validTime,
                  knownTime,
                  range,
                  List.of(),
                  Double.NaN,
                  req.fusion().code(),
                  req.packing().code(),
                  req.k(),
                  req.budgetTokens(),
                  req.threshold(),
                  req.weights(),
                  tokenizer.name(),
                  embedder == null ? null : embedder.modelId(),
                  List.of(),
                  0,
                  tokenizer.count(rendered),
                  timings,
                  gate);
      return new RecallResult(
          List.of(), rendered, 0, tokenizer.count(rendered), withheld(gate, List.of()), trace);
    }
    Eligibility eligibility = eligibility(req, validTime, knownTime, range);
    List<String> queryKeys = new ArrayList<>(Entities.queryKeys(text));
    for (String k : req.focus().entityKeys()) if (!queryKeys.contains(k)) queryKeys.add(k);
    float[] vector = null;
    java.util.concurrent.CompletableFuture<float[]> embedding = null;
    long[] embedNanos = {0};
    if (embedder != null
        && (req.weights().dense() > 0 || req.weights().window() > 0)
        && !text.isBlank()) {
      if (queryVector != null) {
        vector = queryVector;
      } else if (parallelSignals) {
        embedding =
            java.util.concurrent.CompletableFuture.supplyAsync(
                () -> {
                  long start = System.nanoTime();
                  float[] v = embedder.embedQuery(text);
                  embedNanos[0] = System.nanoTime() - start;
                  return v;
                },
                EMBED_THREADS);
      } else {
        vector = embedder.embedQuery(text);
      }
    }
    long t1 = System.nanoTime();
    timings.put("embed", t1 - t0);

    CandidateQuery query =
        new CandidateQuery(
            eligibility,
            vector,
            text,
            Set.copyOf(queryKeys),
            range,
            req.candidates(),
            req.weights().context());
    CandidateSet found;
    if (text.isBlank() && queryKeys.isEmpty()) {
      found = CandidateSet.empty();
    } else if (embedding != null) {
      var pending = embedding;
      found = store.candidates(query, () -> joined(pending));
    } else {
      found = store.candidates(query);
    }
    if (embedding != null) {
      vector = joined(embedding);
      // the embedding overlapped the store's search: its own time, the search's wall time below
      timings.put("embed", t1 - t0 + embedNanos[0]);
    }
    long t2 = System.nanoTime();
    timings.put("candidates", t2 - t1);

    List<Scored> scored = new ArrayList<>(found.candidates().size());
    for (Candidate c : found.candidates()) scored.add(new Scored(c));
    double[] denseFloor = {Double.NaN};
    List<String> queryEntities = fuse(scored, req, queryKeys, vector, found, denseFloor);
    long t3 = System.nanoTime();
    timings.put("fuse", t3 - t2);

    dev.mnemo.Freshness fresh =
        req.freshness() == null ? freshness : req.freshness().over(freshness);
    rank(scored, req, validTime, range, queryKeys, fresh, gate.exhaustive());
    authorityFirst(scored);
    // The probability decides only for candidates still in the running (boosted trees cost about
    // 10 us a candidate, the features a few); a trace (explain, or a logged recall) shows it for
    // every candidate. Untraced greedy packing asks for it lazily, in rank order, only for the
    // candidates the packing reaches before k are selected (the gate only removes candidates, so
    // the selection is the same; FetchGateTest).
    boolean traced = req.explain() || keepTrace;
    boolean gateOn = gate.minRelevance() > 0;
    boolean modelApplies =
        gateOn || relevanceModel.fits(embedder == null ? null : embedder.modelId());
    if (topics != null && vector != null && (usesTopics && modelApplies || traced))
      fillTopics(scored, text, found, req.k());
    RecallTrace.Gate lazyGate =
        !traced && gateOn && req.packing() == dev.mnemo.Packing.GREEDY ? gate : null;
    RelevanceFeatures.compute(
        scored,
        new RelevanceFeatures.QueryContext(
            text,
            vector,
            Double.isNaN(denseFloor[0]) ? 0 : denseFloor[0],
            range,
            found.eligibleCount(),
            found.entityFrequencies(),
            queryNames(req),
            vector == null ? null : calibration.reference(vector)),
        traced);
    if (lazyGate == null) {
      for (Scored s : scored) {
        if (traced || (gateOn || modelApplies && req.blockRelevance()) && s.outcome == null)
          s.probability = relevance.probability(s.features);
      }
      applyGate(scored, gate);
    }
    long t4 = System.nanoTime();
    timings.put("rank", t4 - t3);

    List<Scored> selected = pack(scored, req, lazyGate);
    selected = surfaceConflicts(selected, scored, req, eligibility, found.versions());
    long t5 = System.nanoTime();
    timings.put("pack", t5 - t4);

    String rendered = fitBlock(selected, req);
    int renderedTokens = rendered.isEmpty() ? 0 : tokenizer.count(rendered);
    int used = selected.stream().mapToInt(s -> s.tokens).sum();
    long t6 = System.nanoTime();
    timings.put("render", t6 - t5);
    timings.put("total", t6 - t0);

    List<Recalled> out = new ArrayList<>();
    for (Scored s : selected) {
      if (modelApplies && Double.isNaN(s.probability) && s.features != null)
        s.probability = relevance.probability(s.features);
      out.add(
          new Recalled(
              s.r,
              s.score,
              s.relevance,
              modelApplies ? s.probability : Double.NaN,
              s.tokens,
              s.conflictsWith));
    }
    RecallTrace trace = null;
    if (req.explain() || keepTrace) {
      List<CandidateTrace> ct = new ArrayList<>(scored.size());
      for (Scored s : scored) {
        ct.add(
            new CandidateTrace(
                s.r.id(),
                s.r.sources(),
                s.r.text(),
                s.r.factKey(),
                s.r.validFrom(),
                s.r.validTo(),
                s.r.recordedAt(),
                s.foundBy,
                signals(s),
                s.outcome,
                s.reason,
                s.tokens,
                List.copyOf(s.conflictsWith),
                s.features == null ? null : relevanceTrace(s, req.explain())));
      }
      trace =
          new RecallTrace(
              req.owner(),
              req.query(),
              askedAt,
              req.mode().code(),
              validTime,
              knownTime,
              range,
              queryEntities,
              denseFloor[0],
              req.fusion().code(),
              req.packing().code(),
              req.k(),
              req.budgetTokens(),
              req.threshold(),
              req.weights(),
              tokenizer.name(),
              embedder == null ? null : embedder.modelId(),
              ct,
              used,
              renderedTokens,
              timings,
              gate);
    }
    return new RecallResult(out, rendered, used, renderedTokens, withheld(gate, scored), trace);
  }

  /**
   * What the fetch gate held back: how many candidates it withheld and the best of their
   * probabilities (among the candidates the packing reached: untraced greedy packing stops asking
   * once k records are selected).
   */
  private static RecallResult.Withheld withheld(RecallTrace.Gate gate, List<Scored> scored) {
    return RecallResult.Withheld.of(
        gate, scored.stream().filter(s -> s.withheld).mapToDouble(s -> s.probability));
  }

  static final String RETRIEVE = "retrieve";
  static final String SKIP = "skip";

  /**
   * The fetch gate's settings for one request, and the fetch decision: a message that needs no
   * memory (greetings, thanks, acknowledgements, small talk: {@link Words#isSmallTalk}) is not
   * searched at all. The threshold on the relevance probability is the request's {@code
   * minRelevance}, else the relevance model's default, or its lower exhaustive threshold for
   * aggregation questions ({@link RelevanceFeatures#isAggregation}: "how many times...", "list
   * every..."), where recall matters more. A request's threshold of 0 turns the gate off, the fetch
   * decision included. The model's default thresholds apply only with the embedder it was fitted
   * with ({@link RelevanceModel#fits}); with another, no default threshold applies (the fetch
   * decision, which needs no model, still does).
   */
  private RecallTrace.Gate gate(RecallRequest req, String text) {
    boolean exhaustive =
        req.exhaustive() != null ? req.exhaustive() : RelevanceFeatures.isAggregation(text);
    String embeddingModel = embedder == null ? null : embedder.modelId();
    boolean fits = relevanceModel.fits(embeddingModel);
    double min =
        req.minRelevance() != null
            ? req.minRelevance()
            : !fits
                ? 0
                : exhaustive
                    ? relevanceModel.exhaustiveMinRelevance()
                    : relevanceModel.minRelevance();
    boolean off = req.minRelevance() != null && req.minRelevance() == 0;
    if (!off && Words.isSmallTalk(text)) {
      return new RecallTrace.Gate(
          SKIP,
          "small talk: no content word, nothing to look up",
          min,
          exhaustive,
          relevanceModel.id());
    }
    String reason = exhaustive ? "aggregation question: exhaustive" : "content words";
    if (req.minRelevance() == null && !fits) {
      reason +=
          "; relevance model fitted with "
              + relevanceModel.embedder()
              + ", embedder is "
              + embeddingModel
              + ": no default min_relevance (set one, or fit a model: eval fit-relevance)";
    }
    return new RecallTrace.Gate(RETRIEVE, reason, min, exhaustive, relevanceModel.id());
  }

  /**
   * Stage 5b, the fetch gate: a candidate whose relevance probability is below the gate's threshold
   * is {@code below_threshold}, whatever k and the budget would allow (an empty answer is valid).
   */
  private static void applyGate(List<Scored> scored, RecallTrace.Gate gate) {
    if (gate.minRelevance() <= 0) return;
    for (Scored s : scored) if (s.outcome == null) gated(s, gate, true);
  }

  /**
   * Whether {@code s}'s probability is below the gate's threshold, marking it {@code
   * below_threshold} if so, with the reason when {@code reason} (a recall no trace shows leaves it
   * out: formatting it was a percent of recall).
   */
  private static boolean gated(Scored s, RecallTrace.Gate gate, boolean reason) {
    if (s.probability >= gate.minRelevance()) return false;
    s.outcome = Outcome.BELOW_THRESHOLD;
    s.withheld = true;
    s.reason =
        !reason
            ? null
            : String.format(
                java.util.Locale.ROOT,
                "relevance probability %.3f < min_relevance %.3f",
                s.probability,
                gate.minRelevance());
    return true;
  }

  private static Instant millis(Instant t) {
    return t.truncatedTo(java.time.temporal.ChronoUnit.MILLIS);
  }

  /**
   * Stage 1, eligibility: owner, scope (the request's scope or records without one), categories,
   * metadata, the caller's principals against the records' access labels, and the temporal mode's
   * valid and known instants; with {@link TimeFilter#FILTER} the query's time range too. Handed to
   * the store, which applies it inside every search.
   */
  static Eligibility eligibility(
      RecallRequest req, Instant validTime, Instant knownTime, TimeRange range) {
    return new Eligibility(
        req.owner(),
        req.scope(),
        req.categories(),
        req.metadata(),
        validTime,
        knownTime,
        req.timeFilter() == TimeFilter.FILTER ? range : null,
        req.principals());
  }

  /**
   * Stages 2 and 3, signals and fusion, each signal on an absolute [0, 1] scale:
   *
   * <ul>
   *   <li>Dense: {@code max(0, (cos - floor) / (1 - floor))}, with the per-query floor of {@link
   *       DenseCalibration} (the query's similarity to unrelated everyday sentences).
   *   <li>BM25: the raw score over the query's maximum attainable score (the sum of its terms'
   *       IDF), through a saturating sigmoid: {@code tanh(s * x) / tanh(s)}, s = bm25Scale.
   *   <li>Entity: for a record naming some of the query's names ({@link Entities#nameKeys}, and the
   *       focus's entities), the highest specificity of those keys among the owner's eligible
   *       records, {@code ln((N + 1) / df) / ln(N + 1)}: a name every record mentions says nothing,
   *       a rare one says a lot. The entity weight is scaled by the same specificity, so an
   *       uninformative name neither helps nor dilutes.
   * </ul>
   *
   * Relevance (what the thresholds test) is the weighted sum of dense, BM25 and entity over their
   * weights' sum: the record's own evidence. The ranking key adds the windowed dense signal for
   * records with an episode ({@code (own + ww * window) / (weights + ww)}); under RRF the order key
   * is {@code sum w / (k + rank)} normalized by its maximum.
   *
   * @return the query's names that some candidate names
   */
  private List<String> fuse(
      List<Scored> scored,
      RecallRequest req,
      List<String> queryKeys,
      float[] vector,
      CandidateSet set,
      double[] denseFloorOut) {
    Weights w = req.weights();
    boolean dense = vector != null;
    double floor = dense ? calibration.floor(vector) : 0;
    denseFloorOut[0] = dense ? floor : Double.NaN;
    Map<String, Double> specificity = new LinkedHashMap<>();
    long n = set.eligibleCount();
    // Every content word of the query finds entity candidates; only its names weigh (see
    // Entities.nameKeys).
    Set<String> names = queryNames(req);
    for (var e : set.entityFrequencies().entrySet()) {
      if (!names.contains(e.getKey())) continue;
      long df = Math.max(1, e.getValue());
      specificity.put(e.getKey(), n <= 0 ? 0 : Math.log((n + 1.0) / df) / Math.log(n + 1.0));
    }
    double maxSpecificity =
        specificity.values().stream().mapToDouble(Double::doubleValue).max().orElse(0);
    double we = w.entity() * maxSpecificity;
    double wd = dense ? w.dense() : 0;
    // BM25 keeps its full weight even when few query words occur in the store: scaling it by that
    // share was measured to let the dense signal alone select small talk for unrelated questions.
    double wb = w.bm25();
    double ww = dense ? w.window() : 0;
    double wsum = wd + ww + wb + we;
    for (Scored s : scored) {
      Candidate c = s.c;
      if (c.denseRank() > 0) s.foundBy.add("dense");
      if (c.bm25Rank() > 0) s.foundBy.add("bm25");
      if (c.entityRank() > 0) s.foundBy.add("entity");
      if (c.timeRank() > 0) s.foundBy.add("time");
      s.cosine = c.cosine();
      // A record close to everything (small talk) is judged against its own floor too: the
      // pair's floor is the mean of the query's and the record's similarity to unrelated sentences.
      double pairFloor = floor;
      if (dense && s.r.embedding() != null && s.r.embedding().length == vector.length) {
        pairFloor = (floor + calibration.recordFloor(s.r.id(), s.r.embedding())) / 2;
      }
      s.pairFloor = pairFloor;
      s.dense =
          Double.isNaN(c.cosine()) ? 0 : Math.max(0, (c.cosine() - pairFloor) / (1 - pairFloor));
      double x = set.bm25Max() <= 0 ? 0 : Math.min(1, Math.max(0, c.bm25()) / set.bm25Max());
      s.bm25 = Math.tanh(w.bm25Scale() * x) / Math.tanh(w.bm25Scale());
      double ent = 0;
      for (String e : s.r.entities()) ent = Math.max(ent, specificity.getOrDefault(e, 0.0));
      s.entity = ent;
    }
    if (ww > 0) window(scored);
    for (Scored s : scored) {
      // The record's own evidence decides the threshold; the conversation around it (the window)
      // reorders, it cannot admit a record whose own text does not match.
      double own = wd * s.dense + wb * s.bm25 + we * s.entity;
      double ownWeight = wsum - ww;
      double applicable = wsum - (hasWindow(s.r) ? 0 : ww);
      s.fused = applicable <= 0 ? 0 : (own + (hasWindow(s.r) ? ww * s.window : 0)) / applicable;
      s.relevance = ownWeight <= 0 ? s.fused : own / ownWeight;
    }
    if (req.fusion() instanceof Fusion.ReciprocalRank rrf) {
      Map<String, Integer> denseRanks = ranks(scored, s -> s.dense);
      Map<String, Integer> windowRanks = ranks(scored, s -> s.window);
      Map<String, Integer> bm25Ranks = ranks(scored, s -> s.bm25);
      Map<String, Integer> entityRanks = ranks(scored, s -> s.entity);
      for (Scored s : scored) {
        double max = (wsum - (hasWindow(s.r) ? 0 : ww)) / (rrf.k() + 1.0);
        double v = 0;
        Integer r;
        if (wd > 0 && (r = denseRanks.get(s.r.id())) != null) v += wd / (rrf.k() + r);
        if (ww > 0 && (r = windowRanks.get(s.r.id())) != null) v += ww / (rrf.k() + r);
        if (wb > 0 && (r = bm25Ranks.get(s.r.id())) != null) v += wb / (rrf.k() + r);
        if (we > 0 && (r = entityRanks.get(s.r.id())) != null) v += we / (rrf.k() + r);
        s.rrf = max <= 0 ? 0 : v / max;
      }
    }
    return List.copyOf(specificity.keySet());
  }

  /**
   * Freshness never overrides authority: among candidates of one fact key (a lower-authority
   * version kept beside a higher one, docs/write-path.md), the more trusted one comes first
   * whatever recency did to the scores; each fact's versions keep the positions the fact had, so
   * other records do not move. Greedy packing follows this order.
   */
  private static void authorityFirst(List<Scored> scored) {
    Map<String, List<Integer>> positions = new LinkedHashMap<>();
    for (int i = 0; i < scored.size(); i++) {
      String key = scored.get(i).r.factKey();
      if (key != null) positions.computeIfAbsent(key, x -> new ArrayList<>()).add(i);
    }
    for (List<Integer> at : positions.values()) {
      if (at.size() < 2) continue;
      List<Scored> group = new ArrayList<>();
      for (int i : at) group.add(scored.get(i));
      group.sort(
          Comparator.<Scored>comparingInt(x -> -x.r.authority().rank())
              .thenComparing(Comparator.<Scored>comparingDouble(x -> x.score).reversed())
              .thenComparing(TIE_BREAK));
      for (int j = 0; j < at.size(); j++) scored.set(at.get(j), group.get(j));
    }
  }

  /**
   * The query's names that weigh ({@link Entities#nameKeys} of the retrieval text) and the focus's
   * entities.
   */
  private static Set<String> queryNames(RecallRequest req) {
    Set<String> names = new HashSet<>(Entities.nameKeys(req.retrievalText()));
    names.addAll(req.focus().nameKeys());
    return names;
  }

  /** Episode neighbours on each side that the windowed dense signal reads. */
  static final int WINDOW_SPAN = 2;

  /** The record's own weight in its window, against 1 for each neighbour. */
  static final double WINDOW_SELF = 2.0;

  /**
   * The windowed dense signal: a record's cosine averaged with its episode neighbours' (the records
   * of the same episode within {@value #WINDOW_SPAN} positions), the record itself counting {@value
   * #WINDOW_SELF} times, rescaled above the record's pair floor like the dense signal.
   * Conversations are read as a whole: the answer to "when did Ana move?" may sit in a short reply
   * ("Last June, finally!") whose own words say little, next to a turn that says a lot. A neighbour
   * that is not among the candidates was not in the dense top list, so its cosine is at most the
   * lowest candidate's, which is used as its estimate. Records without an episode have no window:
   * the signal does not apply to them (their relevance is over the other signals' weights). Span
   * and self weight were chosen on the LoCoMo dev split (docs/read-path.md).
   */
  private static void window(List<Scored> scored) {
    Map<String, Scored> byPosition = new java.util.HashMap<>();
    double minCos = Double.POSITIVE_INFINITY;
    for (Scored s : scored) {
      if (Double.isNaN(s.cosine)) continue;
      minCos = Math.min(minCos, s.cosine);
      if (hasWindow(s.r)) byPosition.put(s.r.episode() + "\u0000" + s.r.seq(), s);
    }
    for (Scored s : scored) {
      if (Double.isNaN(s.cosine) || !hasWindow(s.r)) continue;
      double sum = WINDOW_SELF * s.cosine;
      double n = WINDOW_SELF;
      for (int d = -WINDOW_SPAN; d <= WINDOW_SPAN; d++) {
        if (d == 0 || s.r.seq() + d < 0) continue;
        Scored nb = byPosition.get(s.r.episode() + "\u0000" + (s.r.seq() + d));
        sum += nb == null ? minCos : nb.cosine;
        n++;
      }
      double cos = sum / n;
      s.window = Math.max(0, (cos - s.pairFloor) / (1 - s.pairFloor));
    }
  }

  private static boolean hasWindow(MemoryRecord r) {
    return r.episode() != null && r.seq() >= 0;
  }

  /**
   * Equal scores: newer first, then by text, then by id. Ids are random, so ordering by content
   * first makes two stores holding the same history rank it the same way (reproducible evaluation).
   */
  private static final Comparator<Scored> TIE_BREAK =
      Comparator.<Scored, java.time.Instant>comparing(
              s -> s.r.recordedAt(), Comparator.reverseOrder())
          .thenComparing(s -> s.r.text())
          .thenComparing(s -> s.r.id());

  /**
   * The ranking's order: inside the named time first ({@code tier}), then score, then {@link
   * #TIE_BREAK}.
   */
  private static final Comparator<Scored> BY_RANK =
      Comparator.<Scored>comparingInt(s -> -s.tier)
          .thenComparing(Comparator.<Scored>comparingDouble(s -> s.score).reversed())
          .thenComparing(TIE_BREAK);

  /**
   * 1-based ranks by a signal, over candidates where it is positive; ties broken by {@link
   * #TIE_BREAK}.
   */
  private static Map<String, Integer> ranks(
      List<Scored> scored, java.util.function.ToDoubleFunction<Scored> f) {
    List<Scored> sorted = new ArrayList<>();
    for (Scored s : scored) if (f.applyAsDouble(s) > 0) sorted.add(s);
    sorted.sort(Comparator.comparingDouble(f).reversed().thenComparing(TIE_BREAK));
    Map<String, Integer> out = new LinkedHashMap<>();
    for (int i = 0; i < sorted.size(); i++) out.put(sorted.get(i).r.id(), i + 1);
    return out;
  }

  /**
   * Whether a question's time range matches a record: its event time where it has one, its valid
   * start otherwise.
   */
  static boolean timeMatches(TimeRange range, MemoryRecord r) {
    return r.eventTime() != null
        ? r.eventTime().overlaps(range.from(), range.to())
        : range.contains(r.validFrom());
  }

  /**
   * Stage 4, ranking: {@code score = base * (1 + wr * recency + wi * importance + wf * frequency +
   * wa * authority + wt * timeMatch + ws * speaker)}, where base is the relevance with the window
   * (or the normalized RRF score). Multiplicative on purpose: the ranking signals reorder records
   * that are about the question, they cannot lift one that is not (with the default weights a
   * record gains at most 110 %, of which 50 % for being said by the person the question names).
   * speaker is 1 when the record's {@code speaker} metadata, normalized, is one of the query's
   * entity keys, or when its {@code role} metadata is the conversation role the query's grammatical
   * person points at ({@link QueryPerson}: "what did I buy?" asks about the user's turns, "what did
   * you recommend?" about the assistant's). Recency is {@code 0.5^(age / halfLife)}, age measured
   * from the later of the record's valid and recorded start to the mode's valid instant, with the
   * half-life of its fact kind ({@code kind} metadata) when the request's {@link
   * dev.mnemo.Freshness} has one, else of its category; when the query names a time, recency is 0
   * for records outside it (it orders only inside the constraint); a record older than its kind's
   * (or category's) maximum age is {@code too_old}. Frequency is {@code n / (n + 3)}. Authority is
   * 0.5 derived, 0.75 explicit, 1.0 verified. timeMatch is 1 when the record's event time (the time
   * its text is about, {@link MemoryRecord#eventTime}) overlaps the query's time range, or, for a
   * record without one, when its valid time starts inside it. Then stage 5, the threshold:
   * relevance below the absolute threshold, or below {@code relativeThreshold} times the best
   * candidate's relevance, is {@code below_threshold} (a record half as relevant as the best one is
   * more likely noise than a second answer). Sorted by tier (a record outside the question's named
   * time after every record inside it), then score, then newer first, then text, then id.
   */
  private static void rank(
      List<Scored> scored,
      RecallRequest req,
      Instant validTime,
      TimeRange range,
      List<String> queryKeys,
      dev.mnemo.Freshness fresh,
      boolean exhaustive) {
    Weights w = req.weights();
    String askedRole = QueryPerson.role(req.retrievalText());
    boolean current = req.mode() instanceof dev.mnemo.TemporalMode.Current;
    for (Scored s : scored) {
      MemoryRecord r = s.r;
      Instant start = r.recordedAt().isAfter(r.validFrom()) ? r.recordedAt() : r.validFrom();
      if (start.isAfter(validTime)) start = validTime;
      String kind = r.metadata().get(KIND);
      Duration half = fresh.halfLife(kind, req.halfLives().get(r.category()));
      double ageDays = Duration.between(start, validTime).toMillis() / 86_400_000.0;
      Duration maxAge = fresh.maxAge(kind, r.category());
      if (maxAge != null && Duration.between(start, validTime).compareTo(maxAge) > 0) {
        s.outcome = Outcome.TOO_OLD;
        s.reason =
            String.format(
                java.util.Locale.ROOT,
                "age %.0f d > max age %d d of %s",
                ageDays,
                maxAge.toDays(),
                kind != null && fresh.maxAges().containsKey(kind)
                    ? "kind '" + kind + "'"
                    : "category " + r.category().code());
      }
      s.recency = Math.pow(0.5, ageDays / (half.toMillis() / 86_400_000.0));
      s.frequency = r.accessCount() / (r.accessCount() + 3.0);
      s.authority =
          switch (r.authority()) {
            case DERIVED -> 0.5;
            case EXPLICIT -> 0.75;
            case VERIFIED -> 1.0;
          };
      s.timeMatch = range != null && timeMatches(range, r) ? 1 : 0;
      // Time words are a constraint, not a hint: recency orders only inside the named time, so a
      // newer record outside "March" cannot win on being newer.
      if (range != null && s.timeMatch == 0) s.recency = 0;
      // The constraint: in the current mode the named time asks what happened then, and records
      // that start inside it come first. When the request sets the valid or known time itself, that
      // instant already says which version of a fact is asked for ("what was Maya eating in May?"
      // at
      // valid_at May 10 wants the diet that held then, started earlier, not a note that started in
      // May): the named time stays a boost (measured on the generated dev histories: constraining
      // those too cost valid-time questions hit@1 0.79 -> 0.67). A turn of a conversation (a record
      // with an episode position) is dated by when it was said, which need not be when what it
      // tells happened: for it too the named time stays a boost (constraining turns cost LoCoMo dev
      // full R@10 0.821 -> 0.793).
      s.tier = range != null && s.timeMatch == 0 && current && !hasWindow(r) ? 0 : 1;
      String speaker = r.metadata().get(SPEAKER);
      boolean named = speaker != null && queryKeys.contains(Entities.normalize(speaker));
      s.speaker = named || (askedRole != null && askedRole.equals(r.metadata().get(ROLE))) ? 1 : 0;
      double base = Double.isNaN(s.rrf) ? s.fused : s.rrf;
      s.score =
          base
              * (1
                  + w.recency() * s.recency
                  + w.importance() * r.importance()
                  + w.frequency() * s.frequency
                  + w.authority() * s.authority
                  + w.timeMatch() * s.timeMatch
                  + w.speaker() * s.speaker);
    }
    scored.sort(BY_RANK);
    double best = 0;
    for (Scored s : scored) best = Math.max(best, s.relevance);
    double relative = exhaustive ? 0 : req.relativeThreshold();
    double relativeFloor = relative * best;
    for (Scored s : scored) {
      if (s.outcome == Outcome.TOO_OLD) continue;
      if (s.relevance < req.threshold()) {
        s.outcome = Outcome.BELOW_THRESHOLD;
        s.reason =
            String.format(
                java.util.Locale.ROOT,
                "relevance %.3f < threshold %.3f",
                s.relevance,
                req.threshold());
      } else if (s.relevance < relativeFloor) {
        s.outcome = Outcome.BELOW_THRESHOLD;
        s.reason =
            String.format(
                java.util.Locale.ROOT,
                "relevance %.3f < %.2f x best %.3f",
                s.relevance,
                relative,
                best);
      }
    }
  }

  /**
   * Stage 6, packing into the token budget, at most k records. The budget bounds the rendered
   * block: the {@link Renderer#HEADER} once plus each record's rendered line (dates and markup
   * included, {@link Renderer#line}), counted with the configured tokenizer. Greedy: best score
   * first; a record whose line does not fit the remaining budget is {@code over_budget} and smaller
   * ones may still fit. Coverage (MMR): each step takes the record maximizing {@code lambda * score
   * - (1 - lambda) * maxSim}, where maxSim is its highest cosine to a record already chosen; one at
   * or above {@code duplicateSimilarity} is a {@code duplicate}.
   *
   * @param lazyGate the fetch gate when it has not been applied yet (untraced greedy packing): each
   *     record reached before k are selected is scored by the relevance model then, and left out if
   *     below the threshold, as {@link #applyGate} would have left it out before; null otherwise
   */
  private List<Scored> pack(List<Scored> scored, RecallRequest req, RecallTrace.Gate lazyGate) {
    List<Scored> pool = new ArrayList<>();
    for (Scored s : scored) {
      // tokens are counted for what may be packed (and for the trace), not for every candidate;
      // under the lazy gate, for what the packing reaches
      if (lazyGate == null && (s.outcome == null || req.explain()))
        s.tokens = tokenizer.count(s.r.text());
      if (s.outcome == null) {
        if (lazyGate == null) s.lineTokens = tokenizer.count(line(s, s.r, false, req));
        pool.add(s);
      }
    }
    List<Scored> chosen = new ArrayList<>();
    int header = tokenizer.count(Renderer.header(style(req)));
    int used = 0; // block tokens: the header once something is chosen, then each line
    boolean perToken = false;
    while (!pool.isEmpty()) {
      Scored next;
      double maxSim = 0;
      if (req.packing() == dev.mnemo.Packing.COVERAGE) {
        // MMR gain of each record; while the best remaining records would not all fit the budget,
        // the gain per token of the record's line decides (a greedy knapsack: two short records
        // covering two facts beat one long one covering one), else the gain alone, as MMR is.
        double[] sims = new double[pool.size()];
        double[] gains = new double[pool.size()];
        for (int i = 0; i < pool.size(); i++) {
          sims[i] = chosen.isEmpty() ? 0 : maxSimilarity(pool.get(i), chosen);
          gains[i] = req.mmrLambda() * pool.get(i).score - (1 - req.mmrLambda()) * sims[i];
        }
        perToken =
            budgetBinds(
                pool,
                gains,
                req.k() - chosen.size(),
                req.budgetTokens() - used - (chosen.isEmpty() ? header : 0));
        next = null;
        double best = Double.NEGATIVE_INFINITY;
        int bestTier = Integer.MIN_VALUE;
        for (int i = 0; i < pool.size(); i++) {
          Scored s = pool.get(i);
          double cost = Math.max(1, s.lineTokens);
          double value = !perToken ? gains[i] : gains[i] > 0 ? gains[i] / cost : gains[i] * cost;
          // the named time stays a constraint under coverage packing: a record outside it only
          // when none inside is left
          if (s.tier > bestTier || s.tier == bestTier && value > best) {
            bestTier = s.tier;
            best = value;
            next = s;
            maxSim = sims[i];
          }
        }
      } else {
        next = pool.get(0);
      }
      pool.remove(next);
      if (chosen.size() >= req.k()) {
        next.outcome = Outcome.BEYOND_K;
        next.reason = "k = " + req.k() + " records already selected";
        continue;
      }
      if (lazyGate != null) {
        next.probability = relevance.probability(next.features);
        if (gated(next, lazyGate, false)) continue;
        next.tokens = tokenizer.count(next.r.text());
        next.lineTokens = tokenizer.count(line(next, next.r, false, req));
      }
      if (req.packing() == dev.mnemo.Packing.COVERAGE && maxSim >= req.duplicateSimilarity()) {
        next.outcome = Outcome.DUPLICATE;
        next.reason =
            String.format(
                java.util.Locale.ROOT,
                "similarity %.3f >= %.3f to a selected record",
                maxSim,
                req.duplicateSimilarity());
        continue;
      }
      int cost = next.lineTokens + (chosen.isEmpty() ? header : 0);
      if (used + cost > req.budgetTokens()) {
        next.outcome = Outcome.OVER_BUDGET;
        next.reason =
            cost
                + " tokens as a line of the block > "
                + (req.budgetTokens() - used)
                + " left of "
                + req.budgetTokens();
        continue;
      }
      used += cost;
      next.outcome = Outcome.SELECTED;
      next.reason =
          perToken ? "selected (coverage: the budget binds, best gain per token)" : "selected";
      chosen.add(next);
    }
    return chosen;
  }

  /**
   * Whether the {@code slots} records of highest gain, as lines, would together exceed {@code left}
   * tokens: then the budget, not k, limits the selection, and cost matters.
   */
  private static boolean budgetBinds(List<Scored> pool, double[] gains, int slots, int left) {
    Integer[] order = new Integer[pool.size()];
    for (int i = 0; i < order.length; i++) order[i] = i;
    java.util.Arrays.sort(order, (a, b) -> Double.compare(gains[b], gains[a]));
    int sum = 0;
    for (int i = 0; i < Math.min(slots, order.length); i++) sum += pool.get(order[i]).lineTokens;
    return sum > left;
  }

  /** The block's extras a request asks for. */
  private static Renderer.Style style(RecallRequest req) {
    return new Renderer.Style(req.blockRelevance(), req.usageNote());
  }

  /**
   * The line of {@code r} (a candidate {@code s}, or a version brought along) in this request's
   * style.
   */
  private static String line(Scored s, MemoryRecord r, boolean conflict, RecallRequest req) {
    // the block's relevance is the gate's probability, as in every answer; a request that turned
    // the gate off with an embedder no model fits has none, and shows the match instead
    double shown = Double.isNaN(s.probability) ? s.relevance : s.probability;
    return Renderer.line(r, conflict, req.blockRelevance() ? shown : Double.NaN);
  }

  private static double maxSimilarity(Scored s, List<Scored> chosen) {
    double max = 0;
    for (Scored c : chosen) max = Math.max(max, similarity(s.r, c.r));
    return max;
  }

  /** Cosine of the records' vectors, or the Jaccard overlap of their words without vectors. */
  static double similarity(MemoryRecord a, MemoryRecord b) {
    if (a.embedding() != null
        && b.embedding() != null
        && a.embedding().length == b.embedding().length) {
      return dev.mnemo.spi.Vectors.dot(a.embedding(), b.embedding());
    }
    Set<String> wa =
        new HashSet<>(List.of(a.text().toLowerCase(java.util.Locale.ROOT).split("\\W+")));
    Set<String> wb =
        new HashSet<>(List.of(b.text().toLowerCase(java.util.Locale.ROOT).split("\\W+")));
    Set<String> inter = new HashSet<>(wa);
    inter.retainAll(wb);
    wa.addAll(wb);
    return wa.isEmpty() ? 0 : (double) inter.size() / wa.size();
  }

  /**
   * Stage 7, conflicts: when a selected record has a fact key and other eligible records of the
   * same owner and key hold at the same time with another text (kept by the {@code keep_both}
   * policy), the engine cannot tell which is right: they are surfaced together, each marked with
   * the others' ids, rendered with their dates. A sibling not already selected joins the selection
   * if it fits the budget, even beyond k and below the threshold (a conflict is shown whole);
   * otherwise the selected record still carries the sibling's id. The versions are those the store
   * returned with the candidates ({@link CandidateSet#versions}), or, from a store that does not,
   * one {@link MemoryStore#versions} query per selected fact key.
   */
  private List<Scored> surfaceConflicts(
      List<Scored> selected,
      List<Scored> scored,
      RecallRequest req,
      Eligibility eligibility,
      Map<String, List<MemoryRecord>> withCandidates) {
    List<Scored> out = new ArrayList<>(selected);
    int used =
        selected.isEmpty()
            ? 0
            : tokenizer.count(Renderer.header(style(req)))
                + selected.stream().mapToInt(s -> s.lineTokens).sum();
    Map<String, Scored> byId = new LinkedHashMap<>();
    for (Scored s : scored) byId.put(s.r.id(), s);
    Set<String> seenKeys = new HashSet<>();
    for (Scored s : selected) {
      String key = s.r.factKey();
      if (key == null || !seenKeys.add(key)) continue;
      List<MemoryRecord> versions;
      if (withCandidates != null) {
        // The store's eligible versions, read with the candidates: one state of the store, no
        // second query; a key left out has no eligible record besides the candidate (keys are
        // per owner: a read for every owner may hold another owner's records of the same key).
        versions = new ArrayList<>();
        for (MemoryRecord v : withCandidates.getOrDefault(key, List.of()))
          if (v.owner().equals(s.r.owner())) versions.add(v);
      } else {
        // The versions come from a second read, which may see a commit that landed after the
        // candidates were found. If that commit superseded the selected record, its successor is
        // no conflict but a newer truth this recall did not see: leave the key alone rather than
        // mix two states of the store in one answer.
        versions = store.versions(s.r.owner(), key);
        MemoryRecord fresh =
            versions.stream().filter(v -> v.id().equals(s.r.id())).findFirst().orElse(null);
        if (fresh == null || !eligibility.admits(fresh)) continue;
      }
      List<MemoryRecord> siblings = new ArrayList<>();
      for (MemoryRecord v : versions) {
        // only keep_both writes leave two believed versions overlapping in valid time
        boolean keptBoth =
            v.conflictPolicy() == ConflictPolicy.KEEP_BOTH
                || s.r.conflictPolicy() == ConflictPolicy.KEEP_BOTH;
        if (keptBoth
            && !v.id().equals(s.r.id())
            && eligibility.admits(v)
            && !v.text().equals(s.r.text())) {
          siblings.add(v);
        }
      }
      siblings.sort(Comparator.comparing(MemoryRecord::id));
      for (MemoryRecord v : siblings) {
        Scored sib = byId.get(v.id());
        if (sib == null) {
          sib = new Scored(new Candidate(v, Double.NaN, 0, 0, 0, 0, 0));
          sib.foundBy.add("conflict");
          sib.tokens = tokenizer.count(v.text());
          scored.add(sib);
          byId.put(v.id(), sib);
        }
        if (sib.tokens < 0) sib.tokens = tokenizer.count(v.text());
        sib.lineTokens = tokenizer.count(line(sib, v, true, req));
        s.conflictsWith.add(v.id());
        if (sib.outcome == Outcome.SELECTED) {
          sib.conflictsWith.add(s.r.id());
          continue;
        }
        if (used + sib.lineTokens <= req.budgetTokens()) {
          used += sib.lineTokens;
          sib.outcome = Outcome.SELECTED;
          sib.reason =
              "conflicts with selected "
                  + s.r.id()
                  + " (same fact key '"
                  + key
                  + "'"
                  + (v.authority() != s.r.authority()
                      ? "; " + lowerOf(v, s.r) + ": lower authority kept beside higher"
                      : "")
                  + ")";
          sib.conflictsWith.add(s.r.id());
          out.add(sib);
        }
      }
    }
    return out;
  }

  /**
   * "derived X kept beside verified Y": which of two records of different authority is the lower
   * one.
   */
  private static String lowerOf(MemoryRecord a, MemoryRecord b) {
    MemoryRecord lo = a.authority().below(b.authority()) ? a : b;
    MemoryRecord hi = lo == a ? b : a;
    return lo.authority().code() + " " + lo.id() + " vs " + hi.authority().code() + " " + hi.id();
  }

  /**
   * Renders the block and makes sure it fits the budget as the tokenizer counts the whole text:
   * packing added line costs, which conflict markers and token merges across lines can make
   * inexact. While the block is over the budget the lowest-scored selected record leaves it ({@code
   * over_budget}, "the rendered block ... exceeds the budget"). Usually a single render.
   */
  private String fitBlock(List<Scored> selected, RecallRequest req) {
    while (true) {
      String block = Renderer.render(selected, style(req));
      int tokens = block.isEmpty() ? 0 : tokenizer.count(block);
      if (tokens <= req.budgetTokens()) return block;
      Scored last = selected.stream().max(BY_RANK).orElseThrow();
      selected.remove(last);
      last.outcome = Outcome.OVER_BUDGET;
      last.reason =
          "the rendered block with it ("
              + tokens
              + " tokens) exceeds the budget of "
              + req.budgetTokens();
    }
  }

  /**
   * The name-free comparison of the first candidates by rank ({@link TopicMatch}); when the
   * companion model cannot be loaded the recall goes on without it (the feature is missing), said
   * once in the log.
   */
  private void fillTopics(List<Scored> scored, String text, CandidateSet found, int k) {
    if (topicsFailed != null) return;
    try {
      topics.fill(
          scored,
          text,
          RelevanceFeatures.background(found.eligibleCount(), found.entityFrequencies()),
          TopicMatch.compared(k));
    } catch (RuntimeException e) {
      topicsFailed = String.valueOf(e.getMessage());
      System.getLogger(ReadPath.class.getName())
          .log(
              System.Logger.Level.WARNING,
              "the fetch gate's companion model could not be loaded; recalls go on without its"
                  + " name-free comparison: "
                  + topicsFailed);
    }
  }

  /**
   * The relevance model's part of a candidate's trace: probability, features and, for a recall
   * asked to explain, contributions. A trace kept only for the retrieval log leaves them out: they
   * follow from the features and the model ({@link #withContributions}), and computing them for
   * every candidate of every logged recall was two thirds of what logging cost the recall.
   */
  private RelevanceTrace relevanceTrace(Scored s, boolean contributions) {
    Map<String, Double> features = RelevanceFeatures.asMap(s.features);
    return new RelevanceTrace(
        s.probability, features, contributions ? relevanceModel.contributions(features) : Map.of());
  }

  /**
   * {@code e} with the contributions its trace left out ({@link #relevanceTrace}), computed from
   * the logged features (stored at full precision) when this engine's relevance model is the one
   * that judged the recall (the gate names it): the same values the recall would have shown. An
   * entry judged by another model is returned as it is.
   */
  LoggedRecall withContributions(LoggedRecall e) {
    RecallTrace t = e.trace();
    if (t == null || t.gate() == null || !relevanceModel.id().equals(t.gate().model())) return e;
    List<CandidateTrace> candidates = new ArrayList<>(t.candidates().size());
    boolean changed = false;
    for (CandidateTrace c : t.candidates()) {
      RelevanceTrace r = c.relevance();
      if (r != null && r.contributions().isEmpty() && !r.features().isEmpty()) {
        c =
            c.withRelevance(
                new RelevanceTrace(
                    r.probability(), r.features(), relevanceModel.contributions(r.features())));
        changed = true;
      }
      candidates.add(c);
    }
    return changed ? e.withTrace(t.withCandidates(candidates)) : e;
  }

  private static Signals signals(Scored s) {
    return new Signals(
        s.cosine,
        s.dense,
        s.window,
        s.c.bm25(),
        s.bm25,
        s.entity,
        s.relevance,
        s.rrf,
        s.recency,
        s.r.importance(),
        s.frequency,
        s.authority,
        s.timeMatch,
        s.speaker,
        s.score);
  }
}

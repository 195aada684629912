package dev.mnemo.eval;

import dev.mnemo.Diagnostics;
import dev.mnemo.InvalidRequestException;
import dev.mnemo.MemoryRecord;
import dev.mnemo.Mnemo;
import dev.mnemo.RecallRequest;
import dev.mnemo.RecallResult;
import dev.mnemo.Recalled;
import dev.mnemo.TimeFilter;
import dev.mnemo.Weights;
import dev.mnemo.json.BatchPath;
import dev.mnemo.spi.Candidate;
import dev.mnemo.spi.CandidateQuery;
import dev.mnemo.spi.Eligibility;
import dev.mnemo.spi.Embedder;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * Runs scenarios: each on a fresh, empty engine, its writes through the public {@link
 * Mnemo#rememberAll} (one batch, applied in file order, so that a scenario's invalid write is
 * reported before anything is written), then every query under every {@link Policy} at the query's
 * k and budget.
 *
 * <p>How each policy selects:
 *
 * <ul>
 *   <li>{@code none}: nothing.
 *   <li>{@code recent}: the store's {@link dev.mnemo.spi.MemoryStore#latest} under the eligibility
 *       the read path builds for the query (owner, scope, temporal mode), newest recorded first, at
 *       most {@value #POOL} fetched; packed greedily: in that order, a record that does not fit the
 *       remaining budget is skipped and a later, smaller one may still fit; at most k.
 *   <li>{@code keyword}: {@link Mnemo#recall} with weights dense 0 and entity 0 and every ranking
 *       weight 0 ({@link Weights#relevanceOnly()}), time words off, and a threshold of {@value
 *       #ANY_MATCH}: the engine's relevance is then its BM25 signal alone, a rising function of the
 *       raw score that is 0 exactly without a match, so any BM25 match counts and records found
 *       only by the entity or time lists (relevance 0) do not. The read path's conflict stage still
 *       applies.
 *   <li>{@code full}: {@link Mnemo#recall} with the engine's defaults; only owner, text, asked_at,
 *       mode, scope, k and budget come from the query.
 *   <li>{@code unfiltered}: {@link dev.mnemo.spi.MemoryStore#candidates} with {@link
 *       Eligibility#unrestrictedForEvaluation()} (every owner, every version, any time), {@value
 *       #POOL} per signal, ranked by cosine (raw BM25 without an embedder), packed greedily.
 * </ul>
 *
 * <p>The {@code recent} and {@code unfiltered} policies read the store directly, so the factory
 * must return the built-in engine ({@link Mnemo#builder()}). Latency is the wall time of one
 * policy's selection for one query, including embedding the query, after one untimed warm-up pass
 * per engine (the first search of a new index opens its readers); {@code full} and {@code keyword}
 * run with {@code explain} on (to count candidates), whose cost is building the trace list. Not
 * thread-safe: run one at a time.
 */
public final class ScenarioRunner {

  /**
   * Records fetched per signal (unfiltered) or in total (recent): the read path's default
   * candidates.
   */
  static final int POOL = 50;

  /** The keyword policy's threshold: above 0, below any real BM25 match's relevance. */
  static final double ANY_MATCH = 1e-9;

  static final Weights KEYWORD_WEIGHTS = Weights.DEFAULT.withDense(0).withEntity(0).relevanceOnly();

  private final Function<Path, Mnemo> engines;
  private final List<Policy> policies;

  /**
   * @param engines opens a fresh engine on an empty directory; the runner closes it and deletes the
   *     directory after the scenario
   */
  public ScenarioRunner(Function<Path, Mnemo> engines) {
    this(engines, List.of(Policy.values()));
  }

  /** A runner of only these policies, in this order. */
  public ScenarioRunner(Function<Path, Mnemo> engines, List<Policy> policies) {
    this.engines = Objects.requireNonNull(engines, "engines");
    this.policies = List.copyOf(policies);
    if (this.policies.isEmpty()) throw new IllegalArgumentException("policies must not be empty");
  }

  /**
   * Reads every file (all of them first, so that a malformed line fails before anything runs), then
   * runs them.
   */
  public ScenarioReport run(List<Path> files) {
    List<Scenario> scenarios = ScenarioReader.read(files);
    List<QueryResult> out = new ArrayList<>();
    for (Scenario s : scenarios) out.addAll(run(s));
    return new ScenarioReport(out);
  }

  /** Runs one scenario on a fresh engine in a temporary directory. */
  public List<QueryResult> run(Scenario s) {
    List<Arm> arms = new ArrayList<>(policies.size());
    for (Policy p : policies) arms.add(new Arm(p.code(), p, (mnemo, q) -> select(mnemo, p, q)));
    return runArms(s, arms).stream().map(ArmResult::result).toList();
  }

  /**
   * One way of selecting for a query: a policy, or (for {@link AblationRunner}) a variant of the
   * full read path. {@code policy} is what the results carry.
   */
  record Arm(String code, Policy policy, BiFunction<Mnemo, ScenarioQuery, Selection> select) {}

  /** A query's result under one arm. */
  record ArmResult(String arm, QueryResult result) {}

  /**
   * Runs one scenario on a fresh engine under every arm: the writes once, then every query under
   * every arm in order (query-major), timed after one untimed warm-up pass per arm.
   */
  List<ArmResult> runArms(Scenario s, List<Arm> arms) {
    Path dir = TempDirs.create("mnemo-scenario-", "scenario " + s.id());
    try (Mnemo mnemo = engines.apply(dir)) {
      write(mnemo, s);
      Map<String, String> owners = s.ownerByWriteId();
      // The first search of a freshly opened index pays for opening readers and warming code paths;
      // one untimed pass keeps that out of the latency percentiles. Reads change nothing.
      if (!s.queries().isEmpty()) for (Arm a : arms) a.select().apply(mnemo, s.queries().get(0));
      List<ArmResult> out = new ArrayList<>();
      for (ScenarioQuery q : s.queries()) {
        Set<String> stale = new HashSet<>();
        for (String f : q.forbid()) if (q.owner().equals(owners.get(f))) stale.add(f);
        for (Arm a : arms) {
          long t0 = System.nanoTime();
          Selection sel = a.select().apply(mnemo, q);
          double ms = (System.nanoTime() - t0) / 1e6;
          int leaked = (int) sel.records.stream().filter(r -> !r.owner().equals(q.owner())).count();
          List<String> ids = sourceIds(sel.records);
          int irrelevant = 0;
          for (int i = 0; i < sel.records.size(); i++) {
            if (sel.records.get(i).sources().stream().noneMatch(q.expect()::contains))
              irrelevant += sel.recordTokens.get(i);
          }
          out.add(
              new ArmResult(
                  a.code(),
                  new QueryResult(
                      s.id(),
                      s.split(),
                      q.id(),
                      a.policy(),
                      ids,
                      sel.candidates,
                      sel.tokens,
                      ms,
                      leaked,
                      Set.copyOf(q.expect()),
                      stale,
                      q.expectNone(),
                      irrelevant)));
        }
      }
      return out;
    } finally {
      TempDirs.delete(dir);
    }
  }

  private static void write(Mnemo mnemo, Scenario s) {
    if (s.writes().isEmpty()) return;
    try {
      mnemo.rememberAll(s.writes());
    } catch (InvalidRequestException e) {
      // The batch reports memories[i]; in the file that is writes[i].
      throw new IllegalArgumentException(
          s.origin()
              + ": scenario '"
              + s.id()
              + "' cannot be written: "
              + BatchPath.MEMORIES.renamed(e, BatchPath.WRITES).getMessage(),
          e);
    }
  }

  /** What an arm selected; {@code recordTokens} are the tokens of each selected record's text. */
  record Selection(
      List<MemoryRecord> records, int candidates, int tokens, List<Integer> recordTokens) {
    Selection(List<MemoryRecord> records, int candidates, int tokens) {
      this(records, candidates, tokens, java.util.Collections.nCopies(records.size(), 0));
    }
  }

  private Selection select(Mnemo mnemo, Policy p, ScenarioQuery q) {
    return switch (p) {
      case NONE -> new Selection(List.of(), 0, 0);
      case FULL -> recall(mnemo, request(q).build());
      case KEYWORD ->
          recall(
              mnemo,
              request(q)
                  .weights(KEYWORD_WEIGHTS)
                  .threshold(ANY_MATCH)
                  .relativeThreshold(0)
                  .minRelevance(0.0)
                  .timeFilter(TimeFilter.OFF)
                  .build());
      case RECENT -> recent(diagnostics(mnemo, p), q);
      case UNFILTERED -> unfiltered(diagnostics(mnemo, p), q);
    };
  }

  /**
   * The request a query makes with the engine's defaults: only owner, text, time, mode, scope, k
   * and budget come from it.
   */
  static RecallRequest.Builder request(ScenarioQuery q) {
    return RecallRequest.builder(q.owner(), q.text())
        .askedAt(q.askedAt())
        .mode(q.mode())
        .scope(q.scope())
        .k(q.k())
        .budgetTokens(q.budgetTokens())
        .explain(true);
  }

  static Selection recall(Mnemo mnemo, RecallRequest req) {
    RecallResult r = mnemo.recall(req);
    return new Selection(
        r.selected().stream().map(Recalled::record).toList(),
        r.trace().candidates().size(),
        r.tokensUsed(),
        r.selected().stream().map(Recalled::tokens).toList());
  }

  private static Selection recent(Diagnostics e, ScenarioQuery q) {
    // The same eligibility the read path builds (ReadPath.eligibility), at the millisecond
    // precision
    // stores keep, so that "eligible" means one thing across policies.
    Instant asked = q.askedAt().truncatedTo(ChronoUnit.MILLIS);
    Eligibility el =
        new Eligibility(
            q.owner(),
            q.scope(),
            Set.of(),
            Map.of(),
            q.mode().validTime(asked).truncatedTo(ChronoUnit.MILLIS),
            q.mode().knownTime(asked).truncatedTo(ChronoUnit.MILLIS),
            null);
    List<MemoryRecord> newest = e.store().latest(el, POOL);
    return pack(newest, newest.size(), q, e);
  }

  private static Selection unfiltered(Diagnostics e, ScenarioQuery q) {
    Embedder emb = e.embedder().orElse(null);
    float[] vector = emb == null ? null : emb.embedQuery(q.text());
    List<Candidate> found =
        new ArrayList<Candidate>(
            e.store()
                .candidates(
                    new CandidateQuery(
                        Eligibility.unrestrictedForEvaluation(),
                        vector,
                        q.text(),
                        Set.of(),
                        null,
                        POOL))
                .candidates());
    Comparator<Candidate> bySimilarity =
        vector == null
            ? Comparator.comparingDouble(Candidate::bm25).reversed()
            : Comparator.comparingDouble(
                    (Candidate c) -> Double.isNaN(c.cosine()) ? -2 : c.cosine())
                .reversed();
    // Ties: newer first, then the source id, so that a run does not depend on random record ids.
    found.sort(
        bySimilarity
            .thenComparing((Candidate c) -> c.record().recordedAt(), Comparator.reverseOrder())
            .thenComparing(c -> String.join(",", c.record().sources())));
    return pack(found.stream().map(Candidate::record).toList(), found.size(), q, e);
  }

  /**
   * Greedy packing in the given order: skip what does not fit the remaining budget, stop at k. The
   * budget counts what the read path's does, the rendered block ({@link Diagnostics#blockTokens}),
   * so the policies compare at an equal budget; the selection reports the texts' tokens, as a
   * recall does.
   */
  private static Selection pack(
      List<MemoryRecord> ordered, int candidates, ScenarioQuery q, Diagnostics e) {
    List<MemoryRecord> chosen = new ArrayList<>();
    List<Integer> tokens = new ArrayList<>();
    int block = 0;
    int used = 0;
    for (MemoryRecord r : ordered) {
      if (chosen.size() >= q.k()) break;
      int t = e.blockTokens(r, chosen.isEmpty());
      if (block + t > q.budgetTokens()) continue;
      block += t;
      int n = e.tokenizer().count(r.text());
      used += n;
      chosen.add(r);
      tokens.add(n);
    }
    return new Selection(chosen, candidates, used, tokens);
  }

  /** The engine's parts a baseline reads the store through; a Mnemo without them cannot run one. */
  private static Diagnostics diagnostics(Mnemo mnemo, Policy p) {
    return mnemo
        .diagnostics()
        .orElseThrow(
            () ->
                new IllegalStateException(
                    "policy "
                        + p.code()
                        + " reads the store directly and needs the built-in engine's diagnostics (Mnemo.builder()), the factory "
                        + "returned "
                        + mnemo.getClass().getName()
                        + " without them"));
  }

  /** Distinct source ids of records, in order. */
  static List<String> sourceIds(List<MemoryRecord> records) {
    Set<String> out = new LinkedHashSet<>();
    for (MemoryRecord r : records) out.addAll(r.sources());
    return List.copyOf(out);
  }
}

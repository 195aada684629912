package dev.mnemo;

import dev.mnemo.time.TimeRange;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * Why a recall returned what it did: the request as resolved, every candidate with its signals and
 * outcome (best first), tokens used and the time each stage took.
 *
 * <p>Apart from {@code stageNanos}, a trace is a pure function of the store's state, the request
 * and the clock: the same inputs give an equal trace.
 *
 * @param owner the request's owner
 * @param query the query text
 * @param askedAt the resolved "now"
 * @param mode the temporal mode's code
 * @param validTime the valid-time instant eligibility used
 * @param knownTime the transaction-time instant eligibility used
 * @param timeRange the range the query's time words denote, or null
 * @param queryEntities the query's names ({@link dev.mnemo.text.Entities#nameKeys}) that some
 *     candidate names
 * @param denseFloor the per-query cosine floor of the dense signal, NaN without an embedder
 * @param fusion fusion code
 * @param packing packing code
 * @param k the request's k
 * @param budgetTokens the request's budget
 * @param threshold the request's threshold
 * @param weights the weights used
 * @param tokenizer the tokenizer's name
 * @param embeddingModel the embedder's model id, or null
 * @param candidates every candidate, best first
 * @param tokensUsed tokens of the selected texts
 * @param blockTokens tokens of the rendered block (header, dates and markers included): what the
 *     budget bounds
 * @param stageNanos wall time per stage (embed, candidates, fuse, rank, pack, render)
 * @param gate the fetch gate as it ran: the fetch decision, the threshold on the relevance
 *     probability, exhaustive mode and the relevance model's id (null where no gate ran)
 */
public record RecallTrace(
    String owner,
    String query,
    Instant askedAt,
    String mode,
    Instant validTime,
    Instant knownTime,
    TimeRange timeRange,
    List<String> queryEntities,
    double denseFloor,
    String fusion,
    String packing,
    int k,
    int budgetTokens,
    double threshold,
    Weights weights,
    String tokenizer,
    String embeddingModel,
    List<CandidateTrace> candidates,
    int tokensUsed,
    int blockTokens,
    Map<String, Long> stageNanos,
    Gate gate) {

  /**
   * The fetch gate of one recall.
   *
   * @param fetch {@code retrieve}, or {@code skip} when the message needs no memory (small talk)
   * @param reason why: e.g. {@code "small talk: no content word"}
   * @param minRelevance the threshold on the relevance probability that applied (0: the gate was
   *     off)
   * @param exhaustive whether exhaustive mode applied (aggregation questions)
   * @param model the relevance model's id
   */
  public record Gate(
      String fetch, String reason, double minRelevance, boolean exhaustive, String model) {}

  /** A trace without a gate. */
  public RecallTrace(
      String owner,
      String query,
      Instant askedAt,
      String mode,
      Instant validTime,
      Instant knownTime,
      TimeRange timeRange,
      List<String> queryEntities,
      double denseFloor,
      String fusion,
      String packing,
      int k,
      int budgetTokens,
      double threshold,
      Weights weights,
      String tokenizer,
      String embeddingModel,
      List<CandidateTrace> candidates,
      int tokensUsed,
      int blockTokens,
      Map<String, Long> stageNanos) {
    this(
        owner,
        query,
        askedAt,
        mode,
        validTime,
        knownTime,
        timeRange,
        queryEntities,
        denseFloor,
        fusion,
        packing,
        k,
        budgetTokens,
        threshold,
        weights,
        tokenizer,
        embeddingModel,
        candidates,
        tokensUsed,
        blockTokens,
        stageNanos,
        null);
  }

  /** This trace without timings, for comparing two runs. */
  public RecallTrace withoutTimings() {
    return withCandidates(candidates, Map.of());
  }

  /** This trace with {@code candidates} in place of its own. */
  public RecallTrace withCandidates(List<CandidateTrace> candidates) {
    return withCandidates(candidates, stageNanos);
  }

  private RecallTrace withCandidates(List<CandidateTrace> candidates, Map<String, Long> stages) {
    return new RecallTrace(
        owner,
        query,
        askedAt,
        mode,
        validTime,
        knownTime,
        timeRange,
        queryEntities,
        denseFloor,
        fusion,
        packing,
        k,
        budgetTokens,
        threshold,
        weights,
        tokenizer,
        embeddingModel,
        candidates,
        tokensUsed,
        blockTokens,
        stages,
        gate);
  }
}

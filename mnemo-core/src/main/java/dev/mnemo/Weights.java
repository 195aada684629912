package dev.mnemo;

/**
 * The weights of every signal of the read path; each has a documented default and any can be
 * overridden per request.
 *
 * <p>Relevance (fusion of the three retrieval signals, each in [0, 1]): {@code relevance = (dense *
 * wd + bm25 * wb + entity * we) / (wd + wb + we)}; for ranking, records with an episode add the
 * windowed dense signal: {@code (... + window * ww) / (wd + ww + wb + we)}, summing only the
 * signals that apply to the request. Ranking applies the ranking signals to the relevance as a
 * relative boost: {@code score = relevance * (1 + recency * wr + importance * wi + frequency * wf +
 * authority * wa + timeMatch * wt + speaker * ws)}. The threshold is applied to relevance alone, so
 * no amount of importance or recency can make an unrelated record eligible for the prompt.
 *
 * @param dense weight of the dense (embedding) signal, default 1.0
 * @param bm25 weight of the BM25 signal, default 1.0
 * @param entity weight of the entity-match signal, default 0.5
 * @param recency weight of the recency decay (half-life per category), default 0.1
 * @param importance weight of the record's importance, default 0.1
 * @param frequency weight of the usage frequency, default 0.05
 * @param authority weight of the authority level, default 0.05
 * @param timeMatch weight of the boost for records whose valid time starts inside the query's time
 *     range ("last week"), default 0.3
 * @param window weight of the windowed dense signal: the query's similarity to a record together
 *     with its neighbours in the same episode (the turns just before and after), so that a short
 *     turn ("Yes, last Tuesday!") is found through the conversation around it; applies only to
 *     records with an episode; default 1.5
 * @param speaker weight of the boost for records said by a person the query names (the record's
 *     {@code speaker} metadata among the query's entity keys), a ranking signal; default 0.5
 * @param context weight of a record's context (its neighbouring turns) in the BM25 search, relative
 *     to its own text; default 0.5 (see docs/read-path.md for the measurement)
 * @param bm25Scale steepness of BM25's sigmoid: {@code bm25 = tanh(s * x) / tanh(s)} where x is the
 *     raw score over the query's maximum attainable score (so no match is 0, a full match 1);
 *     default 2.0
 */
public record Weights(
    double dense,
    double bm25,
    double entity,
    double recency,
    double importance,
    double frequency,
    double authority,
    double timeMatch,
    double window,
    double speaker,
    double context,
    double bm25Scale) {

  public static final Weights DEFAULT =
      new Weights(1.0, 1.0, 0.5, 0.1, 0.1, 0.05, 0.05, 0.3, 1.5, 0.5, 0.5, 2.0);

  public Weights {
    check("weights.dense", dense);
    check("weights.bm25", bm25);
    check("weights.entity", entity);
    check("weights.recency", recency);
    check("weights.importance", importance);
    check("weights.frequency", frequency);
    check("weights.authority", authority);
    check("weights.time_match", timeMatch);
    check("weights.window", window);
    check("weights.speaker", speaker);
    check("weights.context", context);
    if (!(bm25Scale > 0) || Double.isInfinite(bm25Scale)) {
      throw new InvalidRequestException(
          "weights.bm25_scale", bm25Scale, "weights.bm25_scale must be > 0, was " + bm25Scale);
    }
    if (dense + bm25 + entity + window <= 0) {
      throw new InvalidRequestException(
          "weights",
          dense + bm25 + entity + window,
          "at least one of weights.dense, weights.bm25, weights.entity, weights.window must be > 0, all were 0");
    }
  }

  private static void check(String field, double v) {
    if (!(v >= 0) || Double.isInfinite(v)) {
      throw new InvalidRequestException(
          field, v, field + " must be a finite number >= 0, was " + v);
    }
  }

  public Weights withDense(double v) {
    return new Weights(
        v,
        bm25,
        entity,
        recency,
        importance,
        frequency,
        authority,
        timeMatch,
        window,
        speaker,
        context,
        bm25Scale);
  }

  public Weights withBm25(double v) {
    return new Weights(
        dense,
        v,
        entity,
        recency,
        importance,
        frequency,
        authority,
        timeMatch,
        window,
        speaker,
        context,
        bm25Scale);
  }

  public Weights withEntity(double v) {
    return new Weights(
        dense,
        bm25,
        v,
        recency,
        importance,
        frequency,
        authority,
        timeMatch,
        window,
        speaker,
        context,
        bm25Scale);
  }

  public Weights withRecency(double v) {
    return new Weights(
        dense,
        bm25,
        entity,
        v,
        importance,
        frequency,
        authority,
        timeMatch,
        window,
        speaker,
        context,
        bm25Scale);
  }

  public Weights withImportance(double v) {
    return new Weights(
        dense, bm25, entity, recency, v, frequency, authority, timeMatch, window, speaker, context,
        bm25Scale);
  }

  public Weights withFrequency(double v) {
    return new Weights(
        dense,
        bm25,
        entity,
        recency,
        importance,
        v,
        authority,
        timeMatch,
        window,
        speaker,
        context,
        bm25Scale);
  }

  public Weights withAuthority(double v) {
    return new Weights(
        dense,
        bm25,
        entity,
        recency,
        importance,
        frequency,
        v,
        timeMatch,
        window,
        speaker,
        context,
        bm25Scale);
  }

  public Weights withTimeMatch(double v) {
    return new Weights(
        dense,
        bm25,
        entity,
        recency,
        importance,
        frequency,
        authority,
        v,
        window,
        speaker,
        context,
        bm25Scale);
  }

  public Weights withWindow(double v) {
    return new Weights(
        dense,
        bm25,
        entity,
        recency,
        importance,
        frequency,
        authority,
        timeMatch,
        v,
        speaker,
        context,
        bm25Scale);
  }

  public Weights withSpeaker(double v) {
    return new Weights(
        dense,
        bm25,
        entity,
        recency,
        importance,
        frequency,
        authority,
        timeMatch,
        window,
        v,
        context,
        bm25Scale);
  }

  public Weights withContext(double v) {
    return new Weights(
        dense,
        bm25,
        entity,
        recency,
        importance,
        frequency,
        authority,
        timeMatch,
        window,
        speaker,
        v,
        bm25Scale);
  }

  public Weights withBm25Scale(double v) {
    return new Weights(
        dense,
        bm25,
        entity,
        recency,
        importance,
        frequency,
        authority,
        timeMatch,
        window,
        speaker,
        context,
        v);
  }

  /** The ranking-only weights set to zero: pure relevance ordering. */
  public Weights relevanceOnly() {
    return new Weights(dense, bm25, entity, 0, 0, 0, 0, 0, window, 0, context, bm25Scale);
  }
}

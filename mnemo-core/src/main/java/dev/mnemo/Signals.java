package dev.mnemo;

/**
 * Every signal of one candidate, as the read path computed it; the explanation of its score.
 *
 * <p>Values not applicable to the request are {@code NaN} (e.g. {@code cosine} without an embedder,
 * {@code rrf} under weighted fusion).
 *
 * @param cosine raw cosine between the query and record vectors
 * @param dense the dense signal in [0, 1]: cosine above the query's floor, rescaled
 * @param window the windowed dense signal in [0, 1]: the record with its episode neighbours
 * @param bm25Raw raw Lucene BM25 score (0 when the text does not match)
 * @param bm25 the BM25 signal in [0, 1]: raw over the query's maximum, through a sigmoid
 * @param entity the specificity of the most specific query entity the record names, in [0, 1]
 * @param match the weighted-sum fusion of dense, bm25 and entity (the record's own evidence,
 *     without the window); what the request's threshold tests. Not the fetch gate's relevance,
 *     which is a probability ({@link RelevanceTrace#probability()}, {@link Recalled#relevance()})
 * @param rrf reciprocal-rank fusion score normalized to [0, 1] (only under RRF)
 * @param recency {@code 0.5^(age / halfLife)} with the half-life of the record's category
 * @param importance the record's importance
 * @param frequency {@code n / (n + 3)} for n recorded uses
 * @param authority 0.5 derived, 0.75 explicit, 1.0 verified
 * @param timeMatch 1 when the record's valid time starts inside the query's time range, else 0
 * @param speaker 1 when the record's speaker is a person the query names, or its role (user,
 *     assistant) is the one the query's grammatical person points at ({@link
 *     dev.mnemo.text.QueryPerson}), else 0
 * @param finalScore match (or rrf) times (1 + the weighted ranking signals): the sort key
 */
public record Signals(
    double cosine,
    double dense,
    double window,
    double bm25Raw,
    double bm25,
    double entity,
    double match,
    double rrf,
    double recency,
    double importance,
    double frequency,
    double authority,
    double timeMatch,
    double speaker,
    double finalScore) {}

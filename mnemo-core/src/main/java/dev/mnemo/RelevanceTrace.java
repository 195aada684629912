package dev.mnemo;

import java.util.Map;

/**
 * Why the fetch gate judged a candidate as it did.
 *
 * @param probability the relevance model's probability that the record helps answer the message
 * @param features each feature's value (see {@link RelevanceModel} and docs/read-path.md)
 * @param contributions each feature's contribution to the log-odds, and {@code bias}: their sum
 *     through the logistic function is {@code probability}. Empty in a logged recall's stored trace
 *     when the recall was not asked to explain (the trees' contributions were most of what logging
 *     cost a recall); the engine computes them from the features when it reads the entry back
 *     ({@link RetrievalLog}), if its relevance model is the one that judged the recall.
 */
public record RelevanceTrace(
    double probability, Map<String, Double> features, Map<String, Double> contributions) {
  public RelevanceTrace {
    features = Map.copyOf(features);
    contributions = Map.copyOf(contributions);
  }
}

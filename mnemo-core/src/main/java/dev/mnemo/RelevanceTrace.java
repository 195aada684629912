package dev.mnemo;

import java.util.Map;

/**
 * Why the fetch gate judged a candidate as it did.
 *
 * @param probability the relevance model's probability that the record helps answer the message
 * @param features each feature's value (see {@link RelevanceModel} and docs/read-path.md)
 * @param contributions each feature's contribution to the log-odds, and {@code bias}: their sum
 *     through the logistic function is {@code probability}
 */
public record RelevanceTrace(
    double probability, Map<String, Double> features, Map<String, Double> contributions) {
  public RelevanceTrace {
    features = Map.copyOf(features);
    contributions = Map.copyOf(contributions);
  }
}

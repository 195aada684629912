package dev.mnemo;

/** How the relevance signals (dense, BM25, entity) are combined into one relevance score. */
public sealed interface Fusion {

  String code();

  /**
   * Weighted sum of the normalized signals divided by the sum of the weights of the signals that
   * apply to the request (the entity weight counts only when the query names an entity; the dense
   * weight only when an embedder is configured). Absolute: comparable across requests.
   */
  record WeightedSum() implements Fusion {
    @Override
    public String code() {
      return "weighted";
    }
  }

  /**
   * Reciprocal rank fusion: {@code sum_i w_i / (k + rank_i)} over the signals' rank lists, k = 60
   * by default. Rank-based, so it only orders; the absolute threshold is still applied to the
   * weighted-sum relevance.
   */
  record ReciprocalRank(int k) implements Fusion {
    public ReciprocalRank {
      if (k < 1)
        throw new InvalidRequestException("fusion.k", k, "fusion.k must be >= 1, was " + k);
    }

    @Override
    public String code() {
      return "rrf";
    }
  }

  static Fusion weighted() {
    return new WeightedSum();
  }

  static Fusion rrf() {
    return new ReciprocalRank(60);
  }

  static Fusion of(String code) {
    String c = code == null ? "weighted" : code.trim().toLowerCase(java.util.Locale.ROOT);
    return switch (c) {
      case "weighted", "weighted_sum", "sum" -> weighted();
      case "rrf" -> rrf();
      default ->
          throw new InvalidRequestException(
              "fusion", code, "fusion must be one of [weighted, rrf], was '" + code + "'");
    };
  }
}

package dev.mnemo.spi;

/**
 * Input checks and vector arithmetic for {@link Embedder} and {@link MemoryStore} implementations
 * (shared by the local and the HTTP embedder and the stores, which live in separate modules): the
 * null checks every {@code embedPassages} makes, the L2 normalization the {@link Embedder} contract
 * asks for, and the dot product a store reports as a {@link Candidate}'s cosine. Stateless.
 */
public final class Vectors {
  private Vectors() {}

  /** Refuses a null list or a null text, naming its index. */
  public static void requireTexts(java.util.List<String> texts) {
    if (texts == null)
      throw new dev.mnemo.InvalidRequestException("texts", null, "texts must not be null");
    for (int i = 0; i < texts.size(); i++) {
      if (texts.get(i) == null) {
        throw new dev.mnemo.InvalidRequestException(
            "texts[" + i + "]", null, "texts[" + i + "] must not be null");
      }
    }
  }

  /**
   * How far from 1 a norm may be before a vector is rescaled; float rounding alone stays far below.
   */
  public static final double NORM_TOLERANCE = 1e-4;

  /**
   * The dot product of two vectors of equal length (the cosine of unit vectors): float products
   * summed as doubles in index order, so the same value on every call and in every module. Lucene's
   * SIMD {@code VectorUtil.dotProduct} sums in lanes whose order depends on whether the JIT has
   * compiled it yet, so the same pair can score one ulp apart from one call to the next.
   */
  public static double dot(float[] a, float[] b) {
    double dot = 0;
    for (int i = 0; i < a.length; i++) dot += a[i] * b[i];
    return dot;
  }

  /** The squared L2 norm, accumulated in double so long vectors do not lose precision. */
  public static double squaredNorm(float[] v) {
    double sum = 0;
    for (float f : v) sum += (double) f * f;
    return sum;
  }

  /**
   * Scales {@code v} in place to unit length unless it already is; returns false (leaving it
   * unchanged) for a zero or non-finite vector, which has no direction.
   */
  public static boolean normalizeInPlace(float[] v) {
    double sq = squaredNorm(v);
    if (!(sq > 0) || Double.isInfinite(sq)) return false;
    double norm = Math.sqrt(sq);
    if (Math.abs(norm - 1) <= NORM_TOLERANCE) return true;
    float inv = (float) (1 / norm);
    for (int i = 0; i < v.length; i++) v[i] *= inv;
    return true;
  }
}

package dev.mnemo.testkit;

import dev.mnemo.spi.Embedder;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A deterministic, model-free {@link Embedder} for tests: each lower-cased word (crudely stemmed by
 * dropping a trailing "s") adds +1 or -1 to two of {@code dimension} components chosen by its hash;
 * the vector is L2-normalized. Texts sharing words have positive cosine, texts sharing none are
 * near 0. Not a semantic model: use it to test mechanics, never quality.
 */
public final class HashingEmbedder implements Embedder {
  private final int dimension;

  public HashingEmbedder() {
    this(64);
  }

  public HashingEmbedder(int dimension) {
    if (dimension < 2)
      throw new IllegalArgumentException("dimension must be >= 2, was " + dimension);
    this.dimension = dimension;
  }

  @Override
  public String modelId() {
    return "hashing-" + dimension;
  }

  @Override
  public int dimension() {
    return dimension;
  }

  @Override
  public float[] embedQuery(String text) {
    return embed(text);
  }

  @Override
  public List<float[]> embedPassages(List<String> texts) {
    List<float[]> out = new ArrayList<>(texts.size());
    for (String t : texts) out.add(embed(t));
    return out;
  }

  private float[] embed(String text) {
    float[] v = new float[dimension];
    for (String w : text.toLowerCase(Locale.ROOT).split("[^\\p{L}\\p{N}]+")) {
      if (w.length() < 2) continue;
      if (w.length() > 3 && w.endsWith("s")) w = w.substring(0, w.length() - 1);
      int h = w.hashCode() * 0x9E3779B9;
      v[Math.floorMod(h, dimension)] += (h & 1) == 0 ? 1 : -1;
      int h2 = Integer.rotateLeft(h, 13) * 0x85EBCA6B;
      v[Math.floorMod(h2, dimension)] += (h2 & 2) == 0 ? 1 : -1;
    }
    double norm = 0;
    for (float f : v) norm += f * f;
    if (norm == 0) {
      v[0] = 1;
      return v;
    }
    float inv = (float) (1 / Math.sqrt(norm));
    for (int i = 0; i < v.length; i++) v[i] *= inv;
    return v;
  }
}

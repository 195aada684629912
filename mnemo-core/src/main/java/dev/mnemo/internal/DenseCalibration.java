package dev.mnemo.internal;

import dev.mnemo.spi.Embedder;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The per-query floor of the dense signal. Small sentence-embedding models put every pair of texts
 * at a high cosine (e5: about 0.7 to 0.8 for unrelated ones) and some queries, and some records
 * (small talk), sit close to everything; a fixed floor cannot tell "related" from "generic". So the
 * floor is measured per query: the query's cosine to a fixed bank of everyday sentences on
 * unrelated topics (a resource of this package), at the {@value #PERCENTILE} percentile, and never
 * below the embedder's own {@link Embedder#unrelatedSimilarity()}. A record counts as similar only
 * by as much as it beats that floor: {@code dense = max(0, (cos - floor) / (1 - floor))}.
 *
 * <p>The bank is embedded once, on first use (about 40 sentences). Thread-safe.
 */
final class DenseCalibration {
  static final double PERCENTILE = 90;

  private final Embedder embedder;
  private volatile float[][] bank;
  private volatile float[][] reference;

  /**
   * Records' floors by id: a record's text and vector never change, so its floor is computed once.
   * Bounded: cleared when full (a cheap bound; a miss costs 40 dot products).
   */
  private final java.util.concurrent.ConcurrentHashMap<String, Double> recordFloors =
      new java.util.concurrent.ConcurrentHashMap<>();

  private static final int MAX_CACHED = 200_000;

  DenseCalibration(Embedder embedder) {
    this.embedder = embedder;
  }

  /** The floor of a stored record, cached by id. */
  double recordFloor(String id, float[] vector) {
    Double f = recordFloors.get(id);
    if (f == null) {
      f = floor(vector);
      if (recordFloors.size() >= MAX_CACHED) recordFloors.clear();
      recordFloors.put(id, f);
    }
    return f;
  }

  /** The floor for this query vector (or a record's vector: the same measure). */
  double floor(float[] query) {
    double[] cos = cosines(query, bank());
    Arrays.sort(cos);
    int idx = (int) Math.min(cos.length - 1, Math.floor(PERCENTILE / 100.0 * cos.length));
    return Math.max(embedder.unrelatedSimilarity(), cos[idx]);
  }

  /**
   * The dot product of {@code v} with each row of {@code bank}, each summed in index order as a
   * double. Four rows at a time: each sum is a chain of dependent additions (the same order, so the
   * same bits as one row at a time), and four independent chains keep the processor busy where one
   * waits on each addition (a record seen for the first time costs 40 of them; measured at 6.8 % of
   * recall alone in BENCHMARKS.md).
   */
  static double[] cosines(float[] v, float[][] bank) {
    double[] out = new double[bank.length];
    int i = 0;
    for (; i + 3 < bank.length; i += 4) {
      float[] b0 = bank[i];
      float[] b1 = bank[i + 1];
      float[] b2 = bank[i + 2];
      float[] b3 = bank[i + 3];
      double d0 = 0;
      double d1 = 0;
      double d2 = 0;
      double d3 = 0;
      for (int j = 0; j < v.length; j++) {
        float x = v[j];
        d0 += x * b0[j];
        d1 += x * b1[j];
        d2 += x * b2[j];
        d3 += x * b3[j];
      }
      out[i] = d0;
      out[i + 1] = d1;
      out[i + 2] = d2;
      out[i + 3] = d3;
    }
    for (; i < bank.length; i++) {
      double dot = 0;
      for (int j = 0; j < v.length; j++) dot += v[j] * bank[i][j];
      out[i] = dot;
    }
    return out;
  }

  /**
   * How a query meets memories about nothing in particular: its cosines to a fixed reference of
   * about 300 memory-like sentences about other people (the resource {@code reference.txt}: jobs,
   * pets, diets, plans, in the first and the third person), as {@code {mean, standard deviation,
   * maximum}}. The fetch gate reads a candidate's cosine against these ("how far above chance is
   * this cosine for this question"), which reads the same in a store of one record as in one of
   * 100,000: the candidates' own spread and leads are unstable over a handful of records. Embedded
   * once per embedder and cached ({@link BankVectors}); about 300 dot products per query.
   */
  double[] reference(float[] query) {
    float[][] ref = reference;
    if (ref == null) {
      synchronized (this) {
        ref = reference;
        if (ref == null) {
          ref = BankVectors.of(embedder, "reference.txt", sentences("reference.txt"));
          reference = ref;
        }
      }
    }
    double[] cos = cosines(query, ref);
    double sum = 0;
    double sq = 0;
    double max = Double.NEGATIVE_INFINITY;
    for (double c : cos) {
      sum += c;
      sq += c * c;
      max = Math.max(max, c);
    }
    double mean = sum / cos.length;
    double sd = Math.sqrt(Math.max(0, sq / cos.length - mean * mean));
    return new double[] {mean, sd, max};
  }

  private float[][] bank() {
    float[][] b = bank;
    if (b == null) {
      synchronized (this) {
        b = bank;
        if (b == null) {
          b = BankVectors.of(embedder, "background.txt", sentences());
          bank = b;
        }
      }
    }
    return b;
  }

  static List<String> sentences() {
    return sentences("background.txt");
  }

  /** The sentences of a resource of this package, one a line, without comments and blank lines. */
  static List<String> sentences(String resource) {
    List<String> out = new ArrayList<>();
    try (InputStream in = DenseCalibration.class.getResourceAsStream(resource);
        BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
      for (String line; (line = r.readLine()) != null; ) {
        if (!line.isBlank() && !line.startsWith("#")) out.add(line.strip());
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the dense calibration bank " + resource, e);
    }
    return out;
  }
}

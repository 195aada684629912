package dev.mnemo;

import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;

/**
 * The relevance model of the fetch gate: the probability that a candidate record helps answer the
 * message, from the features the read path computes for it ({@code p = 1 / (1 + e^-(b + sum w_i *
 * (x_i - mean_i) / scale_i))}, a logistic regression over standardized features). Each term
 * {@code w_i * (x_i - mean_i) / scale_i} is that feature's contribution, which the trace shows, so a
 * gate decision is explainable feature by feature.
 *
 * <p>The model is fitted, not hand-tuned: {@code ./mnemo eval fit-relevance} fits it on dev data
 * only (with Tribuo, in mnemo-eval) and writes this format, which core reads without any machine
 * learning library. The default model ships as the resource {@code dev/mnemo/relevance-model.properties};
 * {@code docs/read-path.md} says which data chose it. Its text format is {@link Properties}:
 * {@code model} (an id), {@code features} (comma-separated names), {@code bias}, and per feature
 * {@code mean.NAME}, {@code scale.NAME}, {@code weight.NAME}; {@code min_relevance} and
 * {@code exhaustive_min_relevance} are the gate's default thresholds chosen with it; {@code embedder}
 * (optional) is the embedding model whose cosines it was fitted on: cosine features mean other
 * things under another model, so with another embedder the read path applies no default threshold
 * (a request's own {@code min_relevance} still applies). A feature the read path does not compute
 * counts as 0; a feature the model does not name is ignored.
 *
 * <p>Immutable and thread-safe.
 */
public final class RelevanceModel {
  /** The resource holding the default model. */
  public static final String RESOURCE = "/dev/mnemo/relevance-model.properties";

  private static final RelevanceModel DEFAULT = load();

  private final String id;
  private final List<String> features;
  private final double[] mean;
  private final double[] scale;
  private final double[] weight;
  private final double bias;
  private final double minRelevance;
  private final double exhaustiveMinRelevance;
  private final String embedder;

  private RelevanceModel(String id, List<String> features, double[] mean, double[] scale, double[] weight, double bias,
      double minRelevance, double exhaustiveMinRelevance, String embedder) {
    this.embedder = embedder;
    this.id = id;
    this.features = List.copyOf(features);
    this.mean = mean;
    this.scale = scale;
    this.weight = weight;
    this.bias = bias;
    this.minRelevance = minRelevance;
    this.exhaustiveMinRelevance = exhaustiveMinRelevance;
  }

  /** The model that ships with Mnemo. */
  public static RelevanceModel defaultModel() {
    return DEFAULT;
  }

  private static RelevanceModel load() {
    try (InputStream in = RelevanceModel.class.getResourceAsStream(RESOURCE)) {
      if (in == null) throw new IllegalStateException("the relevance model resource " + RESOURCE + " is missing");
      return parse(new String(in.readAllBytes(), StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the relevance model " + RESOURCE, e);
    }
  }

  /** A model from its text form (see the class comment); a missing or malformed entry is an error naming it. */
  public static RelevanceModel parse(String text) {
    Properties p = new Properties();
    try (Reader r = new StringReader(text)) {
      p.load(r);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    String id = required(p, "model");
    List<String> names = new ArrayList<>();
    for (String f : required(p, "features").split(",")) if (!f.isBlank()) names.add(f.strip());
    double[] mean = new double[names.size()];
    double[] scale = new double[names.size()];
    double[] weight = new double[names.size()];
    for (int i = 0; i < names.size(); i++) {
      mean[i] = number(p, "mean." + names.get(i));
      scale[i] = number(p, "scale." + names.get(i));
      weight[i] = number(p, "weight." + names.get(i));
      if (!(scale[i] > 0)) throw new IllegalArgumentException("scale." + names.get(i) + " must be > 0, was " + scale[i]);
    }
    String embedder = p.getProperty("embedder");
    return new RelevanceModel(id, names, mean, scale, weight, number(p, "bias"), number(p, "min_relevance"),
        number(p, "exhaustive_min_relevance"), embedder == null || embedder.isBlank() ? null : embedder.strip());
  }

  private static String required(Properties p, String key) {
    String v = p.getProperty(key);
    if (v == null || v.isBlank()) throw new IllegalArgumentException("relevance model: '" + key + "' is missing");
    return v.strip();
  }

  private static double number(Properties p, String key) {
    String v = required(p, key);
    try {
      return Double.parseDouble(v);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("relevance model: '" + key + "' must be a number, was '" + v + "'");
    }
  }

  /**
   * The text form of a model (see the class comment), entries in a fixed order and numbers in a
   * fixed notation, so that fitting the same data twice writes the same bytes.
   *
   * @param header comment lines written first (without "# "), e.g. what data fitted it
   */
  public static String format(String id, String embedder, List<String> features, double[] mean, double[] scale,
      double[] weight, double bias, double minRelevance, double exhaustiveMinRelevance, List<String> header) {
    StringBuilder sb = new StringBuilder();
    for (String h : header) sb.append("# ").append(h).append('\n');
    sb.append("model=").append(id).append('\n');
    if (embedder != null) sb.append("embedder=").append(embedder).append('\n');
    sb.append("features=").append(String.join(",", features)).append('\n');
    sb.append("bias=").append(num(bias)).append('\n');
    sb.append("min_relevance=").append(num(minRelevance)).append('\n');
    sb.append("exhaustive_min_relevance=").append(num(exhaustiveMinRelevance)).append('\n');
    for (int i = 0; i < features.size(); i++) {
      String f = features.get(i);
      sb.append("mean.").append(f).append('=').append(num(mean[i])).append('\n');
      sb.append("scale.").append(f).append('=').append(num(scale[i])).append('\n');
      sb.append("weight.").append(f).append('=').append(num(weight[i])).append('\n');
    }
    return sb.toString();
  }

  private static String num(double v) {
    return String.format(Locale.ROOT, "%.6f", v);
  }

  /** The model's id, as recall traces report it. */
  public String id() {
    return id;
  }

  /** The embedding model the model was fitted with, or null when it does not depend on one. */
  public String embedder() {
    return embedder;
  }

  /** Whether the model's default thresholds apply to recalls with this embedding model (null: no embedder). */
  public boolean fits(String embeddingModel) {
    return embedder == null || embedder.equals(embeddingModel);
  }

  /** The features the model reads, in its order. */
  public List<String> features() {
    return features;
  }

  /** The gate's default threshold on {@link #probability}, chosen with the model on dev data. */
  public double minRelevance() {
    return minRelevance;
  }

  /** The threshold for aggregation questions ("how many times...", "list every..."), where recall matters more. */
  public double exhaustiveMinRelevance() {
    return exhaustiveMinRelevance;
  }

  /** The probability that a record with these feature values helps answer the message. */
  public double probability(Map<String, Double> x) {
    double z = bias;
    for (int i = 0; i < features.size(); i++) z += term(i, x.getOrDefault(features.get(i), 0.0));
    return 1 / (1 + Math.exp(-z));
  }

  /** Each feature's contribution to the log-odds, in the model's order, and {@code bias}. */
  public Map<String, Double> contributions(Map<String, Double> x) {
    Map<String, Double> out = new LinkedHashMap<>();
    out.put("bias", bias);
    for (int i = 0; i < features.size(); i++) out.put(features.get(i), term(i, x.getOrDefault(features.get(i), 0.0)));
    return out;
  }

  private double term(int i, double v) {
    return weight[i] * (v - mean[i]) / scale[i];
  }
}

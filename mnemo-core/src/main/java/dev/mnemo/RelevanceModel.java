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
 * message, from the features the read path computes for it. Two kinds:
 *
 * <ul>
 *   <li>{@code kind=logistic} (the default when {@code kind} is absent): {@code p = 1 / (1 + e^-(b
 *       + sum w_i * (x_i - mean_i) / scale_i))}, a logistic regression over standardized features;
 *       each term {@code w_i * (x_i - mean_i) / scale_i} is that feature's contribution.
 *   <li>{@code kind=trees}: boosted regression trees (fitted with XGBoost) whose leaf values add up
 *       to a margin {@code m}, calibrated by Platt scaling on out-of-fold predictions: {@code p = 1
 *       / (1 + e^-(platt.a * m + platt.b))}. A feature's contribution is the change in the expected
 *       value (the cover-weighted mean of the leaves below) at each split on that feature along the
 *       record's path through every tree (the "Saabas" attribution), times {@code platt.a}; with
 *       {@code bias} (the trees' root expectations, scaled, plus {@code platt.b}) they add up to
 *       the log-odds exactly.
 * </ul>
 *
 * The trace shows the contributions, so a gate decision is explainable feature by feature.
 *
 * <p>The model is fitted, not hand-tuned: {@code ./mnemo eval fit-relevance} fits it on dev data
 * only (with XGBoost, in mnemo-eval) and writes this format, which core reads without any machine
 * learning library. The default model ships as the resource {@code
 * dev/mnemo/relevance-model.properties}; {@code docs/read-path.md} says which data chose it. Its
 * text format is {@link Properties}: {@code model} (an id), {@code features} (comma-separated
 * names), {@code bias}, and per feature {@code mean.NAME}, {@code scale.NAME}, {@code weight.NAME};
 * {@code min_relevance} and {@code exhaustive_min_relevance} are the gate's default thresholds
 * chosen with it; {@code embedder} (optional) is the embedding model whose cosines it was fitted
 * on: cosine features mean other things under another model, so with another embedder the read path
 * applies no default threshold (a request's own {@code min_relevance} still applies). A feature the
 * read path does not compute counts as 0; a feature the model does not name is ignored. A {@code
 * trees} model has, instead of the per-feature entries, {@code platt.a}, {@code platt.b}, {@code
 * trees} (their number) and {@code tree.N} for each: its nodes in XGBoost's node order, separated
 * by {@code ;}, a split as {@code s<feature index>,<threshold>,<yes>,<no>,<missing>,<cover>} (go to
 * {@code yes} when the value, as a 32-bit float like XGBoost's, is below the threshold) and a leaf
 * as {@code l<value>,<cover>}.
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

  /** Null for a logistic model. */
  private final Trees trees;

  private RelevanceModel(
      String id,
      List<String> features,
      double[] mean,
      double[] scale,
      double[] weight,
      double bias,
      double minRelevance,
      double exhaustiveMinRelevance,
      String embedder,
      Trees trees) {
    this.embedder = embedder;
    this.id = id;
    this.features = List.copyOf(features);
    this.mean = mean;
    this.scale = scale;
    this.weight = weight;
    this.bias = bias;
    this.minRelevance = minRelevance;
    this.exhaustiveMinRelevance = exhaustiveMinRelevance;
    this.trees = trees;
  }

  /** The model that ships with Mnemo. */
  public static RelevanceModel defaultModel() {
    return DEFAULT;
  }

  private static RelevanceModel load() {
    try (InputStream in = RelevanceModel.class.getResourceAsStream(RESOURCE)) {
      if (in == null)
        throw new IllegalStateException("the relevance model resource " + RESOURCE + " is missing");
      return parse(new String(in.readAllBytes(), StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the relevance model " + RESOURCE, e);
    }
  }

  /**
   * A model from its text form (see the class comment); a missing or malformed entry is an error
   * naming it.
   */
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
    String embedder = p.getProperty("embedder");
    embedder = embedder == null || embedder.isBlank() ? null : embedder.strip();
    String kind = p.getProperty("kind", "logistic").strip();
    if (kind.equals("trees")) {
      return new RelevanceModel(
          id,
          names,
          null,
          null,
          null,
          0,
          number(p, "min_relevance"),
          number(p, "exhaustive_min_relevance"),
          embedder,
          Trees.parse(p, names.size()));
    }
    if (!kind.equals("logistic")) {
      throw new IllegalArgumentException(
          "relevance model: 'kind' must be logistic or trees, was '" + kind + "'");
    }
    double[] mean = new double[names.size()];
    double[] scale = new double[names.size()];
    double[] weight = new double[names.size()];
    for (int i = 0; i < names.size(); i++) {
      mean[i] = number(p, "mean." + names.get(i));
      scale[i] = number(p, "scale." + names.get(i));
      weight[i] = number(p, "weight." + names.get(i));
      if (!(scale[i] > 0))
        throw new IllegalArgumentException(
            "scale." + names.get(i) + " must be > 0, was " + scale[i]);
    }
    return new RelevanceModel(
        id,
        names,
        mean,
        scale,
        weight,
        number(p, "bias"),
        number(p, "min_relevance"),
        number(p, "exhaustive_min_relevance"),
        embedder,
        null);
  }

  private static String required(Properties p, String key) {
    String v = p.getProperty(key);
    if (v == null || v.isBlank())
      throw new IllegalArgumentException("relevance model: '" + key + "' is missing");
    return v.strip();
  }

  private static double number(Properties p, String key) {
    String v = required(p, key);
    try {
      return Double.parseDouble(v);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "relevance model: '" + key + "' must be a number, was '" + v + "'");
    }
  }

  /**
   * The text form of a model (see the class comment), entries in a fixed order and numbers in a
   * fixed notation, so that fitting the same data twice writes the same bytes.
   *
   * @param header comment lines written first (without "# "), e.g. what data fitted it
   */
  public static String format(
      String id,
      String embedder,
      List<String> features,
      double[] mean,
      double[] scale,
      double[] weight,
      double bias,
      double minRelevance,
      double exhaustiveMinRelevance,
      List<String> header) {
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

  /**
   * The text form of a {@code trees} model (see the class comment), in a fixed order, so that
   * fitting the same data twice writes the same bytes.
   *
   * @param trees each tree's nodes in the {@code tree.N} notation of the class comment
   */
  public static String formatTrees(
      String id,
      String embedder,
      List<String> features,
      double plattA,
      double plattB,
      List<String> trees,
      double minRelevance,
      double exhaustiveMinRelevance,
      List<String> header) {
    StringBuilder sb = new StringBuilder();
    for (String h : header) sb.append("# ").append(h).append('\n');
    sb.append("model=").append(id).append('\n');
    sb.append("kind=trees\n");
    if (embedder != null) sb.append("embedder=").append(embedder).append('\n');
    sb.append("features=").append(String.join(",", features)).append('\n');
    sb.append("min_relevance=").append(num(minRelevance)).append('\n');
    sb.append("exhaustive_min_relevance=").append(num(exhaustiveMinRelevance)).append('\n');
    sb.append("platt.a=").append(num(plattA)).append('\n');
    sb.append("platt.b=").append(num(plattB)).append('\n');
    sb.append("trees=").append(trees.size()).append('\n');
    for (int i = 0; i < trees.size(); i++)
      sb.append("tree.").append(i).append('=').append(trees.get(i)).append('\n');
    return sb.toString();
  }

  /** The kind of model: {@code logistic} or {@code trees}. */
  public String kind() {
    return trees == null ? "logistic" : "trees";
  }

  /** The model's id, as recall traces report it. */
  public String id() {
    return id;
  }

  /** The embedding model the model was fitted with, or null when it does not depend on one. */
  public String embedder() {
    return embedder;
  }

  /**
   * Whether the model's default thresholds apply to recalls with this embedding model (null: no
   * embedder).
   */
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

  /**
   * The threshold for aggregation questions ("how many times...", "list every..."), where recall
   * matters more.
   */
  public double exhaustiveMinRelevance() {
    return exhaustiveMinRelevance;
  }

  /** The probability that a record with these feature values helps answer the message. */
  public double probability(Map<String, Double> x) {
    if (trees != null) return 1 / (1 + Math.exp(-trees.logOdds(values(x))));
    double z = bias;
    for (int i = 0; i < features.size(); i++) z += term(i, x.getOrDefault(features.get(i), 0.0));
    return 1 / (1 + Math.exp(-z));
  }

  /**
   * This model reading feature values from arrays laid out as {@code names} says (a feature the
   * model has and {@code names} lacks reads 0, as a missing map entry does): no map per candidate.
   */
  public Binding bind(List<String> names) {
    int[] at = new int[features.size()];
    for (int i = 0; i < at.length; i++) at[i] = names.indexOf(features.get(i));
    return new Binding(at);
  }

  /** A model bound to an array layout of feature values ({@link #bind}). Immutable. */
  public final class Binding {
    private final int[] at;

    private Binding(int[] at) {
      this.at = at;
    }

    /** {@link #probability(Map)} of the values, in the layout this binding was made for. */
    public double probability(double[] values) {
      double[] v = new double[at.length];
      for (int i = 0; i < at.length; i++) v[i] = at[i] < 0 ? 0.0 : values[at[i]];
      if (trees != null) return 1 / (1 + Math.exp(-trees.logOdds(v)));
      double z = bias;
      for (int i = 0; i < v.length; i++) z += term(i, v[i]);
      return 1 / (1 + Math.exp(-z));
    }
  }

  /** Each feature's contribution to the log-odds, in the model's order, and {@code bias}. */
  public Map<String, Double> contributions(Map<String, Double> x) {
    if (trees != null) {
      double[] c = new double[features.size() + 1];
      trees.contributions(values(x), c);
      Map<String, Double> out = new LinkedHashMap<>();
      out.put("bias", c[features.size()]);
      for (int i = 0; i < features.size(); i++) out.put(features.get(i), c[i]);
      return out;
    }
    Map<String, Double> out = new LinkedHashMap<>();
    out.put("bias", bias);
    for (int i = 0; i < features.size(); i++)
      out.put(features.get(i), term(i, x.getOrDefault(features.get(i), 0.0)));
    return out;
  }

  private double term(int i, double v) {
    return weight[i] * (v - mean[i]) / scale[i];
  }

  private double[] values(Map<String, Double> x) {
    double[] v = new double[features.size()];
    for (int i = 0; i < v.length; i++) v[i] = x.getOrDefault(features.get(i), 0.0);
    return v;
  }

  /**
   * Boosted trees in flat arrays (a node's split feature, threshold, children and expected value),
   * walked by hand: evaluating XGBoost's dump needs no XGBoost, and core stays free of it. Every
   * tree's nodes lie in one array per field, one tree after another, children as absolute indexes:
   * a recall walks the 400 trees for about a hundred candidates, and one contiguous array per field
   * stays in cache where 2,400 small ones did not (the walk, and so every probability, is the
   * same).
   */
  private static final class Trees {
    private final double plattA;
    private final double plattB;
    private final int[] root; // each tree's first node
    private final int[] feature; // -1 for a leaf
    private final float[] threshold;
    private final int[] yes;
    private final int[] no;
    private final int[] missing;
    private final double[] value; // a leaf's value; a split's cover-weighted mean of its subtree

    private Trees(
        double plattA,
        double plattB,
        int[] root,
        int[] feature,
        float[] threshold,
        int[] yes,
        int[] no,
        int[] missing,
        double[] value) {
      this.plattA = plattA;
      this.plattB = plattB;
      this.root = root;
      this.feature = feature;
      this.threshold = threshold;
      this.yes = yes;
      this.no = no;
      this.missing = missing;
      this.value = value;
    }

    static Trees parse(Properties p, int features) {
      int n = (int) number(p, "trees");
      if (n < 1)
        throw new IllegalArgumentException("relevance model: 'trees' must be >= 1, was " + n);
      String[][] all = new String[n][];
      int[] root = new int[n];
      int total = 0;
      for (int t = 0; t < n; t++) {
        all[t] = required(p, "tree." + t).split(";");
        root[t] = total;
        total += all[t].length;
      }
      int[] feature = new int[total];
      float[] threshold = new float[total];
      int[] yes = new int[total];
      int[] no = new int[total];
      int[] missing = new int[total];
      double[] value = new double[total];
      double[] cover = new double[total];
      for (int t = 0; t < n; t++) {
        String key = "tree." + t;
        String[] nodes = all[t];
        int m = nodes.length;
        int o = root[t];
        try {
          for (int i = 0; i < m; i++) {
            String node = nodes[i].strip();
            String[] f = node.substring(1).split(",");
            if (node.charAt(0) == 'l' && f.length == 2) {
              feature[o + i] = -1;
              value[o + i] = Double.parseDouble(f[0]);
              cover[o + i] = Double.parseDouble(f[1]);
            } else if (node.charAt(0) == 's' && f.length == 6) {
              int split = Integer.parseInt(f[0]);
              int[] children = {
                Integer.parseInt(f[2]), Integer.parseInt(f[3]), Integer.parseInt(f[4])
              };
              if (split < 0 || split >= features)
                throw new IllegalArgumentException("feature index " + split);
              for (int c : children) {
                if (c <= i || c >= m)
                  throw new IllegalArgumentException("child " + c + " of node " + i);
              }
              feature[o + i] = split;
              threshold[o + i] = Float.parseFloat(f[1]);
              yes[o + i] = o + children[0];
              no[o + i] = o + children[1];
              missing[o + i] = o + children[2];
              cover[o + i] = Double.parseDouble(f[5]);
            } else {
              throw new IllegalArgumentException("node '" + node + "'");
            }
          }
        } catch (RuntimeException e) {
          throw new IllegalArgumentException(
              "relevance model: '" + key + "' is malformed: " + e.getMessage(), e);
        }
        // Children come after their parent, so one backward pass gives every split its expectation.
        for (int i = o + m - 1; i >= o; i--) {
          if (feature[i] < 0) continue;
          double cy = cover[yes[i]];
          double cn = cover[no[i]];
          value[i] = cy + cn > 0 ? (cy * value[yes[i]] + cn * value[no[i]]) / (cy + cn) : 0;
        }
      }
      return new Trees(
          number(p, "platt.a"),
          number(p, "platt.b"),
          root,
          feature,
          threshold,
          yes,
          no,
          missing,
          value);
    }

    private int child(int i, double x) {
      if (Double.isNaN(x)) return missing[i];
      return (float) x < threshold[i] ? yes[i] : no[i];
    }

    double logOdds(double[] x) {
      double margin = 0;
      for (int r : root) {
        int i = r;
        while (feature[i] >= 0) i = child(i, x[feature[i]]);
        margin += value[i];
      }
      return plattA * margin + plattB;
    }

    /**
     * Each feature's share of {@link #logOdds} in {@code out[0..n)}, the bias in {@code out[n]}.
     */
    void contributions(double[] x, double[] out) {
      int bias = out.length - 1;
      out[bias] += plattB;
      for (int r : root) {
        int i = r;
        out[bias] += plattA * value[r];
        while (feature[i] >= 0) {
          int next = child(i, x[feature[i]]);
          out[feature[i]] += plattA * (value[next] - value[i]);
          i = next;
        }
      }
    }
  }
}

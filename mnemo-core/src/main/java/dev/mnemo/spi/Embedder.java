package dev.mnemo.spi;

import java.util.List;

/**
 * Turns text into dense vectors for the read path's dense signal.
 *
 * <p>Contract: implementations are thread-safe; vectors are L2-normalized so that the dot product
 * is the cosine; every vector of one embedder has {@link #dimension()} components. Queries and
 * passages are embedded separately because asymmetric models (e5: {@code query: } / {@code passage:
 * }) need different prefixes. Failures of a remote provider are reported as {@link
 * dev.mnemo.MnemoException} with {@code retriable()} true for time-outs, 429 and 5xx.
 */
public interface Embedder extends AutoCloseable {

  /**
   * Stable id of the model, stored on every record next to its vector (e.g. {@code e5-small-v2-q}).
   */
  String modelId();

  /** Number of components of every vector. */
  int dimension();

  /** Embeds a search query. */
  float[] embedQuery(String text);

  /** Embeds stored texts, in order; one vector per input. Implementations batch as they see fit. */
  List<float[]> embedPassages(List<String> texts);

  /**
   * The typical cosine similarity of two unrelated texts under this model, used to calibrate the
   * dense signal to [0, 1] ({@code (cos - floor) / (1 - floor)}). Models such as e5 put unrelated
   * texts near 0.7, so a raw cosine says little on its own. Default 0 (cosine as is).
   */
  default double unrelatedSimilarity() {
    return 0.0;
  }

  /**
   * A second, symmetric sentence model the fetch gate may compare short texts with, or null (the
   * default): the shipped relevance model was fitted with e5's (all-MiniLM-L6-v2), and its {@code
   * tcos} feature is the companion's cosine of the message and a record with the owner's own name
   * taken out of both ("How tall is someone?" against "someone goes climbing"). A retrieval model
   * reads the shared name as a match; a model fitted on sentence pairs reads what is left. Closed
   * with this embedder.
   */
  default Embedder companion() {
    return null;
  }

  @Override
  default void close() {}

  /**
   * A view of {@code embedder} whose {@link #close()} does nothing: one loaded model can then serve
   * several engines (one per tenant, per scenario), each of which closes its embedder when closed.
   * The owner of the model closes {@code embedder} itself.
   */
  static Embedder shared(Embedder embedder) {
    return new ForwardingEmbedder(embedder) {
      /** The companion, shared too (its owner closes it with {@code embedder}). */
      @Override
      public Embedder companion() {
        Embedder c = embedder.companion();
        return c == null ? null : shared(c);
      }

      @Override
      public void close() {}
    };
  }
}

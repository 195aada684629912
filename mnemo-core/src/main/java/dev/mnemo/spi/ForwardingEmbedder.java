package dev.mnemo.spi;

import java.util.List;
import java.util.Objects;

/**
 * An embedder that forwards every call to another one: the base of a wrapper that changes a few
 * calls (a view that must not close the model, precomputed query vectors, a model without its
 * companion) and leaves the rest as the wrapped embedder does them. Every method of {@link
 * Embedder} is forwarded, the defaults included, for the reason {@link ForwardingMemoryStore}
 * gives; {@link #close()} too, so a view that must not close overrides it.
 *
 * <p>Hand-written: the pattern is Guava's {@code ForwardingObject}, which the core does not depend
 * on for one class.
 */
public abstract class ForwardingEmbedder implements Embedder {
  private final Embedder delegate;

  protected ForwardingEmbedder(Embedder delegate) {
    this.delegate = Objects.requireNonNull(delegate, "delegate");
  }

  /** The embedder calls are forwarded to. */
  protected Embedder delegate() {
    return delegate;
  }

  @Override
  public String modelId() {
    return delegate.modelId();
  }

  @Override
  public int dimension() {
    return delegate.dimension();
  }

  @Override
  public float[] embedQuery(String text) {
    return delegate.embedQuery(text);
  }

  @Override
  public List<float[]> embedPassages(List<String> texts) {
    return delegate.embedPassages(texts);
  }

  @Override
  public double unrelatedSimilarity() {
    return delegate.unrelatedSimilarity();
  }

  @Override
  public Embedder companion() {
    return delegate.companion();
  }

  @Override
  public void close() {
    delegate.close();
  }
}

package dev.mnemo.spi;

import dev.mnemo.MemoryRecord;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * A store that forwards every call to another one: the base of a wrapper that changes a few calls
 * (timing, failure injection, a view that must not close what it wraps) and leaves the rest as the
 * wrapped store does them.
 *
 * <p>Every method of {@link MemoryStore} is forwarded, the interface's default methods included: a
 * wrapper that implemented the interface directly would silently answer those with the defaults (a
 * full {@code export} scan for {@link #bySources}, no turn log, no embedding model, a durable
 * {@code apply} instead of group commit) and so behave unlike the store it wraps. A subclass that
 * means to answer one of them differently overrides it and says why. {@code
 * ForwardingMemoryStoreTest} fails when a method added to {@code MemoryStore} is not forwarded
 * here.
 *
 * <p>Hand-written: the pattern is Guava's {@code ForwardingObject}, which the core does not depend
 * on for one class.
 */
public abstract class ForwardingMemoryStore implements MemoryStore {
  private final MemoryStore delegate;

  protected ForwardingMemoryStore(MemoryStore delegate) {
    this.delegate = Objects.requireNonNull(delegate, "delegate");
  }

  /** The store calls are forwarded to. */
  protected MemoryStore delegate() {
    return delegate;
  }

  @Override
  public void apply(List<MemoryRecord> upserts, Collection<String> deleteIds) {
    delegate.apply(upserts, deleteIds);
  }

  @Override
  public Durable applyVisible(List<MemoryRecord> upserts, Collection<String> deleteIds) {
    return delegate.applyVisible(upserts, deleteIds);
  }

  @Override
  public Optional<MemoryRecord> get(String owner, String id) {
    return delegate.get(owner, id);
  }

  @Override
  public List<MemoryRecord> versions(String owner, String factKey) {
    return delegate.versions(owner, factKey);
  }

  @Override
  public List<MemoryRecord> lineage(String owner, String id) {
    return delegate.lineage(owner, id);
  }

  @Override
  public CandidateSet candidates(CandidateQuery query) {
    return delegate.candidates(query);
  }

  @Override
  public CandidateSet candidates(CandidateQuery query, Supplier<float[]> vector) {
    return delegate.candidates(query, vector);
  }

  @Override
  public List<MemoryRecord> latest(Eligibility eligibility, int limit) {
    return delegate.latest(eligibility, limit);
  }

  @Override
  public int deleteOwner(String owner) {
    return delegate.deleteOwner(owner);
  }

  @Override
  public void export(String owner, Consumer<MemoryRecord> sink) {
    delegate.export(owner, sink);
  }

  @Override
  public List<MemoryRecord> bySources(String owner, Collection<String> sourceIds) {
    return delegate.bySources(owner, sourceIds);
  }

  @Override
  public Optional<TurnLog> turnLog() {
    return delegate.turnLog();
  }

  @Override
  public Optional<String> embeddingModel() {
    return delegate.embeddingModel();
  }

  @Override
  public Optional<RecallLog> recallLog() {
    return delegate.recallLog();
  }

  @Override
  public long count(Eligibility eligibility) {
    return delegate.count(eligibility);
  }

  @Override
  public String state() {
    return delegate.state();
  }

  @Override
  public long count() {
    return delegate.count();
  }

  @Override
  public void close() {
    delegate.close();
  }

  @Override
  public String toString() {
    return getClass().getSimpleName() + "(" + delegate + ")";
  }
}

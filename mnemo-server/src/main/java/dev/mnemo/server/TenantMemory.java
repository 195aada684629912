package dev.mnemo.server;

import dev.mnemo.InvalidRequestException;
import dev.mnemo.InvalidRequestException.Violation;
import dev.mnemo.Maintenance;
import dev.mnemo.MemoryRecord;
import dev.mnemo.Mnemo;
import dev.mnemo.NewMemory;
import dev.mnemo.RecallRequest;
import dev.mnemo.RecallResult;
import dev.mnemo.json.BatchPath;
import dev.mnemo.json.TraceJson;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One tenant's memory as every transport of the server sees it (REST handlers, a mounted MCP
 * servlet): the tenant's own engine, with writes going through the tenant's group commit and
 * recalls feeding the stage metrics and, when the tenant is flagged, the trace log.
 *
 * <p>Isolation is structural: this object holds the tenant's engine, whose store holds that
 * tenant's records and no one else's, so no owner string a caller sends can reach another tenant.
 * {@link #close()} does nothing: the server owns the engine. Every write's outcome feeds {@link
 * #health()}, which makes the server not ready when the tenant's store fails. Thread-safe.
 */
final class TenantMemory implements Mnemo {
  private static final Logger TRACE = LoggerFactory.getLogger("mnemo.trace");

  /** The id of the request being served on this thread, for log lines written below the handler. */
  static final ThreadLocal<String> REQUEST_ID = new ThreadLocal<>();

  private final String tenant;
  private final Mnemo engine;
  private final GroupCommitter committer; // null: group commit disabled
  private final Metrics metrics;
  private final boolean traceLogged;
  private final WriteHealth health = new WriteHealth();

  /** Writes finished (or failed) so far: what a cache of the store's content is tagged with. */
  private final java.util.concurrent.atomic.AtomicLong writes =
      new java.util.concurrent.atomic.AtomicLong();

  private volatile Cached<?> cached;

  private record Cached<T>(long writes, T value) {}

  TenantMemory(
      String tenant, Mnemo engine, GroupCommitter committer, Metrics metrics, boolean traceLogged) {
    this.tenant = tenant;
    this.engine = engine;
    this.committer = committer;
    this.metrics = metrics;
    this.traceLogged = traceLogged;
  }

  String tenant() {
    return tenant;
  }

  /** Whether the tenant's store still takes writes (for the readiness check). */
  WriteHealth health() {
    return health;
  }

  /**
   * Runs one write, recording its outcome in {@link #health}. A call that changed nothing (forget
   * or mark-used of ids that do not exist) may not have reached the store, so it proves nothing.
   */
  private <T> T tracked(Supplier<T> write, Predicate<T> changed) {
    long ticket = health.begin();
    T out;
    try {
      out = write.get();
    } catch (RuntimeException e) {
      health.failed(e);
      throw e;
    } finally {
      writes.incrementAndGet(); // after the write is visible (or failed, which may have changed
      // something)
    }
    if (changed.test(out)) health.succeeded(ticket);
    return out;
  }

  /**
   * Validates every memory (all violations at once, nothing written when any), then writes them as
   * one atomic batch, durably. {@code single}: fields are named as one record ({@code text}) rather
   * than batch items ({@code records[2].text}).
   */
  List<MemoryRecord> write(List<NewMemory> memories, boolean single) {
    List<Violation> v = new ArrayList<>();
    for (int i = 0; i < memories.size(); i++) {
      v.addAll(engine.validate(memories.get(i), single ? "" : BatchPath.RECORDS.item(i)));
    }
    if (!v.isEmpty()) throw new InvalidRequestException(v);
    if (memories.isEmpty()) return List.of();
    return tracked(
        () -> {
          if (committer != null) return committer.write(memories, single);
          try {
            return engine.rememberAll(memories);
          } catch (InvalidRequestException e) {
            throw GroupCommitter.renamed(e, single);
          }
        },
        stored -> true);
  }

  @Override
  public MemoryRecord remember(NewMemory memory) {
    return write(java.util.Collections.singletonList(memory), true).get(0);
  }

  @Override
  public List<MemoryRecord> rememberAll(List<NewMemory> memories) {
    if (memories == null)
      throw new InvalidRequestException("records", null, "records must not be null");
    return write(memories, false);
  }

  @Override
  public List<Violation> validate(NewMemory memory, String fieldPrefix) {
    return engine.validate(memory, fieldPrefix);
  }

  /**
   * Recalls as the engine does. The engine computes every candidate's signals and stage timings
   * either way; asking it for the trace only collects them, so it is always asked, for the stage
   * metrics and the trace log, and the trace is dropped unless the caller wanted it.
   */
  @Override
  public dev.mnemo.IngestReceipt ingest(List<dev.mnemo.Turn> turns) {
    return tracked(() -> engine.ingest(turns), r -> !r.accepted().isEmpty());
  }

  @Override
  public List<dev.mnemo.Turn> sources(String owner, String recordId) {
    return engine.sources(owner, recordId);
  }

  /**
   * The turn as the tenant's turn log holds it (empty also when the engine cannot read its log
   * whole).
   */
  Optional<dev.mnemo.StoredTurn> turn(String owner, String id) {
    return engine.maintenance().flatMap(m -> m.turn(owner, id));
  }

  @Override
  public dev.mnemo.IngestReceipt accept(String owner, String id) {
    return tracked(() -> engine.accept(owner, id), r -> !r.accepted().isEmpty());
  }

  @Override
  public dev.mnemo.IngestProgress ingestProgress() {
    return engine.ingestProgress();
  }

  @Override
  public boolean awaitIngested(java.time.Duration timeout) {
    return engine.awaitIngested(timeout);
  }

  /** The engine's maintenance, with its writes tracked like every other write of the tenant. */
  @Override
  public Optional<Maintenance> maintenance() {
    return engine
        .maintenance()
        .map(
            m ->
                new Maintenance() {
                  @Override
                  public Optional<dev.mnemo.StoredTurn> turn(String owner, String id) {
                    return m.turn(owner, id);
                  }

                  @Override
                  public void exportTurns(String owner, Consumer<dev.mnemo.StoredTurn> sink) {
                    m.exportTurns(owner, sink);
                  }

                  @Override
                  public int importTurns(List<dev.mnemo.StoredTurn> turns) {
                    return tracked(() -> m.importTurns(turns), n -> n > 0);
                  }

                  @Override
                  public int restore(List<MemoryRecord> records) {
                    return tracked(() -> m.restore(records), n -> n > 0);
                  }

                  @Override
                  public dev.mnemo.RetentionReport retain(
                      String owner,
                      java.util.Map<dev.mnemo.Category, dev.mnemo.RetentionPolicy> p,
                      java.time.Duration turnMaxAge,
                      java.time.Instant now) {
                    return tracked(
                        () -> m.retain(owner, p, turnMaxAge, now),
                        r -> r.expired() + r.turnsDeleted() > 0);
                  }
                });
  }

  @Override
  public Optional<MemoryRecord> summarize(String owner, String episode) {
    return tracked(() -> engine.summarize(owner, episode), Optional::isPresent);
  }

  @Override
  public MemoryRecord recategorize(String owner, String id, dev.mnemo.Category category) {
    return tracked(() -> engine.recategorize(owner, id, category), r -> true);
  }

  @Override
  public RecallResult recall(RecallRequest request) {
    RecallResult r =
        engine.recall(request.explain() ? request : request.toBuilder().explain(true).build());
    if (r.trace() != null) {
      metrics.stages(r.trace().stageNanos());
      if (traceLogged && TRACE.isInfoEnabled()) {
        TRACE.info(
            "trace tenant={} request_id={} {}",
            tenant,
            REQUEST_ID.get(),
            TraceJson.write(r.trace()));
      }
    }
    return request.explain() ? r : r.withoutTrace();
  }

  @Override
  public List<MemoryRecord> history(String owner, String factKey) {
    return engine.history(owner, factKey);
  }

  @Override
  public Optional<MemoryRecord> get(String owner, String id) {
    return engine.get(owner, id);
  }

  @Override
  public int forget(String owner) {
    return tracked(() -> engine.forget(owner), n -> n > 0);
  }

  @Override
  public int forget(String owner, String id) {
    return tracked(() -> engine.forget(owner, id), n -> n > 0);
  }

  @Override
  public int markUsed(String owner, Collection<String> ids) {
    return tracked(() -> engine.markUsed(owner, ids), n -> n > 0);
  }

  @Override
  public Optional<dev.mnemo.RetrievalLog> retrievalLog() {
    return engine.retrievalLog();
  }

  @Override
  public Optional<dev.mnemo.Diagnostics> diagnostics() {
    return engine.diagnostics();
  }

  /**
   * Every record of the owner, or of the whole tenant when {@code owner} is null (its own store).
   */
  @Override
  public void export(String owner, Consumer<MemoryRecord> sink) {
    engine.export(owner, sink);
  }

  /**
   * A value derived from the tenant's whole store (the owners' statistics of the browsing routes),
   * computed by {@code compute} and reused until the next write of the tenant finishes. Every write
   * reaches the store through this object, so a reused value is never older than the store. The
   * counter is read before computing: a write finishing during the computation makes the value
   * stale at once, and the next call computes it again. One slot: one kind of value per tenant.
   */
  @SuppressWarnings("unchecked")
  <T> T untilNextWrite(Supplier<T> compute) {
    Cached<?> c = cached;
    long now = writes.get();
    if (c != null && c.writes() == now) return (T) c.value();
    T value = compute.get();
    cached = new Cached<>(now, value);
    return value;
  }

  /** Does nothing: the server owns the engine. */
  @Override
  public void close() {}
}

package dev.mnemo.internal;

import dev.mnemo.Category;
import dev.mnemo.InvalidRequestException;
import dev.mnemo.Maintenance;
import dev.mnemo.MemoryRecord;
import dev.mnemo.RetentionPolicy;
import dev.mnemo.RetentionReport;
import dev.mnemo.StoredTurn;
import dev.mnemo.spi.Embedder;
import dev.mnemo.spi.MemoryStore;
import dev.mnemo.spi.TurnLog;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;

/**
 * The engine's {@link Maintenance} facet: records and turns moved in as they were (a restore keeps
 * a record's id, versions and times; imported turns keep their state), turns read and exported, and
 * retention. Apart from {@link Engine} because none of it is a caller's everyday write: it goes
 * around the write path's planning (a restored record is stored as it is, re-embedded only when its
 * vector is missing or of another model), and retention walks an owner's whole history in batches.
 * What it changes is handed to {@link Summaries#followSources}, as the write path's changes are.
 */
final class EngineMaintenance implements Maintenance {
  private final MemoryStore store;
  private final Embedder embedder;
  private final TurnLog turnLog;
  private final IngestPipeline ingest;
  private final WriteLocks locks;
  private final InstantSource clock;
  private final Summaries summaries;

  EngineMaintenance(
      MemoryStore store,
      Embedder embedder,
      TurnLog turnLog,
      IngestPipeline ingest,
      WriteLocks locks,
      InstantSource clock,
      Summaries summaries) {
    this.store = store;
    this.embedder = embedder;
    this.turnLog = turnLog;
    this.ingest = ingest;
    this.locks = locks;
    this.clock = clock;
    this.summaries = summaries;
  }

  @Override
  public Optional<StoredTurn> turn(String owner, String id) {
    dev.mnemo.InputRules.requireOwner("owner", owner);
    return id == null ? Optional.empty() : turnLog.get(owner, id);
  }

  @Override
  public void exportTurns(String owner, Consumer<StoredTurn> sink) {
    turnLog.export(owner, sink);
  }

  @Override
  public int importTurns(List<StoredTurn> turns) {
    List<InvalidRequestException.Violation> bad = new ArrayList<>();
    for (int i = 0; i < turns.size(); i++) {
      bad.addAll(
          IngestPipeline.validate(
              turns.get(i) == null ? null : turns.get(i).turn(), "turns[" + i + "].", null));
    }
    if (!bad.isEmpty()) throw new InvalidRequestException(bad);
    List<StoredTurn> stored = turnLog.append(turns);
    ingest.added(stored.stream().filter(t -> t.state() == StoredTurn.State.PENDING).count());
    return stored.size();
  }

  @Override
  public int restore(List<MemoryRecord> records) {
    List<InvalidRequestException.Violation> bad = new ArrayList<>();
    for (int i = 0; i < records.size(); i++) {
      MemoryRecord r = records.get(i);
      String p = "records[" + i + "].";
      if (r == null) {
        bad.add(
            new InvalidRequestException.Violation(
                p + "record", null, p + "record must not be null"));
      } else if (r.owner().isBlank() || r.text().isBlank()) {
        bad.add(
            new InvalidRequestException.Violation(
                p + "owner", r.owner(), p + "owner and text must not be blank"));
      } else {
        // a restored record keeps its times, but only those a store can represent
        int before = bad.size();
        dev.mnemo.InputRules.checkOwner(p + "owner", r.owner(), bad);
        dev.mnemo.InputRules.checkTime(p + "recorded_at", r.recordedAt(), bad);
        dev.mnemo.InputRules.checkTime(p + "expired_at", r.expiredAt(), bad);
        dev.mnemo.InputRules.checkTime(p + "valid_from", r.validFrom(), bad);
        dev.mnemo.InputRules.checkTime(p + "valid_to", r.validTo(), bad);
        dev.mnemo.InputRules.checkTime(p + "last_accessed_at", r.lastAccessedAt(), bad);
        if (bad.size() == before && r.validTo() != null && !r.validTo().isAfter(r.validFrom())) {
          bad.add(
              new InvalidRequestException.Violation(
                  p + "valid_to", r.validTo(), p + "valid_to must be after valid_from"));
        }
      }
    }
    if (!bad.isEmpty()) throw new InvalidRequestException(bad);
    if (records.isEmpty()) return 0;
    List<MemoryRecord> out = new ArrayList<>(records);
    if (embedder != null) {
      List<Integer> stale = new ArrayList<>();
      for (int i = 0; i < out.size(); i++) {
        MemoryRecord r = out.get(i);
        if (r.embedding() == null || !embedder.modelId().equals(r.embeddingModel())) stale.add(i);
      }
      if (!stale.isEmpty()) {
        List<float[]> vectors =
            embedder.embedPassages(stale.stream().map(i -> out.get(i).text()).toList());
        for (int j = 0; j < stale.size(); j++) {
          MemoryRecord r = out.get(stale.get(j));
          out.set(stale.get(j), Records.withEmbedding(r, vectors.get(j), embedder.modelId()));
        }
      }
    }
    WriteLocks.Held held = locks.owners(owners(out));
    try {
      store.apply(out, List.of());
    } finally {
      held.release();
    }
    return out.size();
  }

  /** Records written or changed per atomic batch of {@link #retain}. */
  static final int RETAIN_BATCH = 256;

  @Override
  public RetentionReport retain(
      String owner, Map<Category, RetentionPolicy> policies, Duration turnMaxAge, Instant now) {
    dev.mnemo.InputRules.requireOwner("owner", owner);
    Objects.requireNonNull(policies, "policies");
    Instant at =
        (now == null ? clock.instant() : now).truncatedTo(java.time.temporal.ChronoUnit.MILLIS);
    List<MemoryRecord> all = new ArrayList<>();
    store.export(owner, all::add);
    long examined = 0;
    long expired = 0;
    List<MemoryRecord> batch = new ArrayList<>();
    for (MemoryRecord r : all) {
      if (r.expiredAt() != null) continue;
      examined++;
      RetentionPolicy p = policies.getOrDefault(r.category(), RetentionPolicy.KEEP);
      if (p.dropReason(r, at) == null || !at.isAfter(r.recordedAt())) continue;
      batch.add(r.withExpiredAt(at));
      if (batch.size() == RETAIN_BATCH) {
        expired += applyBatch(batch);
      }
    }
    expired += applyBatch(batch);
    long turnsDeleted = 0;
    if (turnMaxAge != null) {
      Set<String> named = new HashSet<>();
      for (MemoryRecord r : all) named.addAll(r.sources());
      Instant cutoff = at.minus(turnMaxAge);
      List<String> old = new ArrayList<>();
      turnLog.export(
          owner,
          t -> {
            if (t.state() != StoredTurn.State.PENDING
                && t.turn().at() != null
                && t.turn().at().isBefore(cutoff)
                && !named.contains(t.turn().id())) {
              old.add(t.turn().id());
            }
          });
      for (int i = 0; i < old.size(); i += RETAIN_BATCH) {
        turnsDeleted +=
            turnLog.delete(owner, old.subList(i, Math.min(old.size(), i + RETAIN_BATCH)));
      }
    }
    return new RetentionReport(examined, expired, turnsDeleted);
  }

  private static Set<String> owners(Collection<MemoryRecord> records) {
    Set<String> owners = new HashSet<>();
    for (MemoryRecord r : records) owners.add(r.owner());
    return owners;
  }

  private int applyBatch(List<MemoryRecord> batch) {
    if (batch.isEmpty()) return 0;
    int n = batch.size();
    WriteLocks.Held held = locks.owners(owners(batch));
    try {
      store.apply(List.copyOf(batch), List.of());
      summaries.followSources(batch, List.of());
    } finally {
      held.release();
    }
    batch.clear();
    return n;
  }
}

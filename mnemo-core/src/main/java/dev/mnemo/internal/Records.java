package dev.mnemo.internal;

import dev.mnemo.ConflictPolicy;
import dev.mnemo.MemoryRecord;
import dev.mnemo.NewMemory;
import java.time.Instant;
import java.util.List;

/** Copies of records and candidates with a few fields changed, for the ingest pipeline. */
final class Records {
  private Records() {}

  /** The same record (same id, same version) with other sources, fact key and importance. */
  static MemoryRecord with(
      MemoryRecord r, List<String> sources, String factKey, double importance) {
    return new MemoryRecord(
        r.id(),
        r.owner(),
        r.scope(),
        r.category(),
        r.text(),
        r.context(),
        sources,
        r.episode(),
        r.seq(),
        r.recordedAt(),
        r.expiredAt(),
        r.validFrom(),
        r.validTo(),
        factKey,
        r.version(),
        r.origin(),
        importance,
        r.authority(),
        r.conflictPolicy(),
        r.entities(),
        r.accessCount(),
        r.lastAccessedAt(),
        r.embedding(),
        r.embeddingModel(),
        r.metadata(),
        r.access(),
        r.eventTime());
  }

  /** The same record with another vector. */
  static MemoryRecord withEmbedding(MemoryRecord r, float[] vector, String model) {
    return new MemoryRecord(
        r.id(),
        r.owner(),
        r.scope(),
        r.category(),
        r.text(),
        r.context(),
        r.sources(),
        r.episode(),
        r.seq(),
        r.recordedAt(),
        r.expiredAt(),
        r.validFrom(),
        r.validTo(),
        r.factKey(),
        r.version(),
        r.origin(),
        r.importance(),
        r.authority(),
        r.conflictPolicy(),
        r.entities(),
        r.accessCount(),
        r.lastAccessedAt(),
        vector,
        model,
        r.metadata(),
        r.access(),
        r.eventTime());
  }

  /** The candidate under another fact key and conflict policy, recorded at {@code recordedAt}. */
  static NewMemory with(NewMemory m, String factKey, ConflictPolicy policy, Instant recordedAt) {
    return copy(m, recordedAt, m.validFrom(), factKey, policy, m.metadata());
  }

  /** The candidate with another valid-from (null: the recorded time). */
  static NewMemory with(NewMemory m, Instant validFrom) {
    if (java.util.Objects.equals(validFrom, m.validFrom())) return m;
    return copy(m, m.recordedAt(), validFrom, m.factKey(), m.conflictPolicy(), m.metadata());
  }

  /** The candidate with other metadata. */
  static NewMemory with(NewMemory m, java.util.Map<String, String> metadata) {
    return copy(m, m.recordedAt(), m.validFrom(), m.factKey(), m.conflictPolicy(), metadata);
  }

  /** {@code m} with the fields the write path changes replaced, every other field kept. */
  private static NewMemory copy(
      NewMemory m,
      Instant recordedAt,
      Instant validFrom,
      String factKey,
      ConflictPolicy policy,
      java.util.Map<String, String> metadata) {
    return new NewMemory(
        m.owner(),
        m.text(),
        m.scope(),
        m.category(),
        m.context(),
        m.sources(),
        m.episode(),
        m.seq(),
        recordedAt,
        validFrom,
        m.validTo(),
        factKey,
        m.importance(),
        m.authority(),
        policy,
        m.entities(),
        metadata,
        m.lowerAuthority(),
        m.access());
  }

  /**
   * The same record with the write path's {@link MemoryRecord#RESOLUTION} note set (null:
   * unchanged).
   */
  static MemoryRecord noted(MemoryRecord r, String note) {
    if (note == null) return r;
    java.util.Map<String, String> meta = new java.util.LinkedHashMap<>(r.metadata());
    meta.put(MemoryRecord.RESOLUTION, note);
    return new MemoryRecord(
        r.id(),
        r.owner(),
        r.scope(),
        r.category(),
        r.text(),
        r.context(),
        r.sources(),
        r.episode(),
        r.seq(),
        r.recordedAt(),
        r.expiredAt(),
        r.validFrom(),
        r.validTo(),
        r.factKey(),
        r.version(),
        r.origin(),
        r.importance(),
        r.authority(),
        r.conflictPolicy(),
        r.entities(),
        r.accessCount(),
        r.lastAccessedAt(),
        r.embedding(),
        r.embeddingModel(),
        meta,
        r.access(),
        r.eventTime());
  }
}

package dev.mnemo;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One immutable version of a memory, as stored.
 *
 * <p>Bitemporal: {@code validFrom}/{@code validTo} say when the fact holds in the world (valid
 * time, {@code validTo} null = open); {@code recordedAt}/{@code expiredAt} say when Mnemo learned
 * it and when a later record replaced it (transaction time, {@code expiredAt} null = still
 * believed). A correction never overwrites: it expires this version and writes new ones. When a
 * correction covers only part of this version's valid time, the uncovered part is re-recorded as a
 * new version whose {@code origin} is this record's id, with the same text, sources and version
 * number (this field is not in the architecture's table; it lets {@code forget(owner, id)} remove a
 * statement with every clipped copy of it).
 *
 * <p>Usage counters ({@code accessCount}, {@code lastAccessedAt}) are bookkeeping, not content:
 * {@link Mnemo#markUsed} updates them in place without a new version. Collections are unmodifiable;
 * nullable fields are documented per component.
 *
 * <p>The metadata key {@value #RESOLUTION} is the engine's: when a write's rules changed what the
 * record or the versions before it say (a back-fill ended where a later version begins, versions
 * superseded, a lower-authority record kept beside a higher one, a clipped copy), the write path
 * notes there which rule decided, e.g. {@code "backfill: ends where current version 7f3.. begins
 * (2026-12-02T00:00:00Z)"}; see {@link #resolution()}.
 *
 * @param id engine-assigned, stable
 * @param owner the tenant/user id; the first boundary
 * @param scope optional task/project scope, or null
 * @param category kind of memory
 * @param text the short, searchable statement
 * @param context optional text indexed with the record (neighbouring turns, a session date) to make
 *     short turns findable; never rendered; may be null
 * @param sources source event ids
 * @param episode optional episode (session) id, or null
 * @param seq position in the episode, or -1
 * @param recordedAt transaction time of this version
 * @param expiredAt transaction time a later record replaced it, or null while current
 * @param validFrom start of valid time (inclusive)
 * @param validTo end of valid time (exclusive), or null = open
 * @param factKey identity of the stated fact, or null
 * @param version version under the fact key (1, 2, ...), 0 without a fact key
 * @param origin id of the version this one was clipped from, or null
 * @param importance 0..1
 * @param authority trust level
 * @param conflictPolicy how this record treated earlier versions of its fact key
 * @param entities normalized names mentioned in the text
 * @param accessCount times a caller reported the record as used
 * @param lastAccessedAt last such report, or null
 * @param embedding the vector (L2-normalized) or null when no embedder is configured
 * @param embeddingModel the id of the model that made the vector, or null
 * @param metadata the caller's own string attributes, filterable
 * @param access the record's access labels ({@code team:..}, {@code role:..}, {@code person:..}),
 *     sorted; empty = every caller of the owner may see it (see {@link Access})
 * @param eventTime the time the text is about, read from it at write time ("in 2024", "last
 *     month"), or null when the text names none (see {@link EventTime}); records written before
 *     event times existed have none
 */
public record MemoryRecord(
    String id,
    String owner,
    String scope,
    Category category,
    String text,
    String context,
    List<String> sources,
    String episode,
    int seq,
    Instant recordedAt,
    Instant expiredAt,
    Instant validFrom,
    Instant validTo,
    String factKey,
    int version,
    String origin,
    double importance,
    Authority authority,
    ConflictPolicy conflictPolicy,
    List<String> entities,
    long accessCount,
    Instant lastAccessedAt,
    float[] embedding,
    String embeddingModel,
    Map<String, String> metadata,
    List<String> access,
    EventTime eventTime) {

  /** The metadata key where the write path notes which rule decided (see the class comment). */
  public static final String RESOLUTION = "resolution";

  public MemoryRecord {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(owner, "owner");
    Objects.requireNonNull(category, "category");
    Objects.requireNonNull(text, "text");
    Objects.requireNonNull(recordedAt, "recordedAt");
    Objects.requireNonNull(validFrom, "validFrom");
    Objects.requireNonNull(authority, "authority");
    Objects.requireNonNull(conflictPolicy, "conflictPolicy");
    sources = List.copyOf(sources == null ? List.of() : sources);
    entities = List.copyOf(entities == null ? List.of() : entities);
    metadata = Map.copyOf(metadata == null ? Map.of() : metadata);
    access = Access.normalize(access);
  }

  /** A record without an event time (the layout before event times; every other component). */
  public MemoryRecord(
      String id,
      String owner,
      String scope,
      Category category,
      String text,
      String context,
      List<String> sources,
      String episode,
      int seq,
      Instant recordedAt,
      Instant expiredAt,
      Instant validFrom,
      Instant validTo,
      String factKey,
      int version,
      String origin,
      double importance,
      Authority authority,
      ConflictPolicy conflictPolicy,
      List<String> entities,
      long accessCount,
      Instant lastAccessedAt,
      float[] embedding,
      String embeddingModel,
      Map<String, String> metadata,
      List<String> access) {
    this(
        id,
        owner,
        scope,
        category,
        text,
        context,
        sources,
        episode,
        seq,
        recordedAt,
        expiredAt,
        validFrom,
        validTo,
        factKey,
        version,
        origin,
        importance,
        authority,
        conflictPolicy,
        entities,
        accessCount,
        lastAccessedAt,
        embedding,
        embeddingModel,
        metadata,
        access,
        null);
  }

  /** A copy with another event time (null: none). */
  public MemoryRecord withEventTime(EventTime t) {
    return new MemoryRecord(
        id,
        owner,
        scope,
        category,
        text,
        context,
        sources,
        episode,
        seq,
        recordedAt,
        expiredAt,
        validFrom,
        validTo,
        factKey,
        version,
        origin,
        importance,
        authority,
        conflictPolicy,
        entities,
        accessCount,
        lastAccessedAt,
        embedding,
        embeddingModel,
        metadata,
        access,
        t);
  }

  /**
   * Which write rule decided this version's interval or its effect on others, or null when none
   * applied.
   */
  public String resolution() {
    return metadata.get(RESOLUTION);
  }

  /** Whether the fact holds at valid time {@code t}. */
  public boolean validAt(Instant t) {
    return !validFrom.isAfter(t) && (validTo == null || validTo.isAfter(t));
  }

  /** Whether Mnemo believed this version at transaction time {@code t}. */
  public boolean knownAt(Instant t) {
    return !recordedAt.isAfter(t) && (expiredAt == null || expiredAt.isAfter(t));
  }

  /** A copy with another transaction end. */
  public MemoryRecord withExpiredAt(Instant t) {
    return new MemoryRecord(
        id,
        owner,
        scope,
        category,
        text,
        context,
        sources,
        episode,
        seq,
        recordedAt,
        t,
        validFrom,
        validTo,
        factKey,
        version,
        origin,
        importance,
        authority,
        conflictPolicy,
        entities,
        accessCount,
        lastAccessedAt,
        embedding,
        embeddingModel,
        metadata,
        access,
        eventTime);
  }

  /**
   * A copy with another embedding (vector and model id; both null: none), as a re-embedding writes
   * it.
   */
  public MemoryRecord withEmbedding(float[] vector, String model) {
    return new MemoryRecord(
        id,
        owner,
        scope,
        category,
        text,
        context,
        sources,
        episode,
        seq,
        recordedAt,
        expiredAt,
        validFrom,
        validTo,
        factKey,
        version,
        origin,
        importance,
        authority,
        conflictPolicy,
        entities,
        accessCount,
        lastAccessedAt,
        vector,
        model,
        metadata,
        access,
        eventTime);
  }

  /** A copy with updated usage counters. */
  public MemoryRecord withUsage(long count, Instant lastAccessed) {
    return new MemoryRecord(
        id,
        owner,
        scope,
        category,
        text,
        context,
        sources,
        episode,
        seq,
        recordedAt,
        expiredAt,
        validFrom,
        validTo,
        factKey,
        version,
        origin,
        importance,
        authority,
        conflictPolicy,
        entities,
        count,
        lastAccessed,
        embedding,
        embeddingModel,
        metadata,
        access,
        eventTime);
  }

  /**
   * A new version clipped to {@code [from, to)} of valid time, recorded at {@code at}: the part of
   * this statement that a correction did not cover.
   */
  public MemoryRecord clippedCopy(String newId, Instant from, Instant to, Instant at) {
    return new MemoryRecord(
        newId,
        owner,
        scope,
        category,
        text,
        context,
        sources,
        episode,
        seq,
        at,
        null,
        from,
        to,
        factKey,
        version,
        origin != null ? origin : id,
        importance,
        authority,
        conflictPolicy,
        entities,
        accessCount,
        lastAccessedAt,
        embedding,
        embeddingModel,
        metadata,
        access,
        eventTime);
  }

  /**
   * Every component equal; the embedding by content (a record's default equals compares arrays by
   * identity).
   */
  @Override
  public boolean equals(Object o) {
    return o instanceof MemoryRecord r
        && id.equals(r.id)
        && owner.equals(r.owner)
        && java.util.Objects.equals(scope, r.scope)
        && category == r.category
        && text.equals(r.text)
        && java.util.Objects.equals(context, r.context)
        && sources.equals(r.sources)
        && java.util.Objects.equals(episode, r.episode)
        && seq == r.seq
        && recordedAt.equals(r.recordedAt)
        && java.util.Objects.equals(expiredAt, r.expiredAt)
        && validFrom.equals(r.validFrom)
        && java.util.Objects.equals(validTo, r.validTo)
        && java.util.Objects.equals(factKey, r.factKey)
        && version == r.version
        && java.util.Objects.equals(origin, r.origin)
        && Double.compare(importance, r.importance) == 0
        && authority == r.authority
        && conflictPolicy == r.conflictPolicy
        && entities.equals(r.entities)
        && accessCount == r.accessCount
        && java.util.Objects.equals(lastAccessedAt, r.lastAccessedAt)
        && java.util.Arrays.equals(embedding, r.embedding)
        && java.util.Objects.equals(embeddingModel, r.embeddingModel)
        && metadata.equals(r.metadata)
        && access.equals(r.access)
        && java.util.Objects.equals(eventTime, r.eventTime);
  }

  @Override
  public int hashCode() {
    return id.hashCode();
  }

  @Override
  public String toString() {
    return "MemoryRecord[id="
        + id
        + ", owner="
        + owner
        + ", scope="
        + scope
        + ", category="
        + category.code()
        + ", text="
        + text
        + ", sources="
        + sources
        + ", recordedAt="
        + recordedAt
        + ", expiredAt="
        + expiredAt
        + ", valid=["
        + validFrom
        + ", "
        + validTo
        + "), factKey="
        + factKey
        + ", version="
        + version
        + ", origin="
        + origin
        + ", importance="
        + importance
        + ", authority="
        + authority.code()
        + ", entities="
        + entities
        + ", accessCount="
        + accessCount
        + ", metadata="
        + metadata
        + (access.isEmpty() ? "" : ", access=" + access)
        + (eventTime == null ? "" : ", eventTime=" + eventTime)
        + "]";
  }
}

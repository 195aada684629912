package dev.mnemo.spi;

import dev.mnemo.MemoryRecord;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Where records live: the embedded Lucene index by default, a distributed engine for scale-out.
 *
 * <p>Contract: thread-safe. {@link #apply} is atomic and durable: when it returns, every change is
 * committed to stable storage and visible to reads, and no reader ever sees part of one call. Every
 * search applies its {@link Eligibility} inside the query. The store knows nothing of supersession
 * or ranking; the engine decides, the store keeps. A store is contract-tested by {@code
 * dev.mnemo.testkit.MemoryStoreContract}.
 */
public interface MemoryStore extends AutoCloseable {

  /** Writes (inserts or replaces by id) and deletes by id, atomically and durably. */
  void apply(List<MemoryRecord> upserts, Collection<String> deleteIds);

  /**
   * {@link #apply} in two steps, so that concurrent writers can share one commit (group commit):
   * when this returns, the changes are visible to this store's reads (all of the call or none of
   * it, as with {@code apply}), and {@link Durable#await} on the result returns once they are
   * durable. The caller acknowledges nothing before {@code await} returns, and must call it (a
   * store may hold resources until then). Reads may see the changes before they are durable; if the
   * commit then fails, {@code await} throws and the store refuses writes until it is reopened (what
   * a failed {@code apply} does). The default applies durably at once.
   */
  default Durable applyVisible(List<MemoryRecord> upserts, Collection<String> deleteIds) {
    apply(upserts, deleteIds);
    return Durable.DONE;
  }

  /** Changes made visible by {@link #applyVisible}, durable once {@link #await} returns. */
  @FunctionalInterface
  interface Durable {
    /** Already durable. */
    Durable DONE = () -> {};

    /**
     * Returns once the changes are durable; throws (a {@link dev.mnemo.MnemoException}) if they
     * cannot be made so, and then they were never acknowledged.
     */
    void await();
  }

  /** The record with that id of that owner, if any. */
  Optional<MemoryRecord> get(String owner, String id);

  /** Every version ever stored of the owner's fact key, expired or not. */
  List<MemoryRecord> versions(String owner, String factKey);

  /** Records of the owner with that id, or whose {@code origin} is that id. */
  List<MemoryRecord> lineage(String owner, String id);

  /**
   * Eligible candidates from every signal the query asks for, deduplicated by id, with statistics.
   */
  CandidateSet candidates(CandidateQuery query);

  /**
   * The same candidates as {@link #candidates(CandidateQuery)} for {@code query} with the vector
   * {@code vector} supplies, which may still be being computed (the engine embeds the query while
   * the store works): a store may run the signals that need no vector (BM25, entities, time) before
   * it asks for it. {@code vector.get()} may block, may be called more than once (it returns the
   * same vector), and may return null (no dense signal); {@code query.vector()} is ignored. The
   * default asks for the vector first.
   */
  default CandidateSet candidates(
      CandidateQuery query, java.util.function.Supplier<float[]> vector) {
    return candidates(query.withVector(vector.get()));
  }

  /** Eligible records, most recently recorded first. */
  List<MemoryRecord> latest(Eligibility eligibility, int limit);

  /** Deletes every record of the owner (all versions and vectors); returns how many. Durable. */
  int deleteOwner(String owner);

  /**
   * Calls {@code sink} with every record of the owner (or of all owners when null), all versions.
   */
  void export(String owner, Consumer<MemoryRecord> sink);

  /**
   * Every record of the owner (all versions) that names at least one of {@code sourceIds} among its
   * sources. The write path uses it to find what a turn already became. The default scans {@link
   * #export}; a store with an index on sources should override it.
   */
  default List<MemoryRecord> bySources(String owner, Collection<String> sourceIds) {
    java.util.Set<String> wanted = new java.util.HashSet<>(sourceIds);
    List<MemoryRecord> out = new java.util.ArrayList<>();
    if (wanted.isEmpty()) return out;
    export(
        owner,
        r -> {
          for (String s : r.sources()) {
            if (wanted.contains(s)) {
              out.add(r);
              return;
            }
          }
        });
    return out;
  }

  /**
   * The durable turn log this store keeps beside its records, if any; the store closes it and
   * {@link #deleteOwner} need not touch it (the engine forgets an owner in both). Empty by default:
   * the engine then uses the turn log its builder was given.
   */
  default Optional<TurnLog> turnLog() {
    return Optional.empty();
  }

  /**
   * The id of the embedding model whose vectors this store holds (as recorded by its last write),
   * or empty when it holds none or does not track it. The engine refuses to open over a store whose
   * model differs from its embedder's: one index must never mix vector spaces. Empty by default.
   */
  default Optional<String> embeddingModel() {
    return Optional.empty();
  }

  /**
   * The durable retrieval log this store keeps beside its records, if any; the store closes it.
   * Empty by default: the engine then logs to the log its builder was given, or not at all.
   */
  default Optional<RecallLog> recallLog() {
    return Optional.empty();
  }

  /**
   * How many records pass the eligibility filter (the retrieval log counts what eligibility
   * removed). The default lists them through {@link #latest}; a store that can count should
   * override it.
   */
  default long count(Eligibility eligibility) {
    return latest(eligibility, Integer.MAX_VALUE).size();
  }

  /**
   * The store's state as a short string that changes with every commit (a generation), or null if
   * unknown.
   */
  default String state() {
    return null;
  }

  /** Number of records (all versions) stored. */
  long count();

  @Override
  void close();
}

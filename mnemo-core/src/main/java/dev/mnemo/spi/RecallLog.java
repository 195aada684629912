package dev.mnemo.spi;

import dev.mnemo.LoggedRecall;
import dev.mnemo.RecallLogQuery;
import dev.mnemo.RecallStats;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * The durable retrieval log of one store (one tenant): every logged recall, searchable by owner,
 * time, outcome, text and record, and forgettable with the records it shows.
 *
 * <p>Its own SPI, like {@link TurnLog}: a store that keeps one offers it through {@link
 * MemoryStore#recallLog()} (the Lucene store keeps it in a third index beside its own). Contract:
 * thread-safe; every change is durable on return; {@link #deleteOwner} and {@link #forget} leave no
 * copy of what they remove in the log's files. The engine writes it from one thread.
 */
public interface RecallLog extends AutoCloseable {

  /** Stores the entries (replacing one of the same id), atomically and durably. */
  void append(List<LoggedRecall> entries);

  /** The entry with that id. */
  Optional<LoggedRecall> get(String id);

  /** Entries matching the query, newest first, paged. */
  List<LoggedRecall> search(RecallLogQuery query);

  /** How many entries match the query (ignoring its paging). */
  long count(RecallLogQuery query);

  /** The rates over the entries matching the query (ignoring its paging); {@code dropped} is 0. */
  RecallStats stats(RecallLogQuery query);

  /**
   * Adds {@code ids} to the used ids of the owner's newest entry (at or before {@code at}) that
   * selected any of them; returns whether one was found.
   */
  boolean markUsed(String owner, Collection<String> ids, Instant at);

  /** Deletes every entry of the owner, physically; returns how many. */
  int deleteOwner(String owner);

  /**
   * Removes the records {@code ids} of the owner from every entry that shows them, physically;
   * returns the entries changed.
   */
  int forget(String owner, Collection<String> ids);

  /** Deletes entries logged before {@code cutoff} (retention); returns how many. */
  int deleteBefore(Instant cutoff);

  /** Bytes of the log's files. */
  long sizeBytes();

  @Override
  void close();
}

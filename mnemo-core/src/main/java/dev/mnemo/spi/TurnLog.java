package dev.mnemo.spi;

import dev.mnemo.StoredTurn;
import dev.mnemo.StoredTurn.State;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The durable log of ingested turns, beside the memories: the write path's queue (turns in state
 * {@code pending}) and the originals a record's sources name.
 *
 * <p>Its own small SPI rather than more methods on {@link MemoryStore}, so that any store works
 * with any turn log: a store that keeps one offers it through {@link MemoryStore#turnLog()} (the
 * Lucene store keeps it in a second index beside its own), and {@code Mnemo.Builder.turnLog} sets
 * one explicitly. Contract: thread-safe; {@link #append} and {@link #update} are atomic and durable
 * on return; a turn is identified by its owner and {@code id}.
 */
public interface TurnLog extends AutoCloseable {

  /**
   * Stores the entries whose (owner, id) is not stored yet, in order, each with the next sequence
   * number (the entries' own {@code seq} is ignored); an (owner, id) already stored is left as it
   * is. Atomic and durable on return.
   *
   * @return the entries newly stored, with their sequence numbers
   */
  List<StoredTurn> append(List<StoredTurn> entries);

  /**
   * Replaces the state and note of stored entries (matched by owner and id). Atomic and durable.
   */
  void update(List<StoredTurn> entries);

  /** The entry of that owner and turn event id. */
  Optional<StoredTurn> get(String owner, String id);

  /** The entries of that owner with these event ids, in log order; unknown ids are skipped. */
  List<StoredTurn> getAll(String owner, Collection<String> ids);

  /** Every attempt at the owner's logical turn {@code turnId}, in log order. */
  List<StoredTurn> attempts(String owner, String turnId);

  /** Up to {@code limit} pending entries of all owners, oldest first. */
  List<StoredTurn> pending(int limit);

  /** Calls {@code sink} with every entry of the owner (all owners when null), in log order. */
  void export(String owner, Consumer<StoredTurn> sink);

  /**
   * Deletes every entry of the owner, durably and physically (no copy left in the log's files);
   * returns how many.
   */
  int deleteOwner(String owner);

  /** Deletes these entries of the owner (retention); returns how many. Durable. */
  int delete(String owner, Collection<String> ids);

  /** How many entries are in each state. */
  Map<State, Long> counts();

  @Override
  void close();
}

package dev.mnemo;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * What a {@link Mnemo} that holds its data itself offers beyond remembering and recalling: the turn
 * log read whole (one turn's state, every turn of an owner), restoring an export of another store
 * (records and turns, as they were) and retention. Reached through {@link Mnemo#maintenance()}: an
 * embedded engine has it; a remote client, whose server serves none of these, has not.
 *
 * <p>Thread-safe as the {@link Mnemo} it came from; valid until that is closed.
 */
public interface Maintenance {

  /** One ingested turn event of the owner, with its state in the turn log. */
  Optional<StoredTurn> turn(String owner, String id);

  /** Streams every turn of the owner (all owners when null) from the turn log, in log order. */
  void exportTurns(String owner, Consumer<StoredTurn> sink);

  /**
   * Restores exported turns with their states (an export of another store): turns already stored
   * (same owner and id) are skipped; pending ones are extracted. Returns how many were stored.
   */
  int importTurns(List<StoredTurn> turns);

  /**
   * Restores exported records as they were (ids, versions, expiry, sources), replacing records of
   * the same id: the other half of restoring an owner from {@link Mnemo#export} and {@link
   * #exportTurns}. Records without a vector of the configured embedder are embedded again. Every
   * record is checked first (owner, text, times); with any invalid, nothing is written. Returns how
   * many were written. Durable on return.
   */
  int restore(List<MemoryRecord> records);

  /**
   * Applies retention policies to the owner's current records (a category without a policy keeps
   * everything): a dropped record is expired, not deleted, so history and {@code known_at} still
   * show it; {@link Mnemo#forget} deletes. Turns older than {@code turnMaxAge} (null: keep) that no
   * record names any more are deleted from the turn log. Safe to interrupt: it works in small
   * atomic batches and each decision depends only on the record and {@code now} (null: the
   * clock's), so running it again finishes the job.
   */
  RetentionReport retain(
      String owner, Map<Category, RetentionPolicy> policies, Duration turnMaxAge, Instant now);
}

package dev.mnemo.internal;

import dev.mnemo.InputRules;
import dev.mnemo.InvalidRequestException;
import dev.mnemo.MemoryRecord;
import dev.mnemo.spi.MemoryStore;
import dev.mnemo.spi.TurnLog;
import java.util.ArrayList;
import java.util.List;

/**
 * Forgetting: an owner (every version, vector, turn and retrieval-log entry) or one record with its
 * lineage (its clipped copies), everywhere the engine keeps them. Apart from {@link Engine} because
 * erasure has rules of its own: it reaches the store, the turn log, the summaries derived from what
 * is forgotten and the retrieval log; and it accepts an owner every other call refuses, when the
 * store holds records under it (written before the safe character set was enforced: it must stay
 * erasable).
 */
final class Forgetting {
  private final MemoryStore store;
  private final TurnLog turnLog;
  private final WriteLocks locks;
  private final Summaries summaries;
  private final EngineRetrievalLog recallLog;

  Forgetting(
      MemoryStore store,
      TurnLog turnLog,
      WriteLocks locks,
      Summaries summaries,
      EngineRetrievalLog recallLog) {
    this.store = store;
    this.turnLog = turnLog;
    this.locks = locks;
    this.summaries = summaries;
    this.recallLog = recallLog;
  }

  /** Deletes the owner's records and turns (every version, vector, turn and error artifact). */
  int owner(String owner) {
    requireErasableOwner(owner);
    WriteLocks.Held held = locks.owner(owner);
    try {
      int n = store.deleteOwner(owner);
      turnLog.deleteOwner(owner);
      recallLog.forget(owner, null);
      return n;
    } finally {
      held.release();
    }
  }

  /** Deletes one record with its lineage; the summaries it was a source of follow. */
  int record(String owner, String id) {
    requireErasableOwner(owner);
    WriteLocks.Held held = locks.owner(owner);
    try {
      List<MemoryRecord> lineage = store.lineage(owner, id);
      List<String> ids = lineage.stream().map(MemoryRecord::id).toList();
      if (!ids.isEmpty()) {
        store.apply(List.of(), ids);
        summaries.followSources(List.of(), lineage);
      }
      // also a record no longer in the store (forgotten before) may still be shown by the log
      List<String> gone = new ArrayList<>(ids);
      if (id != null && !gone.contains(id)) gone.add(id);
      recallLog.forget(owner, gone);
      return ids.size();
    } finally {
      held.release();
    }
  }

  /**
   * Forgetting needs only a non-blank owner: an owner written before the safe character set was
   * enforced must stay erasable.
   */
  private static void requireAnyOwner(String owner) {
    if (owner == null || owner.isBlank()) {
      throw new InvalidRequestException("owner", owner, "owner must not be blank, was " + owner);
    }
  }

  /**
   * An owner that may be forgotten: a valid one, or one the store holds records of under a name
   * outside the safe set (written before it was enforced: it must stay erasable). Any other unsafe
   * owner (a zero-width space, a control character) is refused as every other call refuses it.
   */
  private void requireErasableOwner(String owner) {
    requireAnyOwner(owner);
    if (InputRules.ownerProblem("owner", owner) == null) return;
    boolean[] stored = {false};
    try {
      store.export(
          owner,
          r -> {
            stored[0] = true;
            throw new FoundOne();
          });
    } catch (FoundOne expected) {
      // one record is enough
    }
    if (!stored[0]) InputRules.requireOwner("owner", owner);
  }

  /** Stops an export at its first record: an existence check through the store's interface. */
  private static final class FoundOne extends RuntimeException {
    private static final long serialVersionUID = 1L;

    FoundOne() {
      super(null, null, false, false);
    }
  }
}

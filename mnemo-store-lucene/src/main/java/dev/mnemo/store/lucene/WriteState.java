package dev.mnemo.store.lucene;

import dev.mnemo.MnemoException;

/**
 * What the writer, the owner mover and a forget share: the store's write lock (this object's
 * monitor, taken with {@code synchronized}), whether a failed write left the store needing a
 * reopen, and the embedding model of the vectors written so far, which every commit records.
 */
final class WriteState {
  /** Set after a failed write, commit or move; writes are then refused until a reopen. */
  volatile boolean failed;

  /**
   * The embedding model of the vectors in the indexes, kept in the commit data; null when none was
   * written.
   */
  volatile String embeddingModel;

  WriteState(String embeddingModel) {
    this.embeddingModel = embeddingModel;
  }

  /** Refuses a write when an earlier one failed. */
  void checkWritable() {
    if (failed) {
      throw new MnemoException(
          "the store was rolled back to its last commit after a failed write; reopen it", false);
    }
  }
}

/**
 * Mnemo's public API: {@link dev.mnemo.Mnemo} (built by {@link dev.mnemo.Mnemo#builder()})
 * remembers, recalls, ingests conversation turns and forgets, per owner. The records it keeps
 * ({@link dev.mnemo.MemoryRecord}, written from a {@link dev.mnemo.NewMemory}), the requests and
 * results of a recall ({@link dev.mnemo.RecallRequest}, {@link dev.mnemo.RecallResult} with its
 * {@link dev.mnemo.RecallTrace}), the turns of the write path ({@link dev.mnemo.Turn}, {@link
 * dev.mnemo.StoredTurn}) and the error model ({@link dev.mnemo.MnemoException}, {@link
 * dev.mnemo.InvalidRequestException} naming each invalid field) live here, with the facets a {@link
 * dev.mnemo.Mnemo} may lack ({@link dev.mnemo.Maintenance}, {@link dev.mnemo.RetrievalLog}, {@link
 * dev.mnemo.Diagnostics}), each reached as an {@code Optional}. The algorithms are described in
 * docs/read-path.md and docs/write-path.md.
 */
package dev.mnemo;

package dev.mnemo.testkit;

import dev.mnemo.spi.MemoryStore;
import java.nio.file.Path;

/**
 * The behaviour every {@link MemoryStore} must show under the engine, so that stores cannot drift:
 * round trips, eligibility, every temporal mode, supersession with clipped versions, conflicts,
 * budget, forgetting, usage feedback, restart, bad input and determinism. Extend it and implement
 * {@link #openStore(Path)}; {@link #reopenable()} says whether the store keeps data across a close.
 *
 * <p>The tests are in themed parts, a chain of package-private classes this one ends, each a file
 * of its own: {@code RecordsContract} (round trips, isolation, forgetting, bad input, restart),
 * {@code RecallContract} (budget, threshold, packing, fusion, candidates), {@code
 * EligibilityContract} (scopes, access labels, filters, every search against {@link
 * dev.mnemo.spi.Eligibility#admits}), {@code VersionsContract} (corrections, supersession,
 * authority, conflicts, concurrent writers) and {@code StoreContractBase} (the fixture and helpers:
 * {@link #dir}, {@link #clock}, {@link #mnemo}, {@link #store()}, {@link #recall}).
 */
public abstract class MemoryStoreContract extends RecordsContract {}

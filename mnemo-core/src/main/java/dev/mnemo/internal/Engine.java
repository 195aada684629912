package dev.mnemo.internal;

import dev.mnemo.InvalidRequestException;
import dev.mnemo.MemoryRecord;
import dev.mnemo.Mnemo;
import dev.mnemo.NewMemory;
import dev.mnemo.RecallRequest;
import dev.mnemo.RecallResult;
import dev.mnemo.spi.Embedder;
import dev.mnemo.spi.MemoryStore;
import dev.mnemo.spi.Tokenizer;
import java.time.Instant;
import java.time.InstantSource;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The engine behind {@link Mnemo}: one write lock for the write path (so that supersession plans
 * against a consistent store), lock-free reads. Built by {@link Mnemo.Builder}; not public API.
 */
public final class Engine implements Mnemo {
  private final MemoryStore store;
  private final Embedder embedder;
  private final Tokenizer tokenizer;
  private final InstantSource clock;
  private final WritePath writes;
  private final ReadPath reads;
  private final Object writeLock = new Object();

  public Engine(MemoryStore store, Embedder embedder, Tokenizer tokenizer, InstantSource clock, ZoneId zone,
      int maxTextChars) {
    this.store = Objects.requireNonNull(store, "store");
    this.embedder = embedder;
    this.tokenizer = Objects.requireNonNull(tokenizer, "tokenizer");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.writes = new WritePath(store, embedder, clock, maxTextChars);
    this.reads = new ReadPath(store, embedder, tokenizer, clock, zone);
  }

  /** The store, for evaluation baselines and tools that need it directly. */
  public MemoryStore store() {
    return store;
  }

  /** The embedder, or null. */
  public Embedder embedder() {
    return embedder;
  }

  public Tokenizer tokenizer() {
    return tokenizer;
  }

  @Override
  public MemoryRecord remember(NewMemory memory) {
    return writes.write(java.util.Collections.singletonList(memory), true, writeLock).get(0);
  }

  @Override
  public List<MemoryRecord> rememberAll(List<NewMemory> memories) {
    return writes.write(memories, false, writeLock);
  }

  @Override
  public List<InvalidRequestException.Violation> validate(NewMemory memory, String fieldPrefix) {
    return writes.validate(memory, fieldPrefix == null ? "" : fieldPrefix);
  }

  @Override
  public RecallResult recall(RecallRequest request) {
    Objects.requireNonNull(request, "request");
    return reads.recall(request);
  }

  @Override
  public List<MemoryRecord> history(String owner, String factKey) {
    requireOwner(owner);
    if (factKey == null || factKey.isBlank()) {
      throw new InvalidRequestException("fact_key", factKey, "fact_key must not be blank, was " + factKey);
    }
    List<MemoryRecord> out = new ArrayList<>(store.versions(owner, factKey));
    out.sort(Comparator.comparing(MemoryRecord::recordedAt).thenComparing(MemoryRecord::validFrom)
        .thenComparing(MemoryRecord::id));
    return out;
  }

  @Override
  public Optional<MemoryRecord> get(String owner, String id) {
    requireOwner(owner);
    return id == null ? Optional.empty() : store.get(owner, id);
  }

  @Override
  public int forget(String owner) {
    requireOwner(owner);
    synchronized (writeLock) {
      return store.deleteOwner(owner);
    }
  }

  @Override
  public int forget(String owner, String id) {
    requireOwner(owner);
    synchronized (writeLock) {
      List<String> ids = store.lineage(owner, id).stream().map(MemoryRecord::id).toList();
      if (!ids.isEmpty()) store.apply(List.of(), ids);
      return ids.size();
    }
  }

  @Override
  public int markUsed(String owner, Collection<String> ids) {
    requireOwner(owner);
    Instant now = clock.instant();
    synchronized (writeLock) {
      List<MemoryRecord> updated = new ArrayList<>();
      for (String id : new LinkedHashSet<>(ids)) {
        store.get(owner, id).ifPresent(r -> updated.add(r.withUsage(r.accessCount() + 1, now)));
      }
      if (!updated.isEmpty()) store.apply(updated, List.of());
      return updated.size();
    }
  }

  @Override
  public void export(String owner, Consumer<MemoryRecord> sink) {
    store.export(owner, sink);
  }

  @Override
  public void close() {
    try {
      store.close();
    } finally {
      if (embedder != null) embedder.close();
    }
  }

  private static void requireOwner(String owner) {
    if (owner == null || owner.isBlank()) {
      throw new InvalidRequestException("owner", owner, "owner must not be blank, was " + owner);
    }
  }
}

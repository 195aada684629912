package dev.mnemo.internal;

import dev.mnemo.Category;
import dev.mnemo.IngestReceipt;
import dev.mnemo.InvalidRequestException;
import dev.mnemo.MemoryRecord;
import dev.mnemo.Mnemo;
import dev.mnemo.NewMemory;
import dev.mnemo.RecallRequest;
import dev.mnemo.RecallResult;
import dev.mnemo.Turn;
import dev.mnemo.spi.Consolidator;
import dev.mnemo.spi.Embedder;
import dev.mnemo.spi.Extractor;
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
  private final ZoneId zone;
  private final Extractor extractor;
  private final Consolidator consolidator;

  public Engine(MemoryStore store, Embedder embedder, Tokenizer tokenizer, InstantSource clock, ZoneId zone,
      int maxTextChars) {
    this(store, embedder, tokenizer, clock, zone, maxTextChars, null, null);
  }

  /** With an extractor and a consolidator for {@link #ingest} (either may be null: the built-in rules). */
  public Engine(MemoryStore store, Embedder embedder, Tokenizer tokenizer, InstantSource clock, ZoneId zone,
      int maxTextChars, Extractor extractor, Consolidator consolidator) {
    this.zone = zone;
    this.extractor = extractor;
    this.consolidator = consolidator;
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

  /**
   * The first, synchronous write path: every complete user or assistant turn becomes one episodic
   * memory (text prefixed with the speaker, source = the turn id, valid and recorded at the turn's
   * time); system messages, tool calls, tool results and partial or failed generations are not
   * memories. Turns are validated as a batch first: one invalid turn refuses the batch.
   */
  @Override
  public IngestReceipt ingest(List<Turn> turns) {
    Objects.requireNonNull(turns, "turns");
    List<InvalidRequestException.Violation> bad = new ArrayList<>();
    for (int i = 0; i < turns.size(); i++) bad.addAll(validateTurn(turns.get(i), "turns[" + i + "]."));
    if (!bad.isEmpty()) throw new InvalidRequestException(bad);
    List<NewMemory> memories = new ArrayList<>();
    if (extractor != null) {
      java.util.Map<String, List<Turn>> byOwner = new java.util.LinkedHashMap<>();
      for (Turn t : turns) {
        if (t.isMessage() && t.status() == Turn.Status.COMPLETE) byOwner.computeIfAbsent(t.owner(), o -> new ArrayList<>()).add(t);
      }
      byOwner.forEach((owner, ts) -> memories.addAll(extractor.extract(new Extractor.Batch(owner, List.of(), ts, zone))));
      List<MemoryRecord> stored = memories.isEmpty() ? List.of() : rememberAll(memories);
      return new IngestReceipt(turns.stream().map(Turn::id).toList(), List.of(), 0, stored);
    }
    for (Turn t : turns) {
      if ((t.role() != Turn.Role.USER && t.role() != Turn.Role.ASSISTANT) || t.status() != Turn.Status.COMPLETE) continue;
      String text = t.speaker() == null || t.speaker().isBlank() ? t.text() : t.speaker() + ": " + t.text();
      NewMemory.Builder b = NewMemory.builder(t.owner(), text).category(Category.EPISODIC).source(t.id())
          .recordedAt(t.at()).validFrom(t.at());
      if (t.speaker() != null && !t.speaker().isBlank()) b.metadata(java.util.Map.of("speaker", t.speaker()));
      if (t.episode() != null) b.episode(t.episode(), memories.size());
      memories.add(b.build());
    }
    List<MemoryRecord> stored = memories.isEmpty() ? List.of() : rememberAll(memories);
    return new IngestReceipt(turns.stream().map(Turn::id).toList(), List.of(), 0, stored);
  }

  static List<InvalidRequestException.Violation> validateTurn(Turn t, String path) {
    List<InvalidRequestException.Violation> v = new ArrayList<>();
    if (t == null) {
      v.add(new InvalidRequestException.Violation(path.substring(0, path.length() - 1), null, path + " must not be null"));
      return v;
    }
    if (t.id() == null || t.id().isBlank()) v.add(new InvalidRequestException.Violation(path + "id", t.id(), path + "id must not be blank"));
    if (t.owner() == null || t.owner().isBlank()) v.add(new InvalidRequestException.Violation(path + "owner", t.owner(), path + "owner must not be blank"));
    if (t.text() == null || t.text().isBlank()) v.add(new InvalidRequestException.Violation(path + "text", t.text(), path + "text must not be blank"));
    if (t.attempt() < 1) v.add(new InvalidRequestException.Violation(path + "attempt", t.attempt(), path + "attempt must be >= 1, was " + t.attempt()));
    return v;
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

package dev.mnemo.internal;

import dev.mnemo.Access;
import dev.mnemo.Authority;
import dev.mnemo.Category;
import dev.mnemo.ConflictPolicy;
import dev.mnemo.InputRules;
import dev.mnemo.InvalidRequestException;
import dev.mnemo.InvalidRequestException.Violation;
import dev.mnemo.LowerAuthority;
import dev.mnemo.MemoryRecord;
import dev.mnemo.NewMemory;
import dev.mnemo.spi.CandidateQuery;
import dev.mnemo.spi.Eligibility;
import dev.mnemo.spi.Embedder;
import dev.mnemo.spi.MemoryStore;
import dev.mnemo.text.Entities;
import dev.mnemo.text.Words;
import dev.mnemo.write.SameFact;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.Supplier;

/**
 * The write path for explicit records: validate, enrich (entities, embedding), resolve against the
 * owner's versions of the same fact key (supersession over valid-time intervals), commit.
 *
 * <p>Supersession: a new record with a fact key and policy {@code supersede} expires, at its own
 * recorded time, every current version of that owner and key whose valid interval overlaps its own;
 * the parts of an expired version's valid interval the new record does not cover are written again
 * as clipped copies (same text and sources, {@code origin} = the expired id), so "what was true in
 * March" stays answerable as known today. A retroactive correction (recorded later, valid from
 * earlier) is the same rule. Planning is pure and happens before any write: an invalid batch writes
 * nothing.
 */
final class WritePath {
  private final MemoryStore store;
  private final Embedder embedder;
  private final InstantSource clock;
  private final int maxTextChars;
  private final Supplier<String> ids;

  /** The zone in which a text's days, months and years start ("last month"): the engine's. */
  private java.time.ZoneId zone = java.time.ZoneOffset.UTC;

  void zone(java.time.ZoneId z) {
    this.zone = java.util.Objects.requireNonNull(z, "zone");
  }

  /** Candidates per signal the same-fact rules look at. */
  static final int SAME_FACT_CANDIDATES = 20;

  private final java.util.function.Function<String, List<String>> entityFinder;

  WritePath(MemoryStore store, Embedder embedder, InstantSource clock, int maxTextChars) {
    this(store, embedder, clock, maxTextChars, Entities::extract);
  }

  /**
   * @param entityFinder the names of a record's text (default {@link Entities#extract})
   */
  WritePath(
      MemoryStore store,
      Embedder embedder,
      InstantSource clock,
      int maxTextChars,
      java.util.function.Function<String, List<String>> entityFinder) {
    this.entityFinder = entityFinder;
    this.store = store;
    this.embedder = embedder;
    this.clock = clock;
    this.maxTextChars = maxTextChars;
    this.ids = () -> UUID.randomUUID().toString();
  }

  /**
   * Told every batch of records a write applied (new versions and the versions it expired), under
   * the write locks of their owners.
   */
  private java.util.function.Consumer<List<MemoryRecord>> applied = all -> {};

  void onApplied(java.util.function.Consumer<List<MemoryRecord>> listener) {
    this.applied = java.util.Objects.requireNonNull(listener, "listener");
  }

  /** Validates every item, then plans and applies the batch under its owners' write locks. */
  List<MemoryRecord> write(List<NewMemory> batch, boolean single, WriteLocks locks) {
    if (batch == null)
      throw new InvalidRequestException("memories", null, "memories must not be null");
    if (batch.isEmpty()) return List.of();
    Instant now = clock.instant();
    List<Violation> violations = new ArrayList<>();
    for (int i = 0; i < batch.size(); i++) {
      validate(batch.get(i), single ? "" : "memories[" + i + "].", now, violations);
    }
    if (!violations.isEmpty()) throw new InvalidRequestException(violations);

    List<float[]> vectors = embed(batch);
    List<MemoryRecord> created = new ArrayList<>();
    MemoryStore.Durable durable;
    // Planning reads the owner's versions, so it and the write that makes its records visible are
    // serialized per owner (writes of other owners plan at the same time); durability is awaited
    // outside the lock, where concurrent writers share one sync (MemoryStore.applyVisible).
    // Nothing is returned before it is durable.
    Set<String> owners = new java.util.HashSet<>();
    for (NewMemory m : batch) owners.add(m.owner());
    WriteLocks.Held held = locks.owners(owners);
    try {
      Plan plan = new Plan();
      for (int i = 0; i < batch.size(); i++) {
        Keyed k = plan.sameFact(batch.get(i), vectors == null ? null : vectors.get(i), now);
        created.add(
            plan.add(
                k.memory(), k.vector(), now, single ? "" : "memories[" + i + "].", violations));
      }
      if (!violations.isEmpty()) throw new InvalidRequestException(violations);
      List<MemoryRecord> all = List.copyOf(plan.upserts.values());
      durable = store.applyVisible(all, List.of());
      try {
        applied.accept(all);
      } catch (RuntimeException e) {
        durable.await();
        throw e;
      }
    } finally {
      held.release();
    }
    durable.await();
    return created;
  }

  /**
   * A batch of changes built step by step and committed in one atomic {@link MemoryStore#apply}:
   * the ingest pipeline's consolidation adds candidates and changes existing records (merged
   * sources, a fact key given to a record that gets a new version) and commits them together, so
   * that a batch of turns is either wholly applied or not at all. Used under the owner's write
   * lock.
   */
  final class Session {
    private final Plan plan = new Plan();
    private final Instant now;
    private final List<Violation> violations = new ArrayList<>();

    Session(Instant now) {
      this.now = now;
    }

    /**
     * Plans a new record (supersession by fact key included); null when it is invalid (see {@link
     * #violations}).
     */
    MemoryRecord add(NewMemory m, float[] vector, String prefix) {
      int before = violations.size();
      validate(m, prefix, now, violations);
      if (violations.size() > before) return null;
      MemoryRecord r = plan.add(m, vector, now, prefix, violations);
      return violations.size() > before ? null : r;
    }

    /** Plans a replacement of an existing record by id (same id, changed fields). */
    void put(MemoryRecord r) {
      plan.put(r);
    }

    /** The record as this session would leave it: planned changes first, then the store. */
    java.util.Optional<MemoryRecord> current(String owner, String id) {
      MemoryRecord staged = plan.upserts.get(id);
      return staged != null ? java.util.Optional.of(staged) : store.get(owner, id);
    }

    /** Every record planned so far. */
    java.util.Collection<MemoryRecord> staged() {
      return java.util.Collections.unmodifiableCollection(plan.upserts.values());
    }

    List<Violation> violations() {
      return violations;
    }

    Instant now() {
      return now;
    }

    /** Writes every planned change in one atomic, durable call; returns them. */
    List<MemoryRecord> commit() {
      List<MemoryRecord> all = List.copyOf(plan.upserts.values());
      if (!all.isEmpty()) {
        store.apply(all, List.of());
        applied.accept(all);
      }
      return all;
    }
  }

  Session session() {
    return new Session(clock.instant());
  }

  List<float[]> embed(List<NewMemory> batch) {
    if (embedder == null) return null;
    List<String> inputs = new ArrayList<>(batch.size());
    // The text is embedded, after its fact key's words (Words.withFactKey: the attribute the record
    // states, docs/read-path.md "Dense"); the context (neighbouring turns) is indexed for BM25
    // alone.
    // Measured on the LoCoMo dev split: embedding turn + neighbours as one text diluted the turn
    // (dense evidence recall@10 0.710 -> 0.653) while BM25 over the context at 0.2 weight gained.
    for (NewMemory m : batch) inputs.add(Words.withFactKey(m.factKey(), m.text()));
    return embedPassages(inputs);
  }

  /** The embedder's vectors of {@code inputs}, one each (else an error naming the embedder). */
  private List<float[]> embedPassages(List<String> inputs) {
    List<float[]> out = embedder.embedPassages(inputs);
    if (out.size() != inputs.size()) {
      throw new IllegalStateException(
          "embedder "
              + embedder.modelId()
              + " returned "
              + out.size()
              + " vectors for "
              + inputs.size()
              + " texts");
    }
    return out;
  }

  List<Violation> validate(NewMemory m, String prefix) {
    List<Violation> v = new ArrayList<>();
    validate(m, prefix, clock.instant(), v);
    return v;
  }

  private void validate(NewMemory m, String p, Instant now, List<Violation> v) {
    if (m == null) {
      v.add(
          new Violation(
              p.isEmpty() ? "memory" : p.substring(0, p.length() - 1),
              null,
              p + "memory must not be null"));
      return;
    }
    // Owner, times a store can represent, key lengths: the checks every door shares (InputRules).
    InputRules.checkMemory(m, p, now, v);
    if (m.text() == null || m.text().isBlank()) {
      v.add(new Violation(p + "text", m.text(), p + "text must not be empty, was " + q(m.text())));
    } else if (m.text().length() > maxTextChars) {
      v.add(
          new Violation(
              p + "text",
              m.text().length(),
              p
                  + "text must be at most "
                  + maxTextChars
                  + " characters, was "
                  + m.text().length()));
    }
    if (m.context() != null && m.context().length() > 4 * maxTextChars) {
      v.add(
          new Violation(
              p + "context",
              m.context().length(),
              p
                  + "context must be at most "
                  + 4 * maxTextChars
                  + " characters, was "
                  + m.context().length()));
    }
    if (m.importance() != null && !(m.importance() >= 0 && m.importance() <= 1)) {
      v.add(
          new Violation(
              p + "importance",
              m.importance(),
              p + "importance must be between 0 and 1, was " + m.importance()));
    }
    if (m.factKey() != null && m.factKey().isBlank()) {
      v.add(
          new Violation(
              p + "fact_key",
              m.factKey(),
              p + "fact_key must not be blank when given, was " + q(m.factKey())));
    }
    if (m.scope() != null && m.scope().isBlank()) {
      v.add(
          new Violation(
              p + "scope",
              m.scope(),
              p + "scope must not be blank when given, was " + q(m.scope())));
    }
    if (m.seq() != null && m.seq() < 0) {
      v.add(new Violation(p + "seq", m.seq(), p + "seq must be >= 0, was " + m.seq()));
    }
    Instant recorded = m.recordedAt() == null ? now : m.recordedAt();
    Instant from = m.validFrom() == null ? recorded : m.validFrom();
    if (m.validTo() != null && InputRules.representable(from) && !m.validTo().isAfter(from)) {
      v.add(
          new Violation(
              p + "valid_to",
              m.validTo(),
              p + "valid_to must be after valid_from (" + from + "), was " + m.validTo()));
    }
    for (int i = 0; i < m.sources().size(); i++) {
      String s = m.sources().get(i);
      if (s == null || s.isBlank()) {
        v.add(
            new Violation(
                p + "sources[" + i + "]",
                s,
                p + "sources[" + i + "] must not be blank, was " + q(s)));
      }
    }
    for (var e : m.metadata().entrySet()) {
      if (e.getKey().isBlank() || e.getValue() == null) {
        v.add(
            new Violation(
                p + "metadata",
                e.getKey(),
                p
                    + "metadata keys must not be blank and values not null, was "
                    + q(e.getKey())
                    + "="
                    + q(e.getValue())));
      }
    }
  }

  private static String q(Object s) {
    return s == null ? "null" : "'" + s + "'";
  }

  /** A record to plan and the vector to store with it. */
  record Keyed(NewMemory memory, float[] vector) {}

  /** The changes one batch makes, built item by item against the store plus the batch so far. */
  private final class Plan {
    /** Everything to write, by id, in order; later changes to the same id replace earlier ones. */
    final Map<String, MemoryRecord> upserts = new LinkedHashMap<>();

    /** Versions of each (owner, fact key), loaded once, updated as the batch goes. */
    private final Map<String, Map<String, MemoryRecord>> versions = new HashMap<>();

    void put(MemoryRecord r) {
      if (r.factKey() != null) versionsOf(r.owner(), r.factKey()).put(r.id(), r);
      upserts.put(r.id(), r);
    }

    private Map<String, MemoryRecord> versionsOf(String owner, String factKey) {
      return versions.computeIfAbsent(
          owner + "\u0000" + factKey,
          k -> {
            Map<String, MemoryRecord> map = new LinkedHashMap<>();
            for (MemoryRecord r : store.versions(owner, factKey))
              map.put(r.id(), upserts.getOrDefault(r.id(), r));
            return map;
          });
    }

    /** The note of the same-fact rule that gave the next record its derived fact key, or null. */
    private String sameFactNote;

    /** The event time read for {@link #eventFor} (by {@link #sameFact}), so it is read once. */
    private NewMemory eventFor;

    private java.util.Optional<dev.mnemo.write.EventTimes.Found> event;

    private java.util.Optional<dev.mnemo.write.EventTimes.Found> eventOf(
        NewMemory m, Instant recorded) {
      if (eventFor != m) {
        eventFor = m;
        event = dev.mnemo.write.EventTimes.find(m.text(), recorded, zone);
      }
      return event;
    }

    /**
     * Conflicts without a fact key: a record without one (and not an episode) that restates or
     * contradicts a current non-episodic record of the owner ({@link SameFact}: subject +
     * attribute, near-duplicate text) gets that record's fact key, or {@code auto/<its id>}, which
     * the matched record then carries too; the rules of {@link #add} then apply (newer wins, or
     * both are kept with policy {@code keep_both}). Candidates: the owner's current records the
     * store finds for the text (BM25, dense, {@value #SAME_FACT_CANDIDATES} per signal) and the
     * batch's own, newest first; the first that matches decides.
     */
    Keyed sameFact(NewMemory m, float[] vector, Instant now) {
      sameFactNote = null;
      Keyed unchanged = new Keyed(m, vector);
      if (m == null
          || m.factKey() != null
          || m.owner() == null
          || m.text() == null
          || m.category() == Category.EPISODIC) {
        return unchanged;
      }
      Instant recorded = millis(m.recordedAt() == null ? now : m.recordedAt());
      List<MemoryRecord> pool = new ArrayList<>();
      List<MemoryRecord> staged = new ArrayList<>(upserts.values());
      java.util.Collections.reverse(staged);
      pool.addAll(staged);
      Eligibility current =
          new Eligibility(m.owner(), m.scope(), Set.of(), Map.of(), recorded, recorded, null);
      for (var c :
          store
              .candidates(
                  new CandidateQuery(
                      current, vector, m.text(), Set.of(), null, SAME_FACT_CANDIDATES))
              .candidates()) {
        pool.add(upserts.getOrDefault(c.record().id(), c.record()));
      }
      Set<String> seen = new java.util.HashSet<>();
      for (MemoryRecord r : pool) {
        // A record under other access labels is another audience's statement: never the same fact.
        if (!seen.add(r.id())
            || !r.owner().equals(m.owner())
            || r.expiredAt() != null
            || !r.access().equals(Access.normalize(m.access()))
            || r.category() == Category.EPISODIC
            || r.recordedAt().isAfter(recorded)
            || !r.validAt(recorded)) {
          continue;
        }
        var match = SameFact.match(m.text(), r.text());
        if (match.isEmpty()) continue;
        String key =
            r.factKey() != null ? r.factKey() : Words.derivedKey(r.id(), match.get().attribute());
        // Both versions are embedded as a keyed fact's are, after the key's words (the attribute:
        // "lives in: I moved to Lisbon last month."), so a question about the attribute finds the
        // version that changed it in other words; one embedder call for the two.
        float[][] keyed = reembed(key, m, r.factKey() == null ? r : null);
        if (keyed[0] != null) vector = keyed[0];
        if (r.factKey() == null) {
          MemoryRecord withKey = Records.with(r, r.sources(), key, r.importance());
          if (keyed[1] != null)
            withKey = Records.withEmbedding(withKey, keyed[1], embedder.modelId());
          put(withKey);
        }
        // Uncertain (a tool without what it is for, a switch from a value no slot names): both
        // stay current and are shown together, dated, unless the writer chose a policy.
        ConflictPolicy policy = m.conflictPolicy();
        boolean keepBoth = !match.get().certain() && policy == null;
        if (keepBoth) policy = ConflictPolicy.KEEP_BOTH;
        // A state that starts at the time the text names ("I moved to Porto last month") holds
        // from then, unless the writer set a valid-from; when that time contains the start of
        // the record it updates, the update cannot be placed before it and starts with it.
        Instant validFrom = m.validFrom();
        String starts = "";
        var ev = eventOf(m, recorded);
        if (validFrom == null
            && match.get().startsState()
            && ev.isPresent()
            && ev.get().time().from().isBefore(recorded)) {
          validFrom = millis(ev.get().time().from());
          if (ev.get().time().contains(r.validFrom()) && r.validFrom().isAfter(validFrom))
            validFrom = r.validFrom();
          starts = "; valid from " + validFrom + " ('" + ev.get().time().phrase() + "')";
        }
        sameFactNote =
            "same fact: "
                + match.get().kind().code()
                + " "
                + r.id()
                + " ("
                + match.get().rule()
                + (match.get().certain() ? "" : ", uncertain")
                + "), fact_key '"
                + key
                + "'"
                + (keepBoth ? "; keep_both: uncertain, kept beside it and shown together" : "")
                + starts;
        NewMemory out = Records.with(Records.with(m, key, policy, m.recordedAt()), validFrom);
        eventFor = out; // the same text: its event time is the one read above
        return new Keyed(out, vector);
      }
      return unchanged;
    }

    /**
     * The vectors of {@code m} and of {@code older} (null: not asked) under {@code key}; nulls
     * where the key has no words (the text-only vector already is the keyed one) or there is no
     * embedder.
     */
    private float[][] reembed(String key, NewMemory m, MemoryRecord older) {
      float[][] out = new float[2][];
      if (embedder == null || Words.factKeyWords(key).isEmpty()) return out;
      List<String> inputs = new ArrayList<>(2);
      inputs.add(Words.withFactKey(key, m.text()));
      if (older != null) inputs.add(Words.withFactKey(key, older.text()));
      List<float[]> vs = embedPassages(inputs);
      out[0] = vs.get(0);
      if (older != null) out[1] = vs.get(1);
      return out;
    }

    MemoryRecord add(
        NewMemory m, float[] vector, Instant now, String p, List<Violation> violations) {
      // Stores keep milliseconds: truncate here so the record returned equals the record stored.
      Instant recorded = millis(m.recordedAt() == null ? now : m.recordedAt());
      var event = eventOf(m, recorded);
      eventFor = null;
      Instant from = m.validFrom() == null ? recorded : millis(m.validFrom());
      Instant to = m.validTo() == null ? null : millis(m.validTo());
      List<String> eventNotes = new ArrayList<>();
      // "has been vegetarian since March": the state's start is the valid-from the writer left out.
      if (m.validFrom() == null
          && event.isPresent()
          && event.get().startsState()
          && event.get().time().from().isBefore(recorded)
          && (to == null || millis(event.get().time().from()).isBefore(to))) {
        from = millis(event.get().time().from());
        eventNotes.add("valid from " + from + " ('" + event.get().time().phrase() + "')");
      }
      Set<String> entities = new LinkedHashSet<>(entityFinder.apply(m.text()));
      for (String e : m.entities()) {
        String k = Entities.normalize(e);
        if (!k.isEmpty()) entities.add(k);
      }
      ConflictPolicy policy =
          m.conflictPolicy() == null ? ConflictPolicy.SUPERSEDE : m.conflictPolicy();
      Authority authority = m.authority() == null ? Authority.EXPLICIT : m.authority();
      String id = ids.get();
      int version = 0;
      List<MemoryRecord> changes = new ArrayList<>();
      List<String> notes = new ArrayList<>();
      if (sameFactNote != null) notes.add(sameFactNote);
      notes.addAll(eventNotes);
      sameFactNote = null;
      if (m.factKey() != null) {
        Map<String, MemoryRecord> known = versionsOf(m.owner(), m.factKey());
        Instant latest =
            known.values().stream()
                .map(MemoryRecord::recordedAt)
                .max(Comparator.naturalOrder())
                .orElse(null);
        if (latest != null && recorded.isBefore(latest)) {
          violations.add(
              new Violation(
                  p + "recorded_at",
                  recorded,
                  p
                      + "recorded_at must not precede the latest recorded "
                      + "version of fact_key '"
                      + m.factKey()
                      + "' ("
                      + latest
                      + "), was "
                      + recorded
                      + "; transaction time only moves forward (use valid_from for a retroactive correction)"));
          return null;
        }
        version = known.values().stream().mapToInt(MemoryRecord::version).max().orElse(0) + 1;
        // Versions under other access labels are another audience's: this record neither ends,
        // clips nor conflicts with them (a caller who sees only one of them keeps a current
        // answer).
        List<String> access = Access.normalize(m.access());
        List<MemoryRecord> current =
            known.values().stream()
                .filter(r -> r.expiredAt() == null && r.access().equals(access))
                .toList();
        if (policy == ConflictPolicy.SUPERSEDE && to == null) {
          // Rule 1, the back-fill: an open-ended version that starts before a current version is
          // history, not a correction; it ends where the earliest such version begins.
          MemoryRecord next = null;
          for (MemoryRecord r : current) {
            if (r.validFrom().isAfter(from)
                && (next == null || r.validFrom().isBefore(next.validFrom()))) next = r;
          }
          if (next != null) {
            to = next.validFrom();
            notes.add(
                "backfill: starts before current version "
                    + next.id()
                    + ", so it ends where that one begins ("
                    + to
                    + ")");
          }
        }
        ConflictPolicy written = policy;
        List<MemoryRecord> replaced = new ArrayList<>();
        for (MemoryRecord old : current) {
          if (!overlaps(old, from, to)) continue;
          if (policy == ConflictPolicy.KEEP_BOTH) {
            notes.add("keep_both: kept beside " + old.id() + " as a conflict (requested)");
            continue;
          }
          if (authority.below(old.authority())) {
            // Rule 2, authority before age: a lower-authority record never supersedes a higher one.
            String why =
                authority.code()
                    + " does not supersede "
                    + old.authority().code()
                    + " version "
                    + old.id()
                    + " of fact_key '"
                    + m.factKey()
                    + "'";
            if (m.lowerAuthority() == LowerAuthority.REFUSE) {
              violations.add(
                  new Violation(
                      p + "authority",
                      authority.code(),
                      p
                          + "authority "
                          + why
                          + " (lower_authority = refuse): write it with authority "
                          + old.authority().code()
                          + " or higher, or with lower_authority keep_both to keep both as a conflict"));
              return null;
            }
            notes.add("authority: " + why + "; kept beside it as a conflict");
            written = ConflictPolicy.KEEP_BOTH;
            continue;
          }
          replaced.add(old);
        }
        for (MemoryRecord old : replaced) {
          changes.add(old.withExpiredAt(recorded));
          String clip =
              "clipped: the part of "
                  + (old.origin() != null ? old.origin() : old.id())
                  + " that version "
                  + id
                  + " did not replace";
          if (old.validFrom().isBefore(from)) {
            changes.add(
                Records.noted(old.clippedCopy(ids.get(), old.validFrom(), from, recorded), clip));
          }
          if (to != null && (old.validTo() == null || old.validTo().isAfter(to))) {
            changes.add(
                Records.noted(old.clippedCopy(ids.get(), to, old.validTo(), recorded), clip));
          }
        }
        if (!replaced.isEmpty()) {
          notes.add(
              (policy == ConflictPolicy.CORRECT ? "correct" : "supersede")
                  + ": replaces "
                  + String.join(", ", replaced.stream().map(MemoryRecord::id).toList())
                  + " for the overlap");
        }
        policy = written;
      }
      Map<String, String> metadata = m.metadata();
      if (!notes.isEmpty()) {
        metadata = new LinkedHashMap<>(metadata);
        metadata.put(MemoryRecord.RESOLUTION, String.join("; ", notes));
      }
      MemoryRecord rec =
          new MemoryRecord(
              id,
              m.owner(),
              m.scope(),
              m.category() == null ? Category.SEMANTIC : m.category(),
              m.text(),
              m.context(),
              m.sources(),
              m.episode(),
              m.seq() == null ? -1 : m.seq(),
              recorded,
              null,
              from,
              to,
              m.factKey(),
              version,
              null,
              m.importance() == null ? 0.5 : m.importance(),
              authority,
              policy,
              List.copyOf(entities),
              0,
              null,
              vector,
              vector == null ? null : embedder.modelId(),
              metadata,
              m.access(),
              event
                  .map(
                      f ->
                          new dev.mnemo.EventTime(
                              millis(f.time().from()), millis(f.time().to()), f.time().phrase()))
                  .orElse(null));
      changes.add(rec);
      for (MemoryRecord c : changes) {
        upserts.put(c.id(), c);
        if (c.factKey() != null) {
          versions.get(c.owner() + "\u0000" + c.factKey()).put(c.id(), c);
        }
      }
      return rec;
    }
  }

  private static Instant millis(Instant t) {
    return t.truncatedTo(java.time.temporal.ChronoUnit.MILLIS);
  }

  private static boolean overlaps(MemoryRecord old, Instant from, Instant to) {
    boolean startsBeforeEnd = to == null || old.validFrom().isBefore(to);
    boolean endsAfterStart = old.validTo() == null || old.validTo().isAfter(from);
    return startsBeforeEnd && endsAfterStart;
  }
}

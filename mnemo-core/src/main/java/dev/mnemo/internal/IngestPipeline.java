package dev.mnemo.internal;

import dev.mnemo.ConflictPolicy;
import dev.mnemo.IngestProgress;
import dev.mnemo.IngestReceipt;
import dev.mnemo.InvalidRequestException;
import dev.mnemo.InvalidRequestException.Violation;
import dev.mnemo.MemoryRecord;
import dev.mnemo.MnemoException;
import dev.mnemo.NewMemory;
import dev.mnemo.Packing;
import dev.mnemo.RecallRequest;
import dev.mnemo.Recalled;
import dev.mnemo.StoredTurn;
import dev.mnemo.StoredTurn.State;
import dev.mnemo.Turn;
import dev.mnemo.spi.Consolidator;
import dev.mnemo.spi.Consolidator.Decision;
import dev.mnemo.spi.Extractor;
import dev.mnemo.spi.MemoryStore;
import dev.mnemo.spi.TurnLog;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The write path for conversation turns: log, extract, consolidate, commit.
 *
 * <ol>
 *   <li><b>Log</b> ({@link #ingest}): the batch is validated (every invalid field reported, nothing
 *       stored), then appended to the durable {@link TurnLog}, idempotently by (owner, id). User
 *       and assistant turns that completed (or were {@link #accept accepted}) enter state {@code
 *       pending}; tool calls, tool results, system messages and failed or partial attempts are only
 *       {@code kept}: sources, never memories. The call returns once the log has committed.
 *   <li><b>Extract</b>: pending turns, oldest first, grouped by owner and episode into batches of
 *       at most {@code batchTurns}, go to the {@link Extractor}. Asynchronous by default (passes on
 *       a small thread pool every pipeline of the process shares, none while idle); synchronous
 *       (inside {@code ingest}) when configured or when the turn log is not durable. A failed
 *       extraction that is not retriable turns the batch's turns into {@code error} artifacts
 *       (kept, with the error); a retriable one (time-out, 429) is retried with back-off up to
 *       {@value #MAX_RETRIES} times.
 *   <li><b>Consolidate</b>: each candidate meets the owner's similar current records (the engine's
 *       own recall: top {@value #SIMILAR_K}, greedy packing, no threshold) and the candidates of
 *       the same batch before it; the {@link Consolidator} decides ADD, UPDATE (a new version under
 *       the target's fact key; a target without one gets a key {@code auto/<target id>}), NOOP (the
 *       target gains the candidate's sources and +0.05 importance) or CONFLICT (both kept under one
 *       fact key with policy {@code keep_both}).
 *   <li><b>Commit</b>: everything a batch changes is one atomic store write; then its turns are
 *       marked {@code extracted}. A crash between the two is harmless: on restart the batch is
 *       pending again, and turns that some record already names as a source are not extracted again
 *       (they are given to the extractor as context only). So nothing is lost and nothing is
 *       duplicated.
 * </ol>
 *
 * <p>Back-pressure: at most {@code capacity} turns wait for extraction; {@code ingest} blocks while
 * the queue is full, up to {@code queueWait}, then fails with a retriable {@link MnemoException}
 * having stored nothing. That accounting and the scheduling of the extraction's passes are the
 * {@link IngestQueue}'s. Thread-safe.
 */
final class IngestPipeline implements AutoCloseable {
  static final int SIMILAR_K = 5;

  /**
   * Candidates per signal of that recall: enough for a top 5, a fraction of a user recall's cost.
   */
  static final int SIMILAR_CANDIDATES = 20;

  static final int MAX_RETRIES = 5;

  private final MemoryStore store;
  private final TurnLog log;
  private final WritePath writes;
  private final java.util.function.BiFunction<RecallRequest, float[], List<Recalled>> recall;
  private final Extractor extractor;
  private final Consolidator consolidator;
  private final ZoneId zone;
  private final InstantSource clock;
  private final WriteLocks locks;
  private final boolean synchronous;
  private final int batchTurns;

  /**
   * Back-pressure and the passes of the extraction (see {@link IngestQueue}); inline when
   * synchronous.
   */
  private final IngestQueue queue;

  private final AtomicLong recordsWritten = new AtomicLong();
  private final AtomicLong merged = new AtomicLong();
  private final AtomicLong conflicts = new AtomicLong();
  private final AtomicReference<String> lastError = new AtomicReference<>();
  private final Map<String, Integer> retries = new java.util.concurrent.ConcurrentHashMap<>();

  /** Failures of a group outside the extractor, by its first turn: the dead-letter list's count. */
  private final Map<String, Integer> failures = new java.util.concurrent.ConcurrentHashMap<>();

  static final int RECENT_DEAD_LETTERS = 20;
  private final AtomicLong deadLettered = new AtomicLong();
  private final java.util.ArrayDeque<String> recentDeadLetters = new java.util.ArrayDeque<>();

  IngestPipeline(
      MemoryStore store,
      TurnLog log,
      WritePath writes,
      java.util.function.BiFunction<RecallRequest, float[], List<Recalled>> recall,
      Extractor extractor,
      Consolidator consolidator,
      ZoneId zone,
      InstantSource clock,
      WriteLocks locks,
      boolean synchronous,
      int capacity,
      int batchTurns,
      Duration queueWait) {
    this.store = store;
    this.log = log;
    this.writes = writes;
    this.recall = recall;
    this.extractor = extractor;
    this.consolidator = consolidator;
    this.zone = zone;
    this.clock = clock;
    this.locks = locks;
    this.synchronous = synchronous;
    this.batchTurns = batchTurns;
    if (synchronous) {
      queue = IngestQueue.inline();
      drain(); // work left pending by an earlier asynchronous run
    } else {
      queue =
          IngestQueue.scheduled(capacity, queueWait, this::step, e -> lastError.set(e.toString()));
      long pending = log.counts().getOrDefault(State.PENDING, 0L);
      if (pending > 0) queue.add(pending);
    }
  }

  IngestReceipt ingest(List<Turn> turns) {
    Objects.requireNonNull(turns, "turns");
    List<Violation> bad = new ArrayList<>();
    Instant now = clock.instant();
    for (int i = 0; i < turns.size(); i++)
      bad.addAll(validate(turns.get(i), "turns[" + i + "].", now));
    if (!bad.isEmpty()) throw new InvalidRequestException(bad);
    List<StoredTurn> entries = new ArrayList<>(turns.size());
    for (Turn t : turns) {
      Turn dated =
          t.at() != null
              ? t
              : new Turn(
                  t.id(),
                  t.owner(),
                  t.episode(),
                  t.role(),
                  t.speaker(),
                  t.text(),
                  now,
                  t.turnId(),
                  t.attempt(),
                  t.status(),
                  t.metadata());
      String kept = keptReason(dated);
      entries.add(new StoredTurn(dated, kept == null ? State.PENDING : State.KEPT, 0, kept));
    }
    long extractable = entries.stream().filter(e -> e.state() == State.PENDING).count();
    queue.reserve(extractable);
    List<StoredTurn> stored;
    try {
      stored = log.append(entries);
    } catch (RuntimeException e) {
      queue.release(extractable);
      throw e;
    } finally {
      queue.appended();
    }
    Set<String> fresh = new HashSet<>();
    for (StoredTurn s : stored) fresh.add(key(s.turn()));
    List<String> accepted = new ArrayList<>();
    List<String> duplicates = new ArrayList<>();
    for (StoredTurn e : entries)
      (fresh.remove(key(e.turn())) ? accepted : duplicates).add(e.turn().id());
    long pendingNew = stored.stream().filter(s -> s.state() == State.PENDING).count();
    queue.release(extractable - pendingNew);
    if (synchronous) {
      List<MemoryRecord> records = new ArrayList<>();
      for (List<StoredTurn> g :
          groups(stored.stream().filter(s -> s.state() == State.PENDING).toList())) {
        records.addAll(process(g));
      }
      return new IngestReceipt(accepted, duplicates, 0, records);
    }
    queue.signal();
    return new IngestReceipt(accepted, duplicates, (int) pendingNew, List.of());
  }

  /** Turns appended to the log directly (an import): extracts them now or wakes the pipeline. */
  void added(long pending) {
    if (synchronous) {
      drain();
      return;
    }
    queue.add(pending);
  }

  /** Makes a kept failed or partial attempt extractable. */
  IngestReceipt accept(String owner, String id) {
    StoredTurn t =
        log.get(owner, id)
            .orElseThrow(
                () ->
                    new InvalidRequestException(
                        "id", id, "no turn '" + id + "' of owner '" + owner + "' in the turn log"));
    if (!t.turn().isMessage() || t.turn().role() == Turn.Role.SYSTEM) {
      throw new InvalidRequestException(
          "id",
          id,
          "turn '"
              + id
              + "' is a "
              + t.turn().role().code()
              + " turn; only user and assistant turns can become memories");
    }
    if (t.state() != State.KEPT && t.state() != State.ERROR) {
      return new IngestReceipt(List.of(), List.of(id), 0, List.of());
    }
    queue.reserve(1);
    StoredTurn pending = t.with(State.PENDING, "accepted");
    try {
      log.update(List.of(pending));
    } catch (RuntimeException e) {
      queue.release(1);
      throw e;
    } finally {
      queue.appended(); // else no pass ever again trusts an empty log (queued > 0 forever)
    }
    if (synchronous) return new IngestReceipt(List.of(id), List.of(), 0, process(List.of(pending)));
    queue.signal();
    return new IngestReceipt(List.of(id), List.of(), 1, List.of());
  }

  IngestProgress progress() {
    Map<State, Long> c = log.counts();
    return new IngestProgress(
        c.getOrDefault(State.PENDING, 0L),
        c.getOrDefault(State.EXTRACTED, 0L),
        c.getOrDefault(State.KEPT, 0L),
        c.getOrDefault(State.ERROR, 0L),
        recordsWritten.get(),
        merged.get(),
        conflicts.get(),
        lastError.get(),
        deadLettered.get(),
        recentDeadLetters());
  }

  private List<String> recentDeadLetters() {
    synchronized (recentDeadLetters) {
      return List.copyOf(recentDeadLetters);
    }
  }

  /** Waits until no turn waits for extraction; false when {@code timeout} passed first. */
  boolean await(Duration timeout) {
    return queue.await(timeout);
  }

  /** Stops after the batch in progress (whose result is discarded if it has not committed yet). */
  @Override
  public void close() {
    queue.close();
  }

  private static String key(Turn t) {
    return t.owner() + "\u0000" + t.id();
  }

  /** Why a turn is only kept, never extracted; null when it is extractable. */
  static String keptReason(Turn t) {
    return switch (t.role()) {
      case TOOL_CALL, TOOL_RESULT -> "tool event: kept as a source, never a memory";
      case SYSTEM -> "system message: kept as a source, never a memory";
      case USER, ASSISTANT ->
          t.status() == Turn.Status.COMPLETE
              ? null
              : t.status().code()
                  + " attempt "
                  + t.attempt()
                  + " of turn "
                  + t.turnId()
                  + ": kept as an error artifact; a memory only once accepted";
    };
  }

  /** Every invalid field of a turn; {@code now} (null: no check) bounds its time from above. */
  static List<Violation> validate(Turn t, String path, Instant now) {
    List<Violation> v = new ArrayList<>();
    if (t == null) {
      v.add(
          new Violation(
              path.substring(0, path.length() - 1),
              null,
              path.substring(0, path.length() - 1) + " must not be null"));
      return v;
    }
    if (t.id() == null || t.id().isBlank())
      v.add(new Violation(path + "id", t.id(), path + "id must not be blank"));
    dev.mnemo.InputRules.checkOwner(path + "owner", t.owner(), v);
    dev.mnemo.InputRules.checkLength(path + "id", t.id(), dev.mnemo.InputRules.MAX_KEY_CHARS, v);
    dev.mnemo.InputRules.checkLength(
        path + "turn_id", t.turnId(), dev.mnemo.InputRules.MAX_KEY_CHARS, v);
    dev.mnemo.InputRules.checkLength(
        path + "episode", t.episode(), dev.mnemo.InputRules.MAX_KEY_CHARS, v);
    // a turn's time dates what it says ("last Saturday") and becomes its records' recorded time
    dev.mnemo.InputRules.checkTransactionTime(path + "at", t.at(), now, v);
    if (t.text() == null || t.text().isBlank())
      v.add(new Violation(path + "text", t.text(), path + "text must not be blank"));
    dev.mnemo.InputRules.checkLength(
        path + "text", t.text(), dev.mnemo.InputRules.MAX_TURN_CHARS, v);
    if (t.attempt() < 1)
      v.add(
          new Violation(
              path + "attempt", t.attempt(), path + "attempt must be >= 1, was " + t.attempt()));
    return v;
  }

  /**
   * Extracts the pending turns read in one go. Returns when to pass again in milliseconds: 0 when
   * more may be pending, a back-off after a failure, -1 when nothing was pending (idle until the
   * next ingest, accept or import wakes it).
   */
  private long step() {
    List<StoredTurn> pending;
    try {
      pending = log.pending(batchTurns * 8);
    } catch (RuntimeException e) {
      lastError.set("reading the turn log: " + e.getMessage());
      return 1000;
    }
    if (pending.isEmpty()) {
      queue.drained();
      return -1;
    }
    queue.busy(true);
    try {
      for (List<StoredTurn> group : groups(pending)) {
        if (queue.closing()) return -1;
        try {
          process(group);
        } catch (Retry r) {
          return Math.max(1, r.wait.toMillis());
        } catch (RuntimeException e) {
          lastError.set(e.toString());
          if (queue.closing()) return -1;
          int n = failures.merge(batchKey(group), 1, Integer::sum);
          if (n >= MAX_RETRIES) {
            failures.remove(batchKey(group));
            deadLetter(group, e, n);
            continue;
          }
          return 250L << Math.min(n, 6); // 0.5, 1, 2, 4 s, then the dead-letter list
        }
      }
      return 0;
    } finally {
      queue.busy(false);
    }
  }

  private static String batchKey(List<StoredTurn> group) {
    return key(group.get(0).turn());
  }

  /**
   * A group that failed {@code attempts} times outside the extractor (a record the store refuses, a
   * consolidator bug): each turn is tried alone once more, so that good turns are not held hostage,
   * and those that still fail become {@code error} artifacts on the dead-letter list (counted in
   * {@link IngestProgress#deadLettered()}, the latest listed) instead of stalling the queue after
   * every restart. {@link #accept} makes one pending again.
   */
  private void deadLetter(List<StoredTurn> group, RuntimeException cause, int attempts) {
    for (StoredTurn t : group) {
      if (queue.closing()) return;
      if (group.size() > 1) {
        try {
          process(List.of(t));
          continue;
        } catch (Retry r) {
          continue; // an extractor's own retries: stays pending
        } catch (RuntimeException e) {
          cause = e;
        }
      }
      String note = "dead letter after " + attempts + " failed attempts: " + cause;
      try {
        log.update(List.of(t.with(State.ERROR, note)));
      } catch (RuntimeException e) {
        lastError.set("cannot dead-letter turn " + t.turn().id() + ": " + e.getMessage());
        return;
      }
      queue.release(1);
      deadLettered.incrementAndGet();
      synchronized (recentDeadLetters) {
        recentDeadLetters.addLast(t.turn().owner() + "/" + t.turn().id() + ": " + note);
        while (recentDeadLetters.size() > RECENT_DEAD_LETTERS) recentDeadLetters.removeFirst();
      }
    }
  }

  /** Runs extraction of every pending turn now, in this thread (synchronous mode). */
  private void drain() {
    while (true) {
      List<StoredTurn> pending = log.pending(batchTurns * 8);
      if (pending.isEmpty()) return;
      for (List<StoredTurn> group : groups(pending)) process(group);
    }
  }

  /** Consecutive pending turns of one owner and episode, at most batchTurns each, in log order. */
  private List<List<StoredTurn>> groups(List<StoredTurn> pending) {
    Map<String, List<List<StoredTurn>>> byKey = new LinkedHashMap<>();
    for (StoredTurn t : pending) {
      String k = t.turn().owner() + "\u0000" + Objects.toString(t.turn().episode(), "");
      List<List<StoredTurn>> lists = byKey.computeIfAbsent(k, x -> new ArrayList<>());
      if (lists.isEmpty() || lists.get(lists.size() - 1).size() >= batchTurns)
        lists.add(new ArrayList<>());
      lists.get(lists.size() - 1).add(t);
    }
    List<List<StoredTurn>> out = new ArrayList<>();
    byKey.values().forEach(out::addAll);
    return out;
  }

  /**
   * Extracts, consolidates and commits one group of one owner's pending turns; returns the records
   * written.
   */
  private List<MemoryRecord> process(List<StoredTurn> group) {
    if (group.isEmpty()) return List.of();
    String owner = group.get(0).turn().owner();
    List<String> ids = group.stream().map(s -> s.turn().id()).toList();
    Set<String> already = new HashSet<>();
    for (MemoryRecord r : store.bySources(owner, ids)) already.addAll(r.sources());
    List<Turn> context = new ArrayList<>();
    List<Turn> todo = new ArrayList<>();
    for (StoredTurn s : group) (already.contains(s.turn().id()) ? context : todo).add(s.turn());
    List<MemoryRecord> written = List.of();
    Map<String, String> notes = new HashMap<>();
    if (!todo.isEmpty()) {
      List<NewMemory> candidates;
      try {
        candidates = extractor.extract(new Extractor.Batch(owner, context, todo, zone));
      } catch (Extractor.ExtractionException e) {
        String batchKey = owner + "\u0000" + ids.get(0);
        int n = retries.merge(batchKey, 1, Integer::sum);
        lastError.set(extractor.id() + ": " + e.getMessage());
        if (e.retriable() && n < MAX_RETRIES && !synchronous) {
          throw new Retry(Duration.ofMillis(200L << Math.min(n, 7)));
        }
        retries.remove(batchKey);
        finish(
            group,
            already,
            State.ERROR,
            "extraction failed (" + extractor.id() + "): " + e.getMessage());
        return List.of();
      } catch (RuntimeException e) {
        // an extractor bug must not stall the queue: the turns stay, as error artifacts
        lastError.set(extractor.id() + ": " + e);
        finish(group, already, State.ERROR, "extraction failed (" + extractor.id() + "): " + e);
        return List.of();
      }
      Set<String> todoIds = new HashSet<>();
      for (Turn t : todo) todoIds.add(t.id());
      List<NewMemory> good = new ArrayList<>();
      for (NewMemory c : candidates) {
        String problem = check(c, owner, todoIds);
        if (problem == null) {
          good.add(c);
        } else {
          lastError.set(extractor.id() + ": " + problem);
          for (String s : c.sources())
            if (todoIds.contains(s)) notes.merge(s, problem, (a, b) -> a + "; " + b);
        }
      }
      if (queue.closing() && !synchronous) return List.of();
      written = consolidate(good, notes);
    }
    finish(group, already, State.EXTRACTED, null, notes);
    return written;
  }

  private void finish(List<StoredTurn> group, Set<String> already, State state, String note) {
    finish(group, already, state, note, Map.of());
  }

  private void finish(
      List<StoredTurn> group,
      Set<String> already,
      State state,
      String note,
      Map<String, String> notes) {
    List<StoredTurn> updated = new ArrayList<>();
    for (StoredTurn s : group) {
      State st = already.contains(s.turn().id()) ? State.EXTRACTED : state;
      updated.add(
          s.with(st, notes.getOrDefault(s.turn().id(), st == State.EXTRACTED ? null : note)));
    }
    log.update(updated);
    queue.release(group.size());
  }

  /** Why a candidate cannot be written, or null. */
  private String check(NewMemory c, String owner, Set<String> batchIds) {
    if (c == null) return "a null candidate";
    if (!owner.equals(c.owner()))
      return "candidate for owner '" + c.owner() + "' from turns of '" + owner + "'";
    if (c.sources().isEmpty()) return "candidate '" + c.text() + "' names no source turn";
    for (String s : c.sources()) {
      if (!batchIds.contains(s))
        return "candidate '" + c.text() + "' names source '" + s + "', not a turn of its batch";
    }
    List<Violation> v = writes.validate(c, "");
    return v.isEmpty() ? null : "invalid candidate: " + v.stream().map(Violation::message).toList();
  }

  private List<MemoryRecord> consolidate(List<NewMemory> candidates, Map<String, String> notes) {
    if (candidates.isEmpty()) return List.of();
    List<float[]> vectors = writes.embed(candidates);
    WriteLocks.Held held = locks.owner(candidates.get(0).owner());
    try {
      // forget(owner) may have run while the extractor worked (it takes the owner's lock, this
      // batch
      // did not): a candidate whose source turns are gone from the log must not bring them back
      Set<String> sourceIds = new LinkedHashSet<>();
      for (NewMemory c : candidates) sourceIds.addAll(c.sources());
      Set<String> alive = new HashSet<>();
      for (StoredTurn t : log.getAll(candidates.get(0).owner(), sourceIds))
        alive.add(t.turn().id());
      WritePath.Session session = writes.session();
      Set<String> written = new LinkedHashSet<>();
      for (int i = 0; i < candidates.size(); i++) {
        NewMemory c = candidates.get(i);
        if (!alive.containsAll(c.sources())) continue;
        float[] v = vectors == null ? null : vectors.get(i);
        List<MemoryRecord> similar = similar(c, v, session);
        Decision d = consolidator.decide(c, similar);
        MemoryRecord target =
            d.target() == null ? null : session.current(c.owner(), d.target()).orElse(null);
        if (d.action() != Consolidator.Action.ADD
            && (target == null || target.expiredAt() != null)) {
          d =
              Decision.add(
                  "target " + d.target() + " of " + d.action() + " is not a current record");
          target = null;
        }
        MemoryRecord r =
            switch (d.action()) {
              case ADD -> session.add(c, v, "");
              case NOOP -> {
                List<String> sources = new ArrayList<>(target.sources());
                for (String s : c.sources()) if (!sources.contains(s)) sources.add(s);
                if (sources.size() > target.sources().size()) {
                  session.put(
                      Records.with(
                          target,
                          sources,
                          target.factKey(),
                          Math.min(1.0, target.importance() + 0.05)));
                  written.add(target.id());
                }
                merged.incrementAndGet();
                yield null;
              }
              case UPDATE, CONFLICT -> {
                String key =
                    target.factKey() != null
                        ? target.factKey()
                        : c.factKey() != null ? c.factKey() : "auto/" + target.id();
                if (!key.equals(target.factKey())) {
                  target = Records.with(target, target.sources(), key, target.importance());
                  session.put(target);
                }
                boolean conflict = d.action() == Consolidator.Action.CONFLICT;
                if (conflict) conflicts.incrementAndGet();
                Instant rec = c.recordedAt() == null ? session.now() : c.recordedAt();
                Instant latest = latestRecorded(session, c.owner(), key);
                if (latest != null && rec.isBefore(latest))
                  rec = latest; // transaction time only moves forward
                // The consolidator judged the candidate a new version of the target's fact: a
                // correction,
                // even when the candidate's own date ("moved last Saturday") precedes the target's
                // start.
                NewMemory versioned =
                    Records.with(
                        c, key, conflict ? ConflictPolicy.KEEP_BOTH : ConflictPolicy.CORRECT, rec);
                yield session.add(versioned, v, "");
              }
            };
        if (r != null) written.add(r.id());
        if (r == null && d.action() != Consolidator.Action.NOOP) {
          String problem =
              "not written: " + session.violations().stream().map(Violation::message).toList();
          lastError.set(problem);
          for (String s : c.sources()) notes.merge(s, problem, (a, b) -> a + "; " + b);
          session.violations().clear();
        }
      }
      List<MemoryRecord> all = session.commit();
      long created = all.stream().filter(x -> written.contains(x.id())).count();
      recordsWritten.addAndGet(created);
      return all.stream().filter(x -> written.contains(x.id())).toList();
    } finally {
      held.release();
    }
  }

  private Instant latestRecorded(WritePath.Session session, String owner, String key) {
    Instant latest = null;
    for (MemoryRecord r : store.versions(owner, key))
      if (latest == null || r.recordedAt().isAfter(latest)) latest = r.recordedAt();
    for (MemoryRecord r : session.staged()) {
      if (key.equals(r.factKey()) && (latest == null || r.recordedAt().isAfter(latest)))
        latest = r.recordedAt();
    }
    return latest;
  }

  /**
   * The owner's current records most similar to the candidate: the engine's recall (top {@value
   * #SIMILAR_K}) with the session's planned versions in place of the stored ones, and the batch's
   * own new records that share a content word or the fact key, most overlapping first.
   */
  private List<MemoryRecord> similar(NewMemory c, float[] vector, WritePath.Session session) {
    List<MemoryRecord> out = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    Set<String> words = wordsOf(c.text());
    List<MemoryRecord> staged = new ArrayList<>();
    for (MemoryRecord r : session.staged()) {
      if (!r.owner().equals(c.owner()) || r.expiredAt() != null) continue;
      boolean sameKey = c.factKey() != null && c.factKey().equals(r.factKey());
      if (sameKey || overlap(words, wordsOf(r.text())) > 0) staged.add(r);
    }
    staged.sort(
        (a, b) ->
            Double.compare(overlap(words, wordsOf(b.text())), overlap(words, wordsOf(a.text()))));
    RecallRequest req =
        RecallRequest.builder(c.owner(), c.text())
            .k(SIMILAR_K)
            .threshold(0)
            .relativeThreshold(0)
            .minRelevance(0.0)
            .budgetTokens(RecallRequest.DEFAULT_BUDGET * 100)
            .packing(Packing.GREEDY)
            .candidates(SIMILAR_CANDIDATES)
            .askedAt(session.now())
            .build();
    for (Recalled r : recall.apply(req, vector)) {
      MemoryRecord cur = session.current(c.owner(), r.record().id()).orElse(r.record());
      if (cur.expiredAt() == null && seen.add(cur.id())) out.add(cur);
    }
    for (MemoryRecord r : staged) if (seen.add(r.id())) out.add(r);
    if (c.factKey() != null) {
      // a fact key names the fact exactly: its current version is always similar, whatever its
      // words
      for (MemoryRecord r : store.versions(c.owner(), c.factKey())) {
        MemoryRecord cur = session.current(c.owner(), r.id()).orElse(r);
        if (cur.expiredAt() == null && seen.add(cur.id())) out.add(cur);
      }
    }
    return out;
  }

  private static Set<String> wordsOf(String text) {
    Set<String> out = new HashSet<>();
    for (String w : text.toLowerCase(java.util.Locale.ROOT).split("[^\\p{L}\\p{N}]+"))
      if (w.length() > 3) out.add(w);
    return out;
  }

  private static double overlap(Set<String> a, Collection<String> b) {
    int n = 0;
    for (String w : b) if (a.contains(w)) n++;
    return n;
  }

  /** A retriable extraction failure: the pipeline backs off, the turns stay pending. */
  private static final class Retry extends RuntimeException {
    private static final long serialVersionUID = 1L;
    final Duration wait;

    Retry(Duration wait) {
      super(null, null, false, false);
      this.wait = wait;
    }
  }
}

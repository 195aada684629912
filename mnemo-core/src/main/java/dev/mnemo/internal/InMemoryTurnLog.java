package dev.mnemo.internal;

import dev.mnemo.StoredTurn;
import dev.mnemo.StoredTurn.State;
import dev.mnemo.spi.TurnLog;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * A turn log in memory: for tests and for a store that keeps no log of its own. Not durable: a
 * process that ends loses it (the engine then runs extraction synchronously, so that nothing it
 * acknowledged waits in memory only). Thread-safe by one lock.
 */
public final class InMemoryTurnLog implements TurnLog {
  private final Map<String, StoredTurn> byKey = new LinkedHashMap<>();
  private long seq;

  private static String key(String owner, String id) {
    return owner + "\u0000" + id;
  }

  @Override
  public synchronized List<StoredTurn> append(List<StoredTurn> entries) {
    List<StoredTurn> out = new ArrayList<>();
    for (StoredTurn e : entries) {
      String k = key(e.turn().owner(), e.turn().id());
      if (byKey.containsKey(k)) continue;
      StoredTurn stored = new StoredTurn(e.turn(), e.state(), ++seq, e.note());
      byKey.put(k, stored);
      out.add(stored);
    }
    return out;
  }

  @Override
  public synchronized void update(List<StoredTurn> entries) {
    for (StoredTurn e : entries) {
      byKey.computeIfPresent(
          key(e.turn().owner(), e.turn().id()), (k, old) -> old.with(e.state(), e.note()));
    }
  }

  @Override
  public synchronized Optional<StoredTurn> get(String owner, String id) {
    return Optional.ofNullable(byKey.get(key(owner, id)));
  }

  @Override
  public synchronized List<StoredTurn> getAll(String owner, Collection<String> ids) {
    List<StoredTurn> out = new ArrayList<>();
    for (String id : ids) {
      StoredTurn t = byKey.get(key(owner, id));
      if (t != null && !out.contains(t)) out.add(t);
    }
    out.sort(java.util.Comparator.comparingLong(StoredTurn::seq));
    return out;
  }

  @Override
  public synchronized List<StoredTurn> attempts(String owner, String turnId) {
    return byKey.values().stream()
        .filter(t -> t.turn().owner().equals(owner) && t.turn().turnId().equals(turnId))
        .toList();
  }

  @Override
  public synchronized List<StoredTurn> pending(int limit) {
    return byKey.values().stream().filter(t -> t.state() == State.PENDING).limit(limit).toList();
  }

  @Override
  public void export(String owner, Consumer<StoredTurn> sink) {
    List<StoredTurn> copy;
    synchronized (this) {
      copy =
          byKey.values().stream()
              .filter(t -> owner == null || t.turn().owner().equals(owner))
              .toList();
    }
    copy.forEach(sink);
  }

  @Override
  public synchronized int deleteOwner(String owner) {
    int before = byKey.size();
    byKey.values().removeIf(t -> t.turn().owner().equals(owner));
    return before - byKey.size();
  }

  @Override
  public synchronized int delete(String owner, Collection<String> ids) {
    int n = 0;
    for (String id : ids) if (byKey.remove(key(owner, id)) != null) n++;
    return n;
  }

  @Override
  public synchronized Map<State, Long> counts() {
    Map<State, Long> out = new EnumMap<>(State.class);
    for (State s : State.values()) out.put(s, 0L);
    for (StoredTurn t : byKey.values()) out.merge(t.state(), 1L, Long::sum);
    return out;
  }

  @Override
  public void close() {}
}

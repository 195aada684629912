package dev.mnemo.internal;

import dev.mnemo.CandidateTrace;
import dev.mnemo.LoggedRecall;
import dev.mnemo.RecallResult;
import dev.mnemo.Replay;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** The difference between a logged recall and its replay. */
final class Replays {
  /**
   * Logged scores are rounded to 4 decimals by the log's JSON form; smaller differences are noise.
   */
  static final double SCORE_TOLERANCE = 1e-4;

  private Replays() {}

  static Replay diff(
      LoggedRecall then, RecallResult now, Map<String, String> engineNow, long nanos) {
    List<String> selectedNow = now.ids();
    List<String> added = selectedNow.stream().filter(x -> !then.selected().contains(x)).toList();
    List<String> removed = then.selected().stream().filter(x -> !selectedNow.contains(x)).toList();
    Map<String, CandidateTrace> before = new LinkedHashMap<>();
    for (CandidateTrace c : then.trace().candidates()) before.put(c.id(), c);
    Map<String, CandidateTrace> after = new LinkedHashMap<>();
    for (CandidateTrace c : now.trace().candidates()) after.put(c.id(), c);
    Set<String> ids = new LinkedHashSet<>(before.keySet());
    ids.addAll(after.keySet());
    List<Replay.Change> changes = new ArrayList<>();
    for (String id : ids) {
      CandidateTrace a = before.get(id);
      CandidateTrace b = after.get(id);
      String oa = outcome(a);
      String ob = outcome(b);
      double sa = a == null ? Double.NaN : a.signals().finalScore();
      double sb = b == null ? Double.NaN : b.signals().finalScore();
      boolean scoreMoved = a != null && b != null && Math.abs(sa - sb) > SCORE_TOLERANCE;
      if (!oa.equals(ob) || scoreMoved)
        changes.add(new Replay.Change(id, oa, ob, sa, sb, b == null ? null : b.reason()));
    }
    Map<String, List<String>> engine = new LinkedHashMap<>();
    Set<String> keys = new LinkedHashSet<>(then.engine().keySet());
    keys.addAll(engineNow.keySet());
    for (String k : keys) {
      String x = then.engine().get(k);
      String y = engineNow.get(k);
      if (x == null ? y != null : !x.equals(y)) engine.put(k, java.util.Arrays.asList(x, y));
    }
    return new Replay(
        then.id(),
        then.selected().equals(selectedNow),
        then.selected(),
        selectedNow,
        added,
        removed,
        changes,
        engine,
        now.trace(),
        nanos);
  }

  private static String outcome(CandidateTrace c) {
    if (c == null) return "absent";
    return c.outcome() == null ? "unranked" : c.outcome().code();
  }
}

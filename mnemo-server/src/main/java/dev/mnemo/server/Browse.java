package dev.mnemo.server;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mnemo.InvalidRequestException;
import dev.mnemo.MemoryRecord;
import dev.mnemo.Mnemo;
import dev.mnemo.json.JsonCodec;
import dev.mnemo.json.RecordJson;
import io.javalin.http.Context;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The browsing side of the API, for the inspector and for operators: the owners of a tenant and an
 * owner's records, filtered by a text and paged.
 *
 * <p>Both answers are computed from one {@link Mnemo#export} scan of the tenant's (or the owner's)
 * records: the engine's interface has no owner index, and adding one to every store for a page an
 * operator opens now and then costs more than it gives. A scan reads every stored version, so it
 * costs time linear in the records scanned (owners: the whole tenant, kept until the tenant's next
 * write; records: the owner); fine for inspection, and recall, which is bounded by k and the
 * budget, never uses it. The owner statistics are immutable once computed (shared by requests).
 */
final class Browse {
  /** Default and largest page size. */
  static final int DEFAULT_LIMIT = 50;

  static final int MAX_LIMIT = 1000;

  private static final Comparator<MemoryRecord> NEWEST_FIRST =
      Comparator.comparing(MemoryRecord::recordedAt)
          .thenComparing(MemoryRecord::version)
          .reversed()
          .thenComparing(MemoryRecord::id);

  private Browse() {}

  /** One owner's counts. */
  private static final class OwnerStats {
    int records;
    int current;
    Instant lastRecordedAt;
  }

  /**
   * {@code GET /v1/owners?q=&offset=&limit=}: the tenant's owners in name order, each with how many
   * records (every version) and current records (not expired) it has and when it last learned
   * something; {@code q} keeps owners whose name contains it (ignoring case). The statistics come
   * from one scan of the tenant, kept until its next write (paging and filtering reuse it).
   */
  static ObjectNode owners(Context ctx, TenantMemory memory) {
    Paging p = Paging.of(ctx, Set.of());
    Map<String, OwnerStats> all = memory.untilNextWrite(() -> ownerStats(memory));
    List<Map.Entry<String, OwnerStats>> matching =
        all.entrySet().stream().filter(e -> p.matches(e.getKey())).toList();
    ObjectNode o = p.envelope(matching.size());
    ArrayNode arr = o.putArray("owners");
    matching.stream()
        .skip(p.offset)
        .limit(p.limit)
        .forEach(
            e ->
                arr.addObject()
                    .put("owner", e.getKey())
                    .put("records", e.getValue().records)
                    .put("current", e.getValue().current)
                    .put("last_recorded_at", e.getValue().lastRecordedAt.toString()));
    return o;
  }

  private static Map<String, OwnerStats> ownerStats(Mnemo memory) {
    Map<String, OwnerStats> stats = new TreeMap<>();
    memory.export(
        null,
        r -> {
          OwnerStats s = stats.computeIfAbsent(r.owner(), o -> new OwnerStats());
          s.records++;
          if (r.expiredAt() == null) s.current++;
          if (s.lastRecordedAt == null || r.recordedAt().isAfter(s.lastRecordedAt))
            s.lastRecordedAt = r.recordedAt();
        });
    return java.util.Collections.unmodifiableMap(stats);
  }

  /**
   * {@code GET /v1/owners/{owner}/memories?q=&current_only=&offset=&limit=}: the owner's records,
   * newest recorded first (every version, expired ones included unless {@code current_only=true});
   * {@code q} keeps records whose text, fact key, id or category contains it (ignoring case).
   */
  static ObjectNode memories(Context ctx, Mnemo memory, String owner) {
    Paging p = Paging.of(ctx, Set.of("current_only"));
    boolean currentOnly = bool(ctx, "current_only");
    memory.get(owner, "-"); // the engine's checks of the owner (blank, too long) before the scan
    List<MemoryRecord> found = new ArrayList<>();
    memory.export(
        owner,
        r -> {
          if (currentOnly && r.expiredAt() != null) return;
          if (p.matches(r.text())
              || p.matches(r.factKey())
              || p.matches(r.id())
              || p.matches(r.category().code())) {
            found.add(r);
          }
        });
    found.sort(NEWEST_FIRST);
    ObjectNode o = p.envelope(found.size());
    o.put("owner", owner);
    ArrayNode arr = o.putArray("memories");
    found.stream().skip(p.offset).limit(p.limit).forEach(r -> arr.add(RecordJson.write(r, false)));
    return o;
  }

  private static boolean bool(Context ctx, String name) {
    String v = ctx.queryParam(name);
    if (v == null) return false;
    if (!v.equals("true") && !v.equals("false")) {
      throw new InvalidRequestException(name, v, name + " must be true or false, was '" + v + "'");
    }
    return v.equals("true");
  }

  /** The {@code q}, {@code offset} and {@code limit} query parameters, checked. */
  record Paging(String q, int offset, int limit) {
    static Paging of(Context ctx, Set<String> extra) {
      for (String name : ctx.queryParamMap().keySet()) {
        if (!Set.of("q", "offset", "limit").contains(name) && !extra.contains(name)) {
          List<String> known = new ArrayList<>(List.of("q", "offset", "limit"));
          known.addAll(extra);
          throw new InvalidRequestException(
              name, name, "unknown query parameter " + name + "; expected one of " + known);
        }
      }
      String q = ctx.queryParam("q");
      return new Paging(
          q == null || q.isBlank() ? null : q.strip().toLowerCase(Locale.ROOT),
          integer(ctx, "offset", 0, 0, Integer.MAX_VALUE),
          integer(ctx, "limit", DEFAULT_LIMIT, 1, MAX_LIMIT));
    }

    private static int integer(Context ctx, String name, int dflt, int min, int max) {
      String v = ctx.queryParam(name);
      if (v == null) return dflt;
      try {
        int i = Integer.parseInt(v);
        if (i >= min && i <= max) return i;
      } catch (NumberFormatException e) {
        // reported below
      }
      throw new InvalidRequestException(
          name,
          v,
          name + " must be a whole number from " + min + " to " + max + ", was '" + v + "'");
    }

    boolean matches(String s) {
      return q == null || (s != null && s.toLowerCase(Locale.ROOT).contains(q));
    }

    ObjectNode envelope(int total) {
      ObjectNode o = JsonCodec.object();
      o.put("total", total);
      o.put("offset", offset);
      o.put("limit", limit);
      return o;
    }
  }
}

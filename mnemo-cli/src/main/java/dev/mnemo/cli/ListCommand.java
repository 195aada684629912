package dev.mnemo.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mnemo.MemoryRecord;
import dev.mnemo.Mnemo;
import dev.mnemo.json.JsonCodec;
import dev.mnemo.json.RecordJson;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * Lists what is stored for one owner, newest recorded first: the terminal's view of what the
 * inspector shows, without a server. Current versions only unless {@code --all-versions}; paged
 * with {@code --offset} and {@code --limit} as {@code GET /v1/owners/{owner}/memories} is.
 *
 * <p>The records come from one {@link Mnemo#export} scan of the owner (the engine has no sorted
 * listing), so a call costs time linear in the owner's records; fine for looking, never used by
 * recall.
 */
@Command(
    name = "list",
    mixinStandardHelpOptions = true,
    description = {
      "What is stored for an owner, newest recorded first: id, category, fact key and version, valid "
          + "time (from..to), recorded time (when it was learned), importance, text.",
      "Current versions only (superseded and forgotten ones are left out) unless --all-versions."
    })
final class ListCommand implements Callable<Integer> {
  /** Newest recorded first, the later version first on a tie, then by id: a stable order. */
  static final Comparator<MemoryRecord> NEWEST_FIRST =
      Comparator.comparing(MemoryRecord::recordedAt)
          .thenComparing(MemoryRecord::version)
          .reversed()
          .thenComparing(MemoryRecord::id);

  @Mixin EngineOptions engine;

  @Option(
      names = "--owner",
      paramLabel = "OWNER",
      required = true,
      description = "Whose records (required).")
  String owner;

  @Option(
      names = "--all-versions",
      description = "Superseded (expired) versions too, marked 'expired'.")
  boolean allVersions;

  @Option(
      names = "--offset",
      paramLabel = "N",
      defaultValue = "0",
      description = "Records to skip (default ${DEFAULT-VALUE}).")
  int offset;

  @Option(
      names = "--limit",
      paramLabel = "N",
      defaultValue = "50",
      description = "Records to show at most (default ${DEFAULT-VALUE}).")
  int limit;

  @Option(
      names = "--json",
      description =
          "JSON output: {owner, total, offset, limit, records: [...]}, each record as the REST API writes it.")
  boolean json;

  @Override
  public Integer call() throws Exception {
    if (offset < 0) throw new IllegalArgumentException("--offset must be >= 0, was " + offset);
    if (limit < 1) throw new IllegalArgumentException("--limit must be >= 1, was " + limit);
    engine.embedder = "none"; // listing needs no model
    try (Mnemo m = engine.open()) {
      m.get(owner, "-"); // the engine's checks of the owner (blank, too long) before the scan
      List<MemoryRecord> found = new ArrayList<>();
      m.export(
          owner,
          r -> {
            if (allVersions || r.expiredAt() == null) found.add(r);
          });
      found.sort(NEWEST_FIRST);
      List<MemoryRecord> page = found.stream().skip(offset).limit(limit).toList();
      if (json) {
        ObjectNode o = JsonCodec.object();
        o.put("owner", owner).put("total", found.size()).put("offset", offset).put("limit", limit);
        var arr = o.putArray("records");
        page.forEach(r -> arr.add(RecordJson.write(r, false)));
        System.out.println(JsonCodec.PRETTY.writeValueAsString(o));
        return 0;
      }
      if (found.isEmpty()) {
        System.out.println(
            "no "
                + (allVersions ? "" : "current ")
                + "records for owner '"
                + owner
                + "' in "
                + engine.data);
        return 0;
      }
      System.out.printf(
          Locale.ROOT,
          "%-36s %-10s %-20s %-25s %-20s %-4s %s%n",
          "id",
          "category",
          "fact_key (v)",
          "valid",
          "recorded",
          "imp",
          "text");
      for (MemoryRecord r : page) System.out.println(row(r));
      int shown = page.size();
      System.out.println(
          found.size()
              + " "
              + (allVersions ? "records (every version)" : "current records")
              + (shown < found.size() ? "; showing " + (offset + 1) + "-" + (offset + shown) : "")
              + (offset + shown < found.size() ? "; next page: --offset " + (offset + shown) : ""));
    }
    return 0;
  }

  /** One line of the table: the fields a reader scans for, the text last and whole. */
  static String row(MemoryRecord r) {
    String key = r.factKey() == null ? "-" : shorten(r.factKey(), 15) + " (" + r.version() + ")";
    String valid = day(r.validFrom()) + ".." + (r.validTo() == null ? "" : day(r.validTo()));
    return String.format(
        Locale.ROOT,
        "%-36s %-10s %-20s %-25s %-20s %-4.2f %s%s",
        r.id(),
        r.category().code(),
        key,
        valid,
        day(r.recordedAt()),
        r.importance(),
        r.text().replace('\n', ' '),
        r.expiredAt() == null ? "" : "  [expired " + day(r.expiredAt()) + "]");
  }

  private static String day(java.time.Instant t) {
    String s = t.toString();
    return s.endsWith("T00:00:00Z") ? s.substring(0, 10) : s.substring(0, Math.min(16, s.length()));
  }

  private static String shorten(String s, int max) {
    return s.length() <= max ? s : s.substring(0, max - 1) + "~";
  }
}

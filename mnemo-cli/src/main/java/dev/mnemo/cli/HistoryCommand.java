package dev.mnemo.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import dev.mnemo.MemoryRecord;
import dev.mnemo.Mnemo;
import dev.mnemo.json.JsonCodec;
import dev.mnemo.json.RecordJson;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** Prints every version of a fact: valid time, recorded time, expiry. */
@Command(
    name = "history",
    mixinStandardHelpOptions = true,
    description = "Every version of one fact, oldest first.")
final class HistoryCommand implements Callable<Integer> {
  @Mixin EngineOptions engine;

  @Option(
      names = "--owner",
      paramLabel = "OWNER",
      required = true,
      description = "Whose fact (required).")
  String owner;

  @Option(
      names = "--fact-key",
      paramLabel = "KEY",
      required = true,
      description = "The fact's key, e.g. editor (required).")
  String factKey;

  @Option(names = "--json", description = "JSON output.")
  boolean json;

  @Override
  public Integer call() throws Exception {
    Args.length("--fact-key", factKey, dev.mnemo.InputRules.MAX_KEY_CHARS);
    engine.embedder = "none"; // reading history needs no model
    try (Mnemo m = engine.open()) {
      List<MemoryRecord> h = m.history(owner, factKey);
      if (json) {
        ArrayNode a = JsonCodec.array();
        h.forEach(r -> a.add(RecordJson.write(r, false)));
        System.out.println(JsonCodec.PRETTY.writeValueAsString(a));
        return 0;
      }
      if (h.isEmpty()) {
        System.out.println("no versions of fact '" + factKey + "' for owner '" + owner + "'");
        return 0;
      }
      System.out.printf(
          Locale.ROOT,
          "%-3s %-24s %-24s %-24s %-24s %s%n",
          "v",
          "valid_from",
          "valid_to",
          "recorded_at",
          "expired_at",
          "text");
      for (MemoryRecord r : h) {
        System.out.printf(
            Locale.ROOT,
            "%-3d %-24s %-24s %-24s %-24s %s%s%n",
            r.version(),
            r.validFrom(),
            str(r.validTo()),
            r.recordedAt(),
            str(r.expiredAt()),
            r.text(),
            (r.origin() == null ? "" : "  (clipped from " + r.origin() + ")")
                + (r.resolution() == null ? "" : "  [" + r.resolution() + "]"));
      }
    }
    return 0;
  }

  private static String str(Object o) {
    return o == null ? "-" : o.toString();
  }
}

package dev.mnemo.cli;

import dev.mnemo.Mnemo;
import dev.mnemo.json.JsonCodec;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** Deletes an owner's records, or one record with its clipped copies. */
@Command(name = "forget", mixinStandardHelpOptions = true,
    description = "Delete every record of an owner (all versions and vectors), or one record with --id.")
final class ForgetCommand implements Callable<Integer> {
  @Mixin EngineOptions engine;
  @Option(names = "--owner", required = true) String owner;
  @Option(names = "--id", description = "Only this record (and its clipped copies).") String id;
  @Option(names = "--json", description = "Print {owner, id, deleted} as JSON.") boolean json;

  @Override
  public Integer call() throws Exception {
    engine.embedder = "none";
    try (Mnemo m = engine.open()) {
      int n = id == null ? m.forget(owner) : m.forget(owner, id);
      if (json) {
        var o = JsonCodec.MAPPER.createObjectNode().put("owner", owner);
        if (id == null) o.putNull("id");
        else o.put("id", id);
        System.out.println(JsonCodec.MAPPER.writeValueAsString(o.put("deleted", n)));
      } else {
        System.out.println("deleted " + n + " record" + (n == 1 ? "" : "s"));
      }
    }
    return 0;
  }
}

package dev.mnemo.cli;

import dev.mnemo.MemoryRecord;
import dev.mnemo.Mnemo;
import dev.mnemo.json.JsonCodec;
import dev.mnemo.json.RecordJson;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * Prints one stored record in full, as the REST API writes it ({@code GET
 * /v1/owners/{owner}/memories/{id}}). With {@code --owner} the record is read by key; without, the
 * store is scanned for the id (ids are unique across owners), which costs time linear in the store:
 * the price of not having to know the owner when an id is all one has (from {@code list}, a trace,
 * the retrieval log).
 */
@Command(
    name = "show",
    mixinStandardHelpOptions = true,
    description = "One stored record in full (JSON, every field), by id.")
final class ShowCommand implements Callable<Integer> {
  @Mixin EngineOptions engine;

  @Parameters(
      index = "0",
      paramLabel = "ID",
      description = "The record's id (from list or recall).")
  String id;

  @Option(
      names = "--owner",
      paramLabel = "OWNER",
      description = "Whose record: a direct read instead of a scan of the store.")
  String owner;

  @Override
  public Integer call() throws Exception {
    Args.id("ID", id);
    engine.embedder = "none"; // reading a record needs no model
    try (Mnemo m = engine.open()) {
      List<MemoryRecord> found = new ArrayList<>();
      if (owner != null) {
        m.get(owner, id).ifPresent(found::add);
      } else {
        m.export(
            null,
            r -> {
              if (r.id().equals(id)) found.add(r);
            });
      }
      if (found.isEmpty()) {
        System.err.println(
            "error: no record '"
                + Args.shown(id)
                + "'"
                + (owner == null ? "" : " of owner '" + Args.shown(owner) + "'")
                + " in "
                + engine.data
                + " (./mnemo list --owner OWNER shows the ids)");
        return 1;
      }
      for (MemoryRecord r : found) {
        System.out.println(JsonCodec.PRETTY.writeValueAsString(RecordJson.write(r, false)));
      }
    }
    return 0;
  }
}

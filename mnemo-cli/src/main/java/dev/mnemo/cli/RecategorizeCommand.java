package dev.mnemo.cli;

import dev.mnemo.Category;
import dev.mnemo.MemoryRecord;
import dev.mnemo.Mnemo;
import dev.mnemo.json.JsonCodec;
import dev.mnemo.json.RecordJson;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** Moves a record to another category as a recorded transformation ({@link Mnemo#recategorize}). */
@Command(
    name = "recategorize",
    mixinStandardHelpOptions = true,
    description =
        "Move a record to another category: a new version supersedes it, so history shows both.")
final class RecategorizeCommand implements Callable<Integer> {
  @Mixin EngineOptions engine;

  @Option(names = "--owner", required = true, description = "Whose records.")
  String owner;

  @Option(names = "--id", required = true, description = "The record to move.")
  String id;

  @Option(
      names = "--category",
      required = true,
      description = "episodic, semantic, procedural or task.")
  String category;

  @Option(names = "--json", description = "Print the new version as JSON.")
  boolean json;

  @Override
  public Integer call() throws Exception {
    Category c = Category.fromCode("category", category);
    Args.id("--id", id);
    try (Mnemo m = engine.open()) {
      MemoryRecord r = m.recategorize(owner, id, c);
      System.out.println(
          json
              ? JsonCodec.PRETTY.writeValueAsString(RecordJson.write(r, false))
              : r.id()
                  + " "
                  + r.category().code()
                  + " (fact_key "
                  + r.factKey()
                  + ", version "
                  + r.version()
                  + ")");
    } finally {
      engine.closeEmbedder();
    }
    return 0;
  }
}

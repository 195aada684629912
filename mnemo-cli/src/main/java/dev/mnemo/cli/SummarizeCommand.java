package dev.mnemo.cli;

import dev.mnemo.MemoryRecord;
import dev.mnemo.Mnemo;
import dev.mnemo.json.JsonCodec;
import dev.mnemo.json.RecordJson;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** Summarizes an episode into one semantic record ({@link Mnemo#summarize}). */
@Command(
    name = "summarize",
    mixinStandardHelpOptions = true,
    description =
        "Summarize an episode (a session) into one semantic record that inherits every source of its records.")
final class SummarizeCommand implements Callable<Integer> {
  @Mixin EngineOptions engine;

  @Option(names = "--owner", required = true, description = "Whose records.")
  String owner;

  @Option(names = "--episode", required = true, description = "The episode (session) id.")
  String episode;

  @Option(
      names = "--json",
      description = "Print the summary record as JSON (null when the episode has no records).")
  boolean json;

  @Override
  public Integer call() throws Exception {
    Args.length("--episode", episode, dev.mnemo.InputRules.MAX_KEY_CHARS);
    try (Mnemo m = engine.open()) {
      Optional<MemoryRecord> s = m.summarize(owner, episode);
      if (json) {
        System.out.println(
            s.isEmpty()
                ? "null"
                : JsonCodec.PRETTY.writeValueAsString(RecordJson.write(s.get(), false)));
      } else {
        System.out.println(
            s.map(r -> r.id() + " " + r.text())
                .orElse(
                    "episode '"
                        + episode
                        + "' of owner '"
                        + owner
                        + "' has no current records: nothing to summarize"));
      }
    } finally {
      engine.closeEmbedder();
    }
    return 0;
  }
}

package dev.mnemo.cli;

import dev.mnemo.MemoryRecord;
import dev.mnemo.spi.Embedder;
import dev.mnemo.spi.MemoryStore;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * Re-embeds a store with the configured embedder: what to run after changing the embedding model,
 * since an engine refuses to open a store whose vectors came from another model. Every record whose
 * vector is missing or from another model gets a new one; records keep their ids, times and
 * versions. Each batch is one durable write, so an interrupted run loses nothing and a rerun
 * continues where it stopped (records already re-embedded are skipped).
 */
@Command(
    name = "reindex",
    mixinStandardHelpOptions = true,
    description = {
      "Re-embed every record of a store with the configured embedder (after a model change).",
      "Example: ./mnemo reindex --data DIR --embedder e5-small-v2-q. Safe to rerun; the server must be stopped."
    })
final class ReindexCommand implements Callable<Integer> {
  @Mixin EngineOptions engine;

  @Option(
      names = "--batch",
      defaultValue = "256",
      description = "Records per durable write (default: ${DEFAULT-VALUE}).")
  int batch;

  @Option(names = "--json", description = "Print {reembedded, current, model} as JSON.")
  boolean json;

  @Option(
      names = "--all",
      description =
          "Re-embed records of the configured model too (after a change of what is "
              + "embedded, e.g. the fact key's words before the text since 2026-12-02).")
  boolean all;

  @Override
  public Integer call() {
    if (batch < 1) throw new IllegalArgumentException("--batch must be >= 1, was " + batch);
    Embedder embedder = engine.embedder();
    if (embedder == null) {
      throw new IllegalArgumentException(
          "reindex re-embeds with the configured embedder; --embedder none has none");
    }
    String model = embedder.modelId();
    int[] counts = new int[2]; // re-embedded, already current
    try (MemoryStore store = engine.store(engine.data)) {
      List<MemoryRecord> pending = new ArrayList<>();
      // export reads one snapshot of the index; batches written meanwhile do not disturb it
      store.export(
          null,
          r -> {
            if (!all && r.embedding() != null && model.equals(r.embeddingModel())) {
              counts[1]++;
              return;
            }
            pending.add(r);
            if (pending.size() >= batch) counts[0] += flush(store, embedder, pending);
          });
      counts[0] += flush(store, embedder, pending);
    } finally {
      engine.closeEmbedder();
    }
    if (json) {
      System.out.println(
          dev.mnemo.json.JsonCodec.object()
              .put("reembedded", counts[0])
              .put("current", counts[1])
              .put("model", model)
              .toString());
    } else {
      System.out.println(
          "re-embedded "
              + counts[0]
              + " records with "
              + model
              + " ("
              + counts[1]
              + " were current)");
    }
    return 0;
  }

  private static int flush(MemoryStore store, Embedder embedder, List<MemoryRecord> pending) {
    if (pending.isEmpty()) return 0;
    // what the write path embeds: the fact key's words and the text
    List<float[]> vectors =
        embedder.embedPassages(
            pending.stream()
                .map(r -> dev.mnemo.text.Words.withFactKey(r.factKey(), r.text()))
                .toList());
    List<MemoryRecord> out = new ArrayList<>(pending.size());
    for (int i = 0; i < pending.size(); i++)
      out.add(pending.get(i).withEmbedding(vectors.get(i), embedder.modelId()));
    store.apply(out, List.of());
    int n = out.size();
    pending.clear();
    return n;
  }
}

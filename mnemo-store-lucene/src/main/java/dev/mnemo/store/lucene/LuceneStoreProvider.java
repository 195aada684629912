package dev.mnemo.store.lucene;

import dev.mnemo.InvalidRequestException;
import dev.mnemo.spi.MemoryStore;
import dev.mnemo.spi.StoreProvider;
import java.nio.file.Path;
import java.util.Map;

/** Provides the embedded Lucene store under the name {@code lucene}; config key {@code dir}. */
public final class LuceneStoreProvider implements StoreProvider {
  @Override
  public String name() {
    return "lucene";
  }

  @Override
  public MemoryStore open(Map<String, String> config) {
    String dir = config.get("dir");
    if (dir == null || dir.isBlank()) {
      throw new InvalidRequestException("dir", dir, "the lucene store needs a directory (config key 'dir'), was " + dir);
    }
    return LuceneMemoryStore.open(Path.of(dir));
  }
}

package dev.mnemo.client;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.Mnemo;
import dev.mnemo.store.lucene.LuceneMemoryStore;
import dev.mnemo.testkit.HashingEmbedder;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The shared behaviour on the embedded engine (the reference). */
class EmbeddedBehaviourTest extends MnemoBehaviourContract {
  @TempDir static Path dir;
  static Mnemo mnemo;

  @BeforeAll
  static void open() {
    mnemo =
        Mnemo.builder().store(LuceneMemoryStore.open(dir)).embedder(new HashingEmbedder()).build();
  }

  @AfterAll
  static void close() {
    mnemo.close();
  }

  @Override
  Mnemo mnemo() {
    return mnemo;
  }

  @Test
  void theEmbeddedEngineHasEveryFacet() {
    assertThat(mnemo.maintenance()).isPresent();
    assertThat(mnemo.retrievalLog()).isPresent();
    assertThat(mnemo.diagnostics()).isPresent();
  }
}

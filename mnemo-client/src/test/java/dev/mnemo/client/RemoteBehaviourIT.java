package dev.mnemo.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mnemo.Mnemo;
import dev.mnemo.NewMemory;
import dev.mnemo.RecallLogQuery;
import dev.mnemo.RecallRequest;
import dev.mnemo.RetrievalLog;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The shared behaviour through {@link MnemoClient} against the real server. */
class RemoteBehaviourIT extends MnemoBehaviourContract {
  @TempDir static Path dir;
  static LocalServer server;
  static MnemoClient client;

  @BeforeAll
  static void start() {
    server = new LocalServer(dir);
    client = server.client("acme");
  }

  @AfterAll
  static void stop() {
    client.close();
    server.close();
  }

  @Override
  Mnemo mnemo() {
    return client;
  }

  @Test
  void theClientHasWhatTheServerServes_andSaysWhatItLacksInItsType() {
    assertThat(client.retrievalLog()).isPresent();
    assertThat(client.maintenance())
        .as("the server serves no turn export, import, restore or retention")
        .isEmpty();
    assertThat(client.diagnostics()).isEmpty();
  }

  @Test
  void aReplayChangingMoreThanThresholdAndWeights_isRefusedBeforeAnyCall()
      throws InterruptedException {
    client.remember(NewMemory.builder("rpl", "Maya drinks green tea.").build());
    client.recall(RecallRequest.builder("rpl", "What does Maya drink?").build());
    RetrievalLog log = client.retrievalLog().orElseThrow();
    RecallLogQuery mine = RecallLogQuery.all(1).withOwner("rpl");
    long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(10);
    while (log.countRecalls(mine) == 0 && System.nanoTime() < deadline) Thread.sleep(20);
    String id = log.recalls(mine).get(0).id();
    assertThatThrownBy(() -> log.replay(id, b -> b.k(1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("threshold and weights only")
        .hasMessageContaining("k");
  }
}

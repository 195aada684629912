package dev.mnemo.store.lucene;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.MemoryRecord;
import dev.mnemo.Mnemo;
import dev.mnemo.NewMemory;
import dev.mnemo.testkit.HashingEmbedder;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Restart durability without a clean shutdown: a child JVM writes, prints each acknowledged id, and
 * halts without closing anything; the store must reopen with every acknowledged record.
 */
class AbruptStopIT {

  /** The child: writes records one by one, prints each id once acknowledged, then halts. */
  public static void main(String[] args) {
    Mnemo m =
        Mnemo.builder()
            .store(LuceneMemoryStore.open(Path.of(args[0])))
            .embedder(new HashingEmbedder())
            .build();
    int n = Integer.parseInt(args[1]);
    for (int i = 0; i < n; i++) {
      MemoryRecord r =
          m.remember(
              NewMemory.builder("owner", "acknowledged memory " + i)
                  .factKey("k" + (i % 3))
                  .build());
      System.out.println("ACK " + r.id());
      System.out.flush();
    }
    Runtime.getRuntime().halt(0); // no close, no commit-on-close: an abrupt stop
  }

  @Test
  void reopenAfterHalt_everyAcknowledgedWriteIsThere(@TempDir Path dir) throws Exception {
    Path index = dir.resolve("index");
    Path out = dir.resolve("child.out");
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    Process p =
        new ProcessBuilder(
                java,
                "--add-modules",
                "jdk.incubator.vector",
                "-cp",
                System.getProperty("java.class.path"),
                AbruptStopIT.class.getName(),
                index.toString(),
                "25")
            .redirectErrorStream(true)
            .redirectOutput(out.toFile())
            .start();
    assertThat(p.waitFor(120, TimeUnit.SECONDS)).as("child finished").isTrue();

    List<String> acked = new ArrayList<>();
    for (String line : Files.readAllLines(out))
      if (line.startsWith("ACK ")) acked.add(line.substring(4));
    assertThat(acked)
        .as("child output: %s", String.join(File.separator, Files.readAllLines(out)))
        .hasSize(25);

    try (Mnemo m =
        Mnemo.builder()
            .store(LuceneMemoryStore.open(index))
            .embedder(new HashingEmbedder())
            .build()) {
      for (String id : acked) assertThat(m.get("owner", id)).as(id).isPresent();
      assertThat(m.history("owner", "k0")).isNotEmpty();
    }
  }
}

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

  /**
   * The child: writes records one by one, prints each id once acknowledged, then halts. With a
   * third argument W, W threads write at once (sharing syncs) and the JVM halts once N writes were
   * acknowledged in all, while the others are still writing; a fourth argument B checkpoints the
   * store every B bytes of write-ahead log (commits and log files deleted while writers write).
   */
  public static void main(String[] args) throws InterruptedException {
    if (args.length > 2) {
      concurrent(
          Path.of(args[0]),
          Integer.parseInt(args[1]),
          Integer.parseInt(args[2]),
          args.length > 3 ? Long.parseLong(args[3]) : StoreWriter.CHECKPOINT_BYTES);
      return;
    }
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

  private static void concurrent(Path index, int n, int writers, long checkpointBytes)
      throws InterruptedException {
    LuceneMemoryStore store = LuceneMemoryStore.open(index);
    store.writer.checkpointBytes = checkpointBytes;
    Mnemo m = Mnemo.builder().store(store).embedder(new HashingEmbedder()).build();
    java.util.concurrent.CountDownLatch acked = new java.util.concurrent.CountDownLatch(n);
    for (int w = 0; w < writers; w++) {
      String owner = "owner-" + w;
      Thread t =
          new Thread(
              () -> {
                for (int i = 0; ; i++) {
                  MemoryRecord r =
                      m.remember(NewMemory.builder(owner, "memory " + i + " of " + owner).build());
                  synchronized (System.out) {
                    System.out.println("ACK " + owner + " " + r.id());
                    System.out.flush();
                  }
                  acked.countDown();
                }
              });
      t.setDaemon(true);
      t.start();
    }
    acked.await();
    Runtime.getRuntime().halt(0); // other writers mid-commit: an abrupt stop
  }

  @Test
  void concurrentWriters_haltedMidCommit_everyAcknowledgedWriteIsThere(@TempDir Path dir)
      throws Exception {
    Path index = dir.resolve("index");
    everyAcknowledgedIsThere(runChild(dir, 300, index.toString(), "60", "6"), index, 60);
  }

  /** As above, with a checkpoint every 16 KB of log: commits and deleted log files mid-stream. */
  @Test
  void concurrentWriters_haltedWhileCheckpointing_everyAcknowledgedWriteIsThere(@TempDir Path dir)
      throws Exception {
    Path index = dir.resolve("index");
    everyAcknowledgedIsThere(runChild(dir, 300, index.toString(), "200", "6", "16384"), index, 200);
  }

  /** The concurrent child's acknowledged writes ("ACK owner id"), at least n, all in the store. */
  private static void everyAcknowledgedIsThere(Path out, Path index, int n) throws Exception {
    List<String[]> acked = new ArrayList<>();
    for (String line : Files.readAllLines(out))
      if (line.startsWith("ACK ")) acked.add(line.substring(4).split(" "));
    assertThat(acked)
        .as("child output: %s", String.join(File.separator, Files.readAllLines(out)))
        .hasSizeGreaterThanOrEqualTo(n);
    try (LuceneMemoryStore store = LuceneMemoryStore.open(index)) {
      for (String[] a : acked) assertThat(store.get(a[0], a[1])).as(a[1]).isPresent();
    }
  }

  @Test
  void reopenAfterHalt_everyAcknowledgedWriteIsThere(@TempDir Path dir) throws Exception {
    Path index = dir.resolve("index");
    Path out = runChild(dir, 120, index.toString(), "25");

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

  /**
   * Runs this class's {@code main} with {@code args} in a JVM of its own (it halts itself), waits
   * for it and returns the file holding its output.
   */
  private static Path runChild(Path dir, int timeoutSeconds, String... args) throws Exception {
    Path out = dir.resolve("child.out");
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    List<String> command =
        new ArrayList<>(
            List.of(
                java,
                "--add-modules",
                "jdk.incubator.vector",
                "-cp",
                System.getProperty("java.class.path"),
                AbruptStopIT.class.getName()));
    command.addAll(List.of(args));
    Process p =
        new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(out.toFile()).start();
    assertThat(p.waitFor(timeoutSeconds, TimeUnit.SECONDS)).as("child finished").isTrue();
    return out;
  }
}

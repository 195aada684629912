package dev.mnemo.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.Mnemo;
import dev.mnemo.NewMemory;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Ten thousand tenants on one server: stores open on first use and close when idle, extraction runs
 * on a shared pool, so file handles and threads stay bounded however many tenants exist. Prints
 * what it measured (the numbers in docs/security.md).
 */
class ManyTenantsIT {
  static final int TENANTS = Integer.getInteger("mnemo.tenants", 10_000);

  @TempDir Path dir;

  private static long openFiles() {
    try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
      return fds.count();
    } catch (IOException e) {
      return -1; // not Linux: the thread and tenant checks still run
    }
  }

  private static void copy(Path from, Path to) throws IOException {
    try (Stream<Path> walk = Files.walk(from)) {
      for (Path p : walk.toList()) {
        Path target = to.resolve(from.relativize(p).toString());
        if (Files.isDirectory(p)) Files.createDirectories(target);
        // a hard link: Lucene never changes a file it wrote, so tenants may share them on disk
        else if (!p.getFileName().toString().equals("write.lock")) Files.createLink(target, p);
      }
    }
  }

  private static int threads() {
    return ManagementFactory.getThreadMXBean().getThreadCount();
  }

  @Test
  void tenThousandTenants_holdBoundedHandlesAndThreads() throws Exception {
    // The tenants exist on disk before the server starts: one store written once, linked. (Creating
    // a store costs two commits with fsync, about 60 ms here; that is setup, not what is measured.)
    Path template = dir.resolve("template");
    try (Mnemo m = TestServer.engine("template", template, 8000)) {
      m.remember(NewMemory.builder("o", "a tenant keeps one memory").build());
    }
    long c0 = System.nanoTime();
    // two threads (the machine has two cores): setup, not what is measured
    java.util.stream.IntStream.range(0, TENANTS)
        .parallel()
        .forEach(
            i -> {
              try {
                copy(template, dir.resolve("data/tenants/t" + i));
              } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
              }
            });
    long files;
    try (Stream<Path> walk = Files.walk(template)) {
      files = walk.filter(Files::isRegularFile).count();
    }
    System.out.printf(
        "many tenants: %d stores of %d files linked in %.1f s%n",
        TENANTS, files, (System.nanoTime() - c0) / 1e9);
    ServerConfig c =
        ServerConfig.defaults()
            .withPort(0)
            .withData(dir.resolve("data"))
            .withAdminKey(TestServer.ADMIN)
            .withLogRequests(false)
            .withTenantIdle(Duration.ofMillis(200));
    try (TestServer s =
        new TestServer(MnemoServer.builder(c, TestServer::engine).build().start())) {
      long files0 = openFiles();
      int threads0 = threads();
      long t0 = System.nanoTime();
      int peakThreads = 0;
      long peakFiles = 0;
      // two clients at once (the machine has two cores), each tenant used once
      java.util.concurrent.atomic.AtomicInteger next =
          new java.util.concurrent.atomic.AtomicInteger();
      java.util.concurrent.atomic.AtomicInteger peakT =
          new java.util.concurrent.atomic.AtomicInteger();
      java.util.concurrent.atomic.AtomicLong peakF = new java.util.concurrent.atomic.AtomicLong();
      Runnable client =
          () -> {
            for (int i = next.getAndIncrement(); i < TENANTS; i = next.getAndIncrement()) {
              Mnemo m = s.server.memory("t" + i);
              if (i % 1000 == 0) {
                m.remember(
                    NewMemory.builder("o", "tenant " + i + " keeps one more memory")
                        .build()); // a few write
              } else {
                m.get("o", "none"); // most only read
              }
              if (i % 250 == 0) {
                peakT.accumulateAndGet(threads(), Math::max);
                peakF.accumulateAndGet(openFiles(), Math::max);
              }
            }
          };
      Thread a = Thread.ofPlatform().start(client);
      Thread b = Thread.ofPlatform().start(client);
      a.join();
      b.join();
      peakThreads = peakT.get();
      peakFiles = peakF.get();
      double seconds = (System.nanoTime() - t0) / 1e9;
      long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
      long w0 = System.nanoTime();
      // readiness reports the open count cheaply (a /metrics scrape walks every tenant's files for
      // the index size)
      while (s.send("GET", "/health/ready", null, null).json().get("tenants_open").asInt() > 0
          && System.nanoTime() < deadline) {
        Thread.sleep(100);
      }
      long w1 = System.nanoTime();
      String metrics = s.send("GET", "/metrics", TestServer.ADMIN, null).body();
      System.out.printf(
          "many tenants: idle close waited %.1f s, one /metrics scrape %.1f s%n",
          (w1 - w0) / 1e9, (System.nanoTime() - w1) / 1e9);
      long files1 = openFiles();
      int threads1 = threads();
      Runtime rt = Runtime.getRuntime();
      System.gc();
      long heapMb = (rt.totalMemory() - rt.freeMemory()) >> 20;
      System.out.printf(
          "many tenants: %d tenants in %.1f s (%.2f ms each); open files %d -> peak %d -> %d after idle close; "
              + "threads %d -> peak %d -> %d; heap used %d MB%n",
          TENANTS,
          seconds,
          seconds * 1000 / TENANTS,
          files0,
          peakFiles,
          files1,
          threads0,
          peakThreads,
          threads1,
          heapMb);

      assertThat(metrics).contains("mnemo_tenants_open 0.0");
      assertThat(threads1).as("no thread per tenant").isLessThan(threads0 + 32);
      assertThat(peakThreads).isLessThan(threads0 + 64);
      if (files0 >= 0) {
        assertThat(files1).as("idle tenants hold no file handle").isLessThan(files0 + 64);
        assertThat(peakFiles).as("only recently used tenants are open").isLessThan(files0 + 4_000);
      }
      // a closed tenant reopens on its next request, with its data
      Mnemo again = s.server.memory("t0");
      assertThat(
              again
                  .recall(
                      dev.mnemo.RecallRequest.builder("o", "tenant memory").threshold(0).build())
                  .ids())
          .hasSize(2);
    }
    // the clean-up of 10,000 stores, on two threads too (JUnit's would walk them on one)
    long d0 = System.nanoTime();
    try (Stream<Path> tenants = Files.list(dir.resolve("data/tenants"))) {
      tenants.toList().parallelStream().forEach(ManyTenantsIT::deleteTree);
    }
    System.out.printf("many tenants: stores deleted in %.1f s%n", (System.nanoTime() - d0) / 1e9);
  }

  private static void deleteTree(Path root) {
    try (Stream<Path> walk = Files.walk(root)) {
      for (Path p : walk.sorted(java.util.Comparator.reverseOrder()).toList()) Files.delete(p);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}

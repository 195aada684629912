package dev.mnemo.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Crash safety of the real server process: concurrent writes over HTTP, SIGKILL in the middle of
 * them (so some writes are in flight: sent, not acknowledged), restart on the same data, three
 * times. After every restart the stores open, the server is ready, every acknowledged write is
 * there, nothing that was never sent is there, and every batch is there whole or not at all.
 */
class CrashIT {
  @TempDir Path dir;

  private static final class ServerProcess implements AutoCloseable {
    final Process process;
    final int port;

    ServerProcess(Path data, Path log) throws Exception {
      String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
      ProcessBuilder pb = new ProcessBuilder(java, "-Xmx512m", "-XX:TieredStopAtLevel=1", "-cp",
          System.getProperty("java.class.path"), CrashServerMain.class.getName(), data.toString());
      pb.environment().put("MNEMO_ADMIN_KEY", TestServer.ADMIN);
      pb.environment().put("MNEMO_LOG_REQUESTS", "false");
      pb.redirectError(ProcessBuilder.Redirect.appendTo(log.toFile()));
      process = pb.start();
      BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      Integer p = null;
      while (p == null && System.nanoTime() < deadline) {
        String line = out.readLine();
        if (line == null) throw new AssertionError("the server exited before listening; see " + log);
        if (line.startsWith("PORT=")) p = Integer.parseInt(line.substring(5));
      }
      if (p == null) throw new AssertionError("the server did not listen within 30 s; see " + log);
      port = p;
    }

    /** SIGKILL on Linux: no shutdown hook, no close, no flush. */
    void kill() throws InterruptedException {
      process.destroyForcibly();
      assertThat(process.waitFor(10, TimeUnit.SECONDS)).isTrue();
    }

    @Override
    public void close() {
      if (process.isAlive()) process.destroyForcibly();
    }
  }

  @Test
  void sigkillMidLoad_losesNoAcknowledgedWrite_threeTimesOver() throws Exception {
    Path data = dir.resolve("data");
    Path log = dir.resolve("server.log");
    Set<String> acknowledged = ConcurrentHashMap.newKeySet();      // texts answered 201
    Map<String, List<String>> batches = new ConcurrentHashMap<>(); // batch tag -> its texts, for every batch sent
    Set<String> sent = ConcurrentHashMap.newKeySet();              // every text ever sent
    String key = null;
    int pendingAtKills = 0;
    for (int round = 1; round <= 4; round++) {
      try (ServerProcess p = new ServerProcess(data, log)) {
        TestServer s = new TestServer("http://127.0.0.1:" + p.port);
        assertThat(s.send("GET", "/health/ready", null, null).status()).as("round " + round).isEqualTo(200);
        if (key == null) key = s.key("acme");
        verify(s, key, acknowledged, sent, batches, round);
        if (round == 4) break;
        String k = key;
        int r = round;
        AtomicBoolean running = new AtomicBoolean(true);
        AtomicInteger inFlight = new AtomicInteger();
        AtomicInteger acked = new AtomicInteger();
        ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor();
        for (int w = 0; w < 8; w++) {
          int ww = w;
          pool.submit(() -> {
            for (int i = 0; running.get(); i++) {
              boolean batch = i % 3 == 2;
              String tag = "r" + r + "w" + ww + "i" + i;
              List<String> texts = batch ? List.of(tag + "a note", tag + "b note", tag + "c note") : List.of(tag + " note");
              StringBuilder body = new StringBuilder(batch ? "{\"records\":[" : "");
              for (int j = 0; j < texts.size(); j++) {
                body.append(j == 0 ? "" : ",").append("{\"owner\":\"o").append(ww % 3).append("\",\"text\":\"")
                    .append(texts.get(j)).append("\"}");
              }
              if (batch) body.append("]}");
              sent.addAll(texts);
              if (batch) batches.put(tag, texts);
              inFlight.incrementAndGet();
              try {
                TestServer.Response resp = s.send("POST", "/v1/memories", k, body.toString());
                if (resp.status() == 201) {
                  acknowledged.addAll(texts);
                  acked.incrementAndGet();
                }
              } catch (RuntimeException e) {
                return; // the server died under this request: not acknowledged
              } finally {
                inFlight.decrementAndGet();
              }
            }
          });
        }
        long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(1500);
        while (System.nanoTime() < until || acked.get() < 20) Thread.sleep(20);
        int pending = inFlight.get();
        pendingAtKills += pending;
        p.kill();
        System.out.printf("crash round %d: %d requests acknowledged, %d in flight at SIGKILL%n", round, acked.get(), pending);
        running.set(false);
        pool.shutdown();
        assertThat(pool.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
      }
    }
    // Some writes were sent and not answered when the process died, and the restart coped with them.
    assertThat(pendingAtKills).as("requests in flight at the kills").isGreaterThan(0);
    assertThat(acknowledged.size()).isGreaterThan(60);
  }

  private static void verify(TestServer s, String key, Set<String> acknowledged, Set<String> sent,
      Map<String, List<String>> batches, int round) {
    TestServer.Response r = s.send("GET", "/v1/export", key, null);
    assertThat(r.status()).isEqualTo(200);
    Set<String> present = new HashSet<>();
    for (String line : r.body().split("\n")) {
      if (line.isBlank()) continue;
      JsonNode rec = new TestServer.Response(200, "", line, null).json();
      present.add(rec.get("text").asText());
    }
    Set<String> lost = new HashSet<>(acknowledged);
    lost.removeAll(present);
    assertThat(lost).as("acknowledged writes missing after restart " + round).isEmpty();
    Set<String> phantom = new HashSet<>(present);
    phantom.removeAll(sent);
    assertThat(phantom).as("records nobody sent").isEmpty();
    Map<String, Integer> partial = new HashMap<>();
    batches.forEach((tag, texts) -> {
      long n = texts.stream().filter(present::contains).count();
      if (n != 0 && n != texts.size()) partial.put(tag, (int) n);
    });
    assertThat(partial).as("batches present in part").isEmpty();
    TestServer.Response recall = s.send("POST", "/v1/recall", key, "{\"owner\":\"o1\",\"text\":\"note\"}");
    assertThat(recall.status()).isEqualTo(200);
  }
}

package dev.mnemo.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.BufferedReader;
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
      ProcessBuilder pb =
          new ProcessBuilder(
              java,
              "-Xmx512m",
              "-XX:TieredStopAtLevel=1",
              "-cp",
              System.getProperty("java.class.path"),
              CrashServerMain.class.getName(),
              data.toString());
      pb.environment().put("MNEMO_ADMIN_KEY", TestServer.ADMIN);
      pb.environment().put("MNEMO_LOG_REQUESTS", "false");
      pb.redirectError(ProcessBuilder.Redirect.appendTo(log.toFile()));
      process = pb.start();
      BufferedReader out =
          new BufferedReader(
              new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      Integer p = null;
      while (p == null && System.nanoTime() < deadline) {
        String line = out.readLine();
        if (line == null)
          throw new AssertionError("the server exited before listening; see " + log);
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
    Set<String> acknowledged = ConcurrentHashMap.newKeySet(); // texts answered 201
    Map<String, List<String>> batches =
        new ConcurrentHashMap<>(); // batch tag -> its texts, for every batch sent
    Set<String> sent = ConcurrentHashMap.newKeySet(); // every text ever sent
    String key = null;
    int pendingAtKills = 0;
    for (int round = 1; round <= 4; round++) {
      try (ServerProcess p = new ServerProcess(data, log)) {
        TestServer s = new TestServer("http://127.0.0.1:" + p.port);
        assertThat(s.send("GET", "/health/ready", null, null).status())
            .as("round " + round)
            .isEqualTo(200);
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
          pool.submit(
              () -> {
                for (int i = 0; running.get(); i++) {
                  boolean batch = i % 3 == 2;
                  String tag = "r" + r + "w" + ww + "i" + i;
                  List<String> texts =
                      batch
                          ? List.of(tag + "a note", tag + "b note", tag + "c note")
                          : List.of(tag + " note");
                  StringBuilder body = new StringBuilder(batch ? "{\"records\":[" : "");
                  for (int j = 0; j < texts.size(); j++) {
                    body.append(j == 0 ? "" : ",")
                        .append("{\"owner\":\"o")
                        .append(ww % 3)
                        .append("\",\"text\":\"")
                        .append(texts.get(j))
                        .append("\"}");
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
        System.out.printf(
            "crash round %d: %d requests acknowledged, %d in flight at SIGKILL%n",
            round, acked.get(), pending);
        running.set(false);
        pool.shutdown();
        assertThat(pool.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
      }
    }
    // Some writes were sent and not answered when the process died, and the restart coped with
    // them.
    assertThat(pendingAtKills).as("requests in flight at the kills").isGreaterThan(0);
    assertThat(acknowledged.size()).isGreaterThan(60);
  }

  /**
   * SIGKILL while the server ingests turns (the background pass extracting them), forgets owners
   * (each forget merges its deletions away) and takes many small commits (so segments merge in the
   * background), three times. After each restart: every acknowledged turn is stored (sending it
   * again is a duplicate), every acknowledged record is there, no forgotten owner has a record, no
   * record names a turn nobody sent, and the pending turns are extracted with none dead-lettered.
   */
  @Test
  void sigkillDuringIngestForgetAndMerges_losesNothingAcknowledged_andForgottenStaysGone()
      throws Exception {
    Path data = dir.resolve("data");
    Path log = dir.resolve("server.log");
    Set<String> acknowledged = ConcurrentHashMap.newKeySet();
    Set<String> sent = ConcurrentHashMap.newKeySet();
    Map<String, String> ackedTurns = new ConcurrentHashMap<>(); // turn id -> its JSON
    Set<String> sentTurns = ConcurrentHashMap.newKeySet();
    Set<String> forgotten = ConcurrentHashMap.newKeySet();
    String key = null;
    int inFlightAtKills = 0;
    int forgetsAcked = 0;
    for (int round = 1; round <= 4; round++) {
      try (ServerProcess p = new ServerProcess(data, log)) {
        TestServer s = new TestServer("http://127.0.0.1:" + p.port);
        assertThat(s.send("GET", "/health/ready", null, null).status())
            .as("round " + round)
            .isEqualTo(200);
        if (key == null) key = s.key("acme");
        verify(s, key, acknowledged, sent, Map.of(), round);
        verifyIngestAndForget(s, key, ackedTurns, sentTurns, forgotten, round);
        if (round == 4) break;
        String k = key;
        int r = round;
        AtomicBoolean running = new AtomicBoolean(true);
        AtomicInteger inFlight = new AtomicInteger();
        AtomicInteger acked = new AtomicInteger();
        AtomicInteger forgets = new AtomicInteger();
        ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor();
        String at = java.time.Instant.now().minusSeconds(120).toString();
        for (int w = 0; w < 8; w++) {
          int ww = w;
          pool.submit(
              () -> {
                for (int i = 0; running.get(); i++) {
                  String tag = "r" + r + "w" + ww + "i" + i;
                  inFlight.incrementAndGet();
                  try {
                    if (ww < 4) { // ingest two turns of one owner
                      String[] ids = {"t-" + tag + "a", "t-" + tag + "b"};
                      String[] turns = new String[2];
                      for (int j = 0; j < 2; j++) {
                        turns[j] =
                            "{\"id\":\""
                                + ids[j]
                                + "\",\"owner\":\"u"
                                + ww
                                + "\",\"role\":\"user\",\"text\":\""
                                + (j == 0
                                    ? "I live in Town" + tag.replace("-", "") + "."
                                    : "My favourite colour is Hue" + tag + ".")
                                + "\",\"at\":\""
                                + at
                                + "\"}";
                        sentTurns.add(ids[j]);
                      }
                      TestServer.Response resp =
                          s.send(
                              "POST",
                              "/v1/ingest",
                              k,
                              "{\"turns\":[" + turns[0] + "," + turns[1] + "]}");
                      if (resp.status() == 200) {
                        for (JsonNode id : resp.json().get("accepted")) {
                          ackedTurns.put(
                              id.asText(), id.asText().equals(ids[0]) ? turns[0] : turns[1]);
                        }
                        acked.incrementAndGet();
                      }
                    } else if (ww
                        < 7) { // single records: a commit each, so segments pile up and merge
                      String text = tag + " note";
                      sent.add(text);
                      if (s.send(
                                  "POST",
                                  "/v1/memories",
                                  k,
                                  "{\"owner\":\"o" + ww + "\",\"text\":\"" + text + "\"}")
                              .status()
                          == 201) {
                        acknowledged.add(text);
                        acked.incrementAndGet();
                      }
                    } else { // an owner written, then forgotten (the forget merges its deletions
                      // away)
                      String owner = "gone-" + tag;
                      for (int j = 0; j < 3; j++) {
                        String text = tag + " secret " + j;
                        sent.add(text);
                        s.send(
                            "POST",
                            "/v1/memories",
                            k,
                            "{\"owner\":\"" + owner + "\",\"text\":\"" + text + "\"}");
                      }
                      int status = s.send("DELETE", "/v1/owners/" + owner, k, null).status();
                      if (status < 300) {
                        forgotten.add(owner);
                        forgets.incrementAndGet();
                      }
                    }
                  } catch (RuntimeException e) {
                    return; // the server died under this request: not acknowledged
                  } finally {
                    inFlight.decrementAndGet();
                  }
                }
              });
        }
        long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(2000);
        while (System.nanoTime() < until || acked.get() < 20 || forgets.get() < 1) Thread.sleep(20);
        int pending = inFlight.get();
        inFlightAtKills += pending;
        forgetsAcked += forgets.get();
        p.kill();
        System.out.printf(
            "ingest crash round %d: %d requests acknowledged, %d owners forgotten, %d in flight at SIGKILL%n",
            round, acked.get(), forgets.get(), pending);
        running.set(false);
        pool.shutdown();
        assertThat(pool.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
      }
    }
    assertThat(inFlightAtKills).as("requests in flight at the kills").isGreaterThan(0);
    assertThat(ackedTurns.size()).isGreaterThan(20);
    assertThat(forgetsAcked).isGreaterThan(0);
  }

  private static void verifyIngestAndForget(
      TestServer s,
      String key,
      Map<String, String> ackedTurns,
      Set<String> sentTurns,
      Set<String> forgotten,
      int round)
      throws InterruptedException {
    // every acknowledged turn is stored: sending it again is a duplicate (in batches within the
    // limit)
    List<String> all = List.copyOf(ackedTurns.keySet());
    for (int i = 0; i < all.size(); i += 50) {
      List<String> ids = all.subList(i, Math.min(all.size(), i + 50));
      StringBuilder body = new StringBuilder("{\"turns\":[");
      for (int j = 0; j < ids.size(); j++)
        body.append(j == 0 ? "" : ",").append(ackedTurns.get(ids.get(j)));
      TestServer.Response r = s.send("POST", "/v1/ingest", key, body.append("]}").toString());
      assertThat(r.status()).as(r.toString()).isEqualTo(200);
      assertThat(r.json().get("accepted"))
          .as("acknowledged turns missing after restart " + round)
          .isEmpty();
      assertThat(r.json().get("duplicates")).hasSize(ids.size());
    }
    // the turns pending at the kill are extracted after the restart, none dead-lettered
    JsonNode progress = s.send("GET", "/v1/ingest/progress", key, null).json();
    System.out.printf(
        "ingest crash restart %d: %d acknowledged turns stored, %d pending at restart%n",
        round, all.size(), progress.get("pending").asLong());
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
    while (System.nanoTime() < deadline) {
      progress = s.send("GET", "/v1/ingest/progress", key, null).json();
      if (progress.get("pending").asLong() == 0) break;
      Thread.sleep(200);
    }
    assertThat(progress.get("pending").asLong())
        .as("pending after restart " + round + ": " + progress)
        .isZero();
    assertThat(progress.get("dead_lettered").asLong()).as(progress.toString()).isZero();
    // no forgotten owner came back, and no record names a turn nobody sent
    TestServer.Response r = s.send("GET", "/v1/export", key, null);
    for (String line : r.body().split("\n")) {
      if (line.isBlank()) continue;
      JsonNode rec = new TestServer.Response(200, "", line, null).json();
      assertThat(forgotten)
          .as("a forgotten owner's record came back after restart " + round)
          .doesNotContain(rec.get("owner").asText());
      for (JsonNode src : rec.path("sources")) {
        if (src.asText().startsWith("t-")) assertThat(sentTurns).contains(src.asText());
      }
    }
  }

  private static void verify(
      TestServer s,
      String key,
      Set<String> acknowledged,
      Set<String> sent,
      Map<String, List<String>> batches,
      int round) {
    TestServer.Response r = s.send("GET", "/v1/export", key, null);
    assertThat(r.status()).isEqualTo(200);
    Set<String> present = new HashSet<>();
    for (String line : r.body().split("\n")) {
      if (line.isBlank()) continue;
      JsonNode rec = new TestServer.Response(200, "", line, null).json();
      // records extracted from ingested turns name them as sources (checked by
      // verifyIngestAndForget)
      if (rec.path("sources").isEmpty()) present.add(rec.get("text").asText());
    }
    Set<String> lost = new HashSet<>(acknowledged);
    lost.removeAll(present);
    assertThat(lost).as("acknowledged writes missing after restart " + round).isEmpty();
    Set<String> phantom = new HashSet<>(present);
    phantom.removeAll(sent);
    assertThat(phantom).as("records nobody sent").isEmpty();
    Map<String, Integer> partial = new HashMap<>();
    batches.forEach(
        (tag, texts) -> {
          long n = texts.stream().filter(present::contains).count();
          if (n != 0 && n != texts.size()) partial.put(tag, (int) n);
        });
    assertThat(partial).as("batches present in part").isEmpty();
    TestServer.Response recall =
        s.send("POST", "/v1/recall", key, "{\"owner\":\"o1\",\"text\":\"note\"}");
    assertThat(recall.status()).isEqualTo(200);
  }
}

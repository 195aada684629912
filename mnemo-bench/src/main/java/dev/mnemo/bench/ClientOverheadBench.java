package dev.mnemo.bench;

import dev.mnemo.MemoryRecord;
import dev.mnemo.Mnemo;
import dev.mnemo.NewMemory;
import dev.mnemo.RecallRequest;
import dev.mnemo.client.MnemoClient;
import dev.mnemo.server.MnemoServer;
import dev.mnemo.server.ServerConfig;
import dev.mnemo.store.lucene.LuceneMemoryStore;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the wire costs: the same recalls and reads on one store, made directly on the engine and
 * through {@link MnemoClient} to an in-process {@code MnemoServer} on loopback (HTTP, JSON both
 * ways, the server's tenant layer). Requests alternate between the two paths so both see the same
 * caches and machine load; one thread, so the numbers are per-call latency, not throughput. No
 * embedder (BM25 and entities), so that the difference is not hidden under embedding time.
 *
 * <p>{@code java -cp mnemo-bench/target/benchmarks.jar dev.mnemo.bench.ClientOverheadBench
 * [records] [owners] [queries]} (defaults 2,000, 50, 1,000).
 */
public final class ClientOverheadBench {
  private static final String ADMIN = "bench-admin-key-0123456789abcdef0123456789";

  private ClientOverheadBench() {}

  public static void main(String[] args) throws Exception {
    int records = args.length > 0 ? Integer.parseInt(args[0]) : 2_000;
    int owners = args.length > 1 ? Integer.parseInt(args[1]) : 50;
    int queries = args.length > 2 ? Integer.parseInt(args[2]) : 1_000;
    Path dir = Files.createTempDirectory("mnemo-client-bench");
    AtomicReference<Mnemo> engine = new AtomicReference<>();
    MnemoServer server =
        MnemoServer.builder(
                ServerConfig.defaults()
                    .withPort(0)
                    .withData(dir)
                    .withAdminKey(ADMIN)
                    .withLogRequests(false),
                (tenant, d, max) -> {
                  Mnemo m =
                      Mnemo.builder()
                          .store(LuceneMemoryStore.open(d))
                          .withoutEmbedder()
                          .maxTextChars(max)
                          .build();
                  engine.set(m);
                  return m;
                })
            .build()
            .start();
    String url = "http://127.0.0.1:" + server.port();
    try (MnemoClient client = MnemoClient.builder().url(url).apiKey(key(url)).build()) {
      SyntheticCorpus corpus = new SyntheticCorpus(7, null);
      List<MemoryRecord> written = new ArrayList<>();
      List<NewMemory> batch = new ArrayList<>();
      for (int i = 0; i < records; i++) {
        batch.add(corpus.newMemory("owner-" + (i % owners)));
        if (batch.size() == 200 || i == records - 1) {
          written.addAll(client.rememberAll(batch));
          batch.clear();
        }
      }
      Mnemo direct = engine.get();
      List<String> questions = SyntheticCorpus.questions(queries, 11);
      int warmup = Math.min(200, queries);
      long[][] recall = {new long[queries], new long[queries]};
      long[][] get = {new long[queries], new long[queries]};
      for (int round = 0; round < 2; round++) { // round 0 warms up, round 1 is measured
        int n = round == 0 ? warmup : queries;
        for (int i = 0; i < n; i++) {
          String owner = "owner-" + (i % owners);
          RecallRequest q = RecallRequest.builder(owner, questions.get(i)).k(5).build();
          MemoryRecord r = written.get((i * 7919) % written.size());
          Mnemo[] paths = i % 2 == 0 ? new Mnemo[] {direct, client} : new Mnemo[] {client, direct};
          for (Mnemo m : paths) {
            int p = m == direct ? 0 : 1;
            long t0 = System.nanoTime();
            m.recall(q);
            long t1 = System.nanoTime();
            m.get(r.owner(), r.id());
            long t2 = System.nanoTime();
            if (round == 1) {
              recall[p][i] = t1 - t0;
              get[p][i] = t2 - t1;
            }
          }
        }
      }
      Stats[] s = {
        Stats.of("recall, engine", recall[0]),
        Stats.of("recall, client over loopback", recall[1]),
        Stats.of("get, engine", get[0]),
        Stats.of("get, client over loopback", get[1])
      };
      System.out.printf(
          Locale.ROOT,
          "%d records, %d owners, %d queries (after %d warm-up), no embedder%n",
          records,
          owners,
          queries,
          warmup);
      System.out.println(Stats.header());
      for (Stats x : s) System.out.println(x.line());
      System.out.printf(
          Locale.ROOT,
          "p50 ratio client/engine: recall %.2f, get %.2f; added p50: recall %.3f ms, get %.3f ms%n",
          s[1].p50Millis() / s[0].p50Millis(),
          s[3].p50Millis() / s[2].p50Millis(),
          s[1].p50Millis() - s[0].p50Millis(),
          s[3].p50Millis() - s[2].p50Millis());
    } finally {
      server.close();
    }
  }

  private static String key(String url) throws IOException, InterruptedException {
    try (HttpClient http = HttpClient.newHttpClient()) {
      HttpResponse<String> r =
          http.send(
              HttpRequest.newBuilder(URI.create(url + "/v1/tenants/bench/keys"))
                  .header("Authorization", "Bearer " + ADMIN)
                  .POST(HttpRequest.BodyPublishers.noBody())
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      Matcher m = Pattern.compile("\"key\"\\s*:\\s*\"([^\"]+)\"").matcher(r.body());
      if (r.statusCode() != 201 || !m.find())
        throw new IllegalStateException("no key: " + r.statusCode() + " " + r.body());
      return m.group(1);
    }
  }
}

package dev.mnemo.bench.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mnemo.json.JsonCodec;
import java.io.IOException;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code mnemo bench load}: a bounded load generator for a running {@code mnemo serve}. N clients
 * (java.net.http, one virtual thread each) send a mix of recalls and single-record writes to one
 * tenant for a fixed time and at most a fixed number of requests, after a warm-up; it reports
 * throughput, p50/p99/p99.9/max per kind and every error by status or exception, and, from the
 * server's own metrics, how many write requests shared each commit.
 *
 * <p>Loopback only: a URL whose host resolves to any non-loopback address is refused, so a typo
 * cannot turn it against someone else's machine. Measures only; the exit code does not depend on
 * any time (1 only when the server cannot be used at all).
 */
@Command(
    name = "load",
    mixinStandardHelpOptions = true,
    description = {
      "Load-test a running 'mnemo serve' on this machine: mixed recalls and writes from N concurrent clients, "
          + "for a fixed time and at most a fixed number of requests; prints throughput, p50/p99/p99.9 latency "
          + "and the error count.",
      "Needs a tenant key (--key or $MNEMO_KEY), or the admin key (--admin-key or $MNEMO_ADMIN_KEY) to issue one."
    })
final class BenchLoadCommand implements Callable<Integer> {

  @Option(
      names = "--url",
      paramLabel = "URL",
      description = "Server (loopback only; default: ${DEFAULT-VALUE}).",
      defaultValue = "http://127.0.0.1:8080")
  String url;

  @Option(
      names = "--key",
      paramLabel = "KEY",
      description = "A tenant's API key (default: $MNEMO_KEY).",
      defaultValue = "${env:MNEMO_KEY}")
  String key;

  @Option(
      names = "--admin-key",
      paramLabel = "KEY",
      description =
          "Admin key, to issue a key for --tenant when --key is not given "
              + "(default: $MNEMO_ADMIN_KEY).",
      defaultValue = "${env:MNEMO_ADMIN_KEY}")
  String adminKey;

  @Option(
      names = "--tenant",
      paramLabel = "NAME",
      description = "Tenant to issue a key for (default: ${DEFAULT-VALUE}).",
      defaultValue = "bench")
  String tenant;

  @Option(
      names = "--duration",
      paramLabel = "SECONDS",
      description = "Measured time, 1 to 600 (default: ${DEFAULT-VALUE}).",
      defaultValue = "20")
  int duration;

  @Option(
      names = "--warmup",
      paramLabel = "SECONDS",
      description = "Unmeasured time before it, 0 to 120 (default: ${DEFAULT-VALUE}).",
      defaultValue = "3")
  int warmup;

  @Option(
      names = "--max-requests",
      paramLabel = "N",
      description = "Stop after this many measured requests (default: ${DEFAULT-VALUE}).",
      defaultValue = "1000000")
  long maxRequests;

  @Option(
      names = "--clients",
      paramLabel = "N",
      description = "Concurrent clients, 1 to 512 (default: ${DEFAULT-VALUE}).",
      defaultValue = "16")
  int clients;

  @Option(
      names = "--read-ratio",
      paramLabel = "R",
      description = "Share of recalls, 0 to 1; the rest are writes (default: ${DEFAULT-VALUE}).",
      defaultValue = "0.8")
  double readRatio;

  @Option(
      names = "--owners",
      paramLabel = "N",
      description = "Owners the requests spread over (default: ${DEFAULT-VALUE}).",
      defaultValue = "100")
  int owners;

  @Option(
      names = "--preload",
      paramLabel = "N",
      description = "Records written (in batches) before the warm-up (default: ${DEFAULT-VALUE}).",
      defaultValue = "2000")
  int preload;

  @Option(
      names = "--seed",
      description = "Workload seed (default: ${DEFAULT-VALUE}).",
      defaultValue = "42")
  long seed;

  @Option(names = "--json", description = "Print the report as one JSON object.")
  boolean json;

  private static final String[] NAMES = {
    "Maya", "Ravi", "Lena", "Tomas", "Aiko", "Omar", "Sofia", "Jonas", "Priya", "Marco"
  };
  private static final String[] VERBS = {
    "prefers",
    "bought",
    "visited",
    "cooked",
    "studied",
    "repaired",
    "painted",
    "booked",
    "recommended",
    "cancelled"
  };
  private static final String[] THINGS = {
    "green tea",
    "a road bike",
    "the museum",
    "lentil soup",
    "Rust",
    "the boiler",
    "the kitchen",
    "a flight to Oslo",
    "a jazz album",
    "the gym membership",
    "sourdough bread",
    "a tent",
    "the piano",
    "a history book",
    "the garden fence"
  };
  private static final String[] WHEN = {
    "last week", "yesterday", "in May", "on Sunday", "this morning", "in 2024"
  };

  private HttpClient http;
  private URI base;

  @Override
  public Integer call() throws Exception {
    validate();
    base = URI.create(url.endsWith("/") ? url.substring(0, url.length() - 1) : url);
    check(base);
    http =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5))
            .build();
    String k = key != null && !key.isBlank() ? key : issueKey();
    preload(k);

    List<Client> workers = new ArrayList<>();
    AtomicLong budget = new AtomicLong(maxRequests);
    long start = System.nanoTime();
    long measureFrom = start + Duration.ofSeconds(warmup).toNanos();
    long end = measureFrom + Duration.ofSeconds(duration).toNanos();
    Map<String, Double> before;
    List<Thread> threads = new ArrayList<>();
    for (int c = 0; c < clients; c++) {
      Client w = new Client(k, new Random(seed * 31 + c), measureFrom, end, budget);
      workers.add(w);
      threads.add(Thread.ofVirtual().name("load-" + c).start(w));
    }
    while (System.nanoTime() < measureFrom) Thread.sleep(5);
    before = groupCommit();
    for (Thread t : threads) t.join();
    Map<String, Double> after = groupCommit();
    double seconds = Math.min(System.nanoTime(), end) - measureFrom;
    seconds = Math.max(seconds, 1) / 1e9;
    report(workers, seconds, before, after);
    return 0;
  }

  /** Refuses anything but loopback addresses, whatever the name resolves to. */
  static void check(URI u) {
    if (!"http".equals(u.getScheme()) || u.getHost() == null) {
      throw new IllegalArgumentException(
          "--url must be http://HOST:PORT on this machine, was '" + u + "'");
    }
    try {
      for (InetAddress a : InetAddress.getAllByName(u.getHost())) {
        if (!a.isLoopbackAddress()) {
          throw new IllegalArgumentException(
              "refusing to load "
                  + u.getHost()
                  + " ("
                  + a.getHostAddress()
                  + "): bench load only targets loopback addresses (127.0.0.0/8, ::1, localhost)");
        }
      }
    } catch (UnknownHostException e) {
      throw new IllegalArgumentException("cannot resolve " + u.getHost() + ": " + e.getMessage());
    }
  }

  private String issueKey() throws IOException, InterruptedException {
    if (adminKey == null || adminKey.isBlank()) {
      throw new IllegalArgumentException(
          "give a tenant key (--key or $MNEMO_KEY) or the admin key (--admin-key or $MNEMO_ADMIN_KEY)");
    }
    HttpResponse<String> r =
        send("POST", "/v1/tenants/" + tenant + "/keys", adminKey, "{\"label\":\"bench load\"}");
    if (r.statusCode() != 201)
      throw new IllegalStateException(
          "issuing a key for " + tenant + " failed: " + r.statusCode() + " " + r.body());
    return JsonCodec.READER.readTree(r.body()).get("key").asText();
  }

  private void preload(String k) throws IOException, InterruptedException {
    Random rnd = new Random(seed);
    for (int done = 0; done < preload; ) {
      int n = Math.min(100, preload - done);
      ObjectNode body = JsonCodec.object();
      ArrayNode records = body.putArray("records");
      for (int i = 0; i < n; i++) {
        records.addObject().put("owner", owner(rnd)).put("text", sentence(rnd));
      }
      HttpResponse<String> r = send("POST", "/v1/memories", k, body.toString());
      if (r.statusCode() != 201)
        throw new IllegalStateException("preload failed: " + r.statusCode() + " " + r.body());
      done += n;
    }
  }

  private String owner(Random rnd) {
    return "owner-" + rnd.nextInt(owners);
  }

  private static String sentence(Random rnd) {
    return NAMES[rnd.nextInt(NAMES.length)]
        + " "
        + VERBS[rnd.nextInt(VERBS.length)]
        + " "
        + THINGS[rnd.nextInt(THINGS.length)]
        + " "
        + WHEN[rnd.nextInt(WHEN.length)]
        + ".";
  }

  private static String question(Random rnd) {
    return "What did "
        + NAMES[rnd.nextInt(NAMES.length)]
        + " do with "
        + THINGS[rnd.nextInt(THINGS.length)]
        + "?";
  }

  private HttpResponse<String> send(String method, String path, String auth, String body)
      throws IOException, InterruptedException {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(URI.create(base + path))
            .timeout(Duration.ofSeconds(30))
            .header("Authorization", "Bearer " + auth);
    if (body != null) b.header("Content-Type", "application/json");
    b.method(
        method,
        body == null
            ? HttpRequest.BodyPublishers.noBody()
            : HttpRequest.BodyPublishers.ofString(body));
    return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  /** The server's group-commit counters, when its /metrics answers. */
  private Map<String, Double> groupCommit() {
    Map<String, Double> out = new TreeMap<>();
    try {
      HttpResponse<String> r =
          http.send(
              HttpRequest.newBuilder(URI.create(base + "/metrics")).build(),
              HttpResponse.BodyHandlers.ofString());
      for (String line : r.body().split("\n")) {
        for (String m :
            List.of("mnemo_group_commit_commits_total", "mnemo_group_commit_requests_sum")) {
          if (line.startsWith(m + " "))
            out.put(m, Double.parseDouble(line.substring(m.length() + 1).trim()));
        }
      }
    } catch (IOException | RuntimeException e) {
      // metrics are a bonus of the report
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return out;
  }

  /** One client: its own random stream, latencies of measured requests by kind. */
  private final class Client implements Runnable {
    final String key;
    final Random rnd;
    final long measureFrom;
    final long end;
    final AtomicLong budget;
    final Latencies reads = new Latencies();
    final Latencies writes = new Latencies();
    final Map<String, LongAdder> errors = new ConcurrentHashMap<>();

    Client(String key, Random rnd, long measureFrom, long end, AtomicLong budget) {
      this.key = key;
      this.rnd = rnd;
      this.measureFrom = measureFrom;
      this.end = end;
      this.budget = budget;
    }

    @Override
    public void run() {
      while (true) {
        long t0 = System.nanoTime();
        if (t0 >= end) return;
        boolean measured = t0 >= measureFrom;
        if (measured && budget.decrementAndGet() < 0) return;
        boolean read = rnd.nextDouble() < readRatio;
        String body =
            read
                ? JsonCodec.object()
                    .put("owner", owner(rnd))
                    .put("text", question(rnd))
                    .put("k", 5)
                    .toString()
                : JsonCodec.object().put("owner", owner(rnd)).put("text", sentence(rnd)).toString();
        String error = null;
        try {
          HttpResponse<String> r = send("POST", read ? "/v1/recall" : "/v1/memories", key, body);
          int expected = read ? 200 : 201;
          if (r.statusCode() != expected) error = "HTTP " + r.statusCode();
        } catch (IOException e) {
          error = e.getClass().getSimpleName();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return;
        }
        long t1 = System.nanoTime();
        if (!measured) continue;
        if (error != null) errors.computeIfAbsent(error, x -> new LongAdder()).increment();
        (read ? reads : writes).add(t1 - t0);
      }
    }
  }

  /** Latencies in nanoseconds, appended by one thread. */
  private static final class Latencies {
    long[] v = new long[4096];
    int n;

    void add(long nanos) {
      if (n == v.length) v = Arrays.copyOf(v, n * 2);
      v[n++] = nanos;
    }
  }

  private void report(
      List<Client> workers, double seconds, Map<String, Double> before, Map<String, Double> after) {
    long[] reads = merge(workers, true);
    long[] writes = merge(workers, false);
    Map<String, Long> errors = new TreeMap<>();
    for (Client c : workers) c.errors.forEach((k, v) -> errors.merge(k, v.sum(), Long::sum));
    long errorCount = errors.values().stream().mapToLong(Long::longValue).sum();
    long total = reads.length + writes.length;
    Double commits = delta(before, after, "mnemo_group_commit_commits_total");
    Double committedRequests = delta(before, after, "mnemo_group_commit_requests_sum");
    ObjectNode o = JsonCodec.object();
    o.put("url", base.toString());
    o.put("clients", clients);
    o.put("read_ratio", readRatio);
    o.put("duration_s", round(seconds));
    o.put("warmup_s", warmup);
    o.put("owners", owners);
    o.put("preload", preload);
    o.put("seed", seed);
    o.put("requests", total);
    o.put("throughput_rps", round(total / seconds));
    o.put("errors", errorCount);
    o.set("errors_by_kind", JsonCodec.tree(errors));
    o.set("recall", stats(reads, seconds));
    o.set("remember", stats(writes, seconds));
    if (commits != null && committedRequests != null && commits > 0) {
      o.put("group_commits", commits.longValue());
      o.put("write_requests_per_commit", round(committedRequests / commits));
    }
    if (json) {
      System.out.println(o.toPrettyString());
      return;
    }
    System.out.printf(
        Locale.ROOT,
        "mnemo bench load: %s, %d clients, %.0f%% recalls, %.1f s measured after %d s warm-up, "
            + "%d owners, %d records preloaded, seed %d%n",
        base,
        clients,
        readRatio * 100,
        seconds,
        warmup,
        owners,
        preload,
        seed);
    System.out.printf(
        Locale.ROOT,
        "requests  %d   throughput %.1f req/s   errors %d %s%n",
        total,
        total / seconds,
        errorCount,
        errors.isEmpty() ? "" : errors);
    line("recall", o.get("recall"));
    line("remember", o.get("remember"));
    if (o.has("group_commits")) {
      System.out.printf(
          Locale.ROOT,
          "group commit: %d commits for %.0f write requests (%.2f requests per commit)%n",
          o.get("group_commits").asLong(),
          committedRequests,
          o.get("write_requests_per_commit").asDouble());
    }
  }

  private static void line(String kind, JsonNode s) {
    System.out.printf(
        Locale.ROOT,
        "%-9s %7d  %8.1f req/s   p50 %7.2f ms   p99 %7.2f ms   p99.9 %7.2f ms   max %7.2f ms%n",
        kind,
        s.get("count").asLong(),
        s.get("rps").asDouble(),
        s.get("p50_ms").asDouble(),
        s.get("p99_ms").asDouble(),
        s.get("p999_ms").asDouble(),
        s.get("max_ms").asDouble());
  }

  private static long[] merge(List<Client> workers, boolean reads) {
    int n = 0;
    for (Client c : workers) n += (reads ? c.reads : c.writes).n;
    long[] out = new long[n];
    int i = 0;
    for (Client c : workers) {
      Latencies l = reads ? c.reads : c.writes;
      System.arraycopy(l.v, 0, out, i, l.n);
      i += l.n;
    }
    Arrays.sort(out);
    return out;
  }

  private static ObjectNode stats(long[] sorted, double seconds) {
    ObjectNode o = JsonCodec.object();
    o.put("count", sorted.length);
    o.put("rps", round(sorted.length / seconds));
    o.put("p50_ms", ms(quantile(sorted, 0.50)));
    o.put("p99_ms", ms(quantile(sorted, 0.99)));
    o.put("p999_ms", ms(quantile(sorted, 0.999)));
    o.put("max_ms", ms(sorted.length == 0 ? 0 : sorted[sorted.length - 1]));
    return o;
  }

  /** Nearest-rank quantile. */
  private static long quantile(long[] sorted, double q) {
    if (sorted.length == 0) return 0;
    int rank = (int) Math.ceil(q * sorted.length);
    return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
  }

  private static double ms(long nanos) {
    return round(nanos / 1e6);
  }

  private static double round(double v) {
    return Math.round(v * 100) / 100.0;
  }

  private static Double delta(Map<String, Double> a, Map<String, Double> b, String k) {
    return a == null || !a.containsKey(k) || !b.containsKey(k) ? null : b.get(k) - a.get(k);
  }

  /** Validates the bounds before any request. */
  void validate() {
    if (duration < 1 || duration > 600)
      throw new IllegalArgumentException("--duration must be 1 to 600 seconds, was " + duration);
    if (warmup < 0 || warmup > 120)
      throw new IllegalArgumentException("--warmup must be 0 to 120 seconds, was " + warmup);
    if (clients < 1 || clients > 512)
      throw new IllegalArgumentException("--clients must be 1 to 512, was " + clients);
    if (!(readRatio >= 0 && readRatio <= 1))
      throw new IllegalArgumentException("--read-ratio must be 0 to 1, was " + readRatio);
    if (maxRequests < 1)
      throw new IllegalArgumentException("--max-requests must be >= 1, was " + maxRequests);
    if (owners < 1) throw new IllegalArgumentException("--owners must be >= 1, was " + owners);
    if (preload < 0) throw new IllegalArgumentException("--preload must be >= 0, was " + preload);
  }
}

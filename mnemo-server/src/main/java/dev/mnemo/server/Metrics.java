package dev.mnemo.server;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * The server's meters, exposed at {@code /metrics} in the Prometheus text format.
 *
 * <ul>
 *   <li>{@code mnemo_http_requests_seconds{method,route,status}}: rate and latency per route (the
 *       route template, never the raw path, so owners and ids do not become labels);
 *   <li>{@code mnemo_recall_stage_seconds{stage}}: the read path's stages (embed, candidates, fuse,
 *       rank, pack, render, total) as the engine timed them;
 *   <li>{@code mnemo_group_commit_*}: commits, requests and records per commit, commit latency, and
 *       {@code mnemo_group_commit_queue_depth} (requests waiting);
 *   <li>{@code mnemo_index_bytes} (the data directory on disk), {@code mnemo_tenants_open}, {@code
 *       mnemo_tenants_failed} (stores that refused a write or cannot be opened; {@code
 *       /health/ready} lists them);
 *   <li>{@code mnemo_recall_log_*{tenant}}: the retrieval log's runtime rates per tenant, computed
 *       from each open tenant's log at scrape time: {@code recalls}, {@code fetch_rate}, {@code
 *       abstention_rate}, {@code mean_injected_tokens}, {@code use_rate} (with usage feedback) and
 *       {@code dropped} (entries the logger dropped under overload);
 *   <li>the JVM's memory, GC, threads, CPU and uptime.
 * </ul>
 *
 * <p>No label carries an owner or a key: their number is unbounded and they are not the operator's
 * to see in a dashboard. Only the retrieval log's rates carry the tenant (the issue asks for them
 * per tenant; tenants are the operator's own, created with the admin key). Thread-safe.
 */
final class Metrics {
  /** Latency buckets: fine below 10 ms, where recalls and commits live, coarse above. */
  private static final Duration[] BUCKETS = {
    Duration.ofNanos(250_000),
    Duration.ofNanos(500_000),
    Duration.ofMillis(1),
    Duration.ofMillis(2),
    Duration.ofMillis(5),
    Duration.ofMillis(10),
    Duration.ofMillis(25),
    Duration.ofMillis(50),
    Duration.ofMillis(100),
    Duration.ofMillis(250),
    Duration.ofMillis(500),
    Duration.ofSeconds(1),
    Duration.ofMillis(2500),
    Duration.ofSeconds(5),
    Duration.ofSeconds(10)
  };

  private final PrometheusMeterRegistry registry =
      new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
  private final Counter commits;
  private final DistributionSummary commitRequests;
  private final DistributionSummary commitRecords;
  private final Timer commitTime;

  Metrics(
      Supplier<Number> queueDepth,
      Supplier<Number> indexBytes,
      Supplier<Number> tenantsOpen,
      Supplier<Number> tenantsFailed) {
    new JvmMemoryMetrics().bindTo(registry);
    new JvmThreadMetrics().bindTo(registry);
    new ProcessorMetrics().bindTo(registry);
    new UptimeMetrics().bindTo(registry);
    @SuppressWarnings("resource") // lives as long as the registry
    JvmGcMetrics gc = new JvmGcMetrics();
    gc.bindTo(registry);
    Gauge.builder("mnemo.group_commit.queue_depth", () -> queueDepth.get())
        .description("write requests waiting for a commit")
        .register(registry);
    Gauge.builder("mnemo.index.bytes", () -> indexBytes.get())
        .description("bytes of the tenants' stores on disk")
        .baseUnit("bytes")
        .register(registry);
    Gauge.builder("mnemo.tenants.open", () -> tenantsOpen.get())
        .description("tenant stores open")
        .register(registry);
    Gauge.builder("mnemo.tenants.failed", () -> tenantsFailed.get())
        .description("tenant stores that refused a write and have not taken one since")
        .register(registry);
    commits =
        Counter.builder("mnemo.group_commit.commits")
            .description("durable commits of remember requests")
            .register(registry);
    commitRequests =
        DistributionSummary.builder("mnemo.group_commit.requests")
            .description("write requests sharing one commit")
            .publishPercentiles(0.5, 0.99)
            .register(registry);
    commitRecords =
        DistributionSummary.builder("mnemo.group_commit.records")
            .description("records in one commit")
            .publishPercentiles(0.5, 0.99)
            .register(registry);
    commitTime =
        Timer.builder("mnemo.group_commit.latency")
            .description("time of one shared commit (embed + fsync)")
            .serviceLevelObjectives(BUCKETS)
            .register(registry);
  }

  /** The methods that get their own label; anything else a client sends is {@code OTHER}. */
  static final java.util.Set<String> METHODS =
      java.util.Set.of(
          "GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "TRACE", "CONNECT");

  /**
   * Counts a request. Every label is bounded whatever a client sends: the method is one of {@link
   * #METHODS} or {@code OTHER}, the route a registered template or {@code unmatched}, the status a
   * three-digit code (else {@code other}), so no request can add label values without bound (each
   * new value is a new time series in the heap and in every scrape).
   */
  void request(String method, String route, int status, long nanos) {
    String m = method != null && METHODS.contains(method) ? method : "OTHER";
    String st = status >= 100 && status <= 599 ? Integer.toString(status) : "other";
    Timer.builder("mnemo.http.requests")
        .description("HTTP requests by route")
        .tags("method", m, "route", route == null ? "unmatched" : route, "status", st)
        .serviceLevelObjectives(BUCKETS)
        .register(registry)
        .record(nanos, TimeUnit.NANOSECONDS);
  }

  void stages(Map<String, Long> stageNanos) {
    stageNanos.forEach(
        (stage, nanos) ->
            Timer.builder("mnemo.recall.stage")
                .description("read-path stage time")
                .tag("stage", stage)
                .serviceLevelObjectives(BUCKETS)
                .register(registry)
                .record(nanos, TimeUnit.NANOSECONDS));
  }

  void committed(int requests, int records, long nanos) {
    commits.increment();
    commitRequests.record(requests);
    commitRecords.record(records);
    commitTime.record(nanos, TimeUnit.NANOSECONDS);
  }

  private volatile Supplier<Map<String, dev.mnemo.RecallStats>> recallRates;
  private final Map<String, io.micrometer.core.instrument.MultiGauge> rateGauges =
      new java.util.LinkedHashMap<>();

  /**
   * Per-tenant gauges of the retrieval log's rates, refreshed from {@code rates} at every scrape.
   */
  void recallRates(Supplier<Map<String, dev.mnemo.RecallStats>> rates) {
    this.recallRates = rates;
    for (String[] g :
        new String[][] {
          {"recalls", "recalls in the retrieval log"},
          {"fetch_rate", "share of logged recalls that selected something"},
          {"abstention_rate", "share of logged recalls that selected nothing"},
          {
            "mean_injected_tokens",
            "mean tokens of the rendered block, over recalls that selected something"
          },
          {"use_rate", "share of selected records the caller reported used"},
          {
            "dropped",
            "recalls not logged: the logger's queue was full or the log refused the write"
          }
        }) {
      rateGauges.put(
          g[0],
          io.micrometer.core.instrument.MultiGauge.builder("mnemo.recall_log." + g[0])
              .description(g[1])
              .register(registry));
    }
  }

  private synchronized void refreshRates() {
    Supplier<Map<String, dev.mnemo.RecallStats>> f = recallRates;
    if (f == null) return;
    Map<String, dev.mnemo.RecallStats> stats = f.get();
    for (var g : rateGauges.entrySet()) {
      java.util.List<io.micrometer.core.instrument.MultiGauge.Row<?>> rows =
          new java.util.ArrayList<>();
      stats.forEach(
          (tenant, s) -> {
            double v =
                switch (g.getKey()) {
                  case "recalls" -> s.recalls();
                  case "fetch_rate" -> s.fetchRate();
                  case "abstention_rate" -> s.abstentionRate();
                  case "mean_injected_tokens" -> s.meanInjectedTokens();
                  case "use_rate" -> s.useRate();
                  default -> s.dropped();
                };
            if (!Double.isNaN(v))
              rows.add(
                  io.micrometer.core.instrument.MultiGauge.Row.of(
                      io.micrometer.core.instrument.Tags.of("tenant", tenant), v));
          });
      g.getValue().register(rows, true);
    }
  }

  String scrape() {
    refreshRates();
    return registry.scrape();
  }

  PrometheusMeterRegistry registry() {
    return registry;
  }
}

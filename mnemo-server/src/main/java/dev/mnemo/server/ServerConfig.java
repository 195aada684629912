package dev.mnemo.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Everything an operator can set about the server, with a default for each (so {@code mnemo serve}
 * needs no file).
 *
 * <p>Sources, later wins: the defaults below, one YAML file ({@link #load}), environment variables
 * ({@code MNEMO_} + the key upper-cased with dots as underscores: {@code limits.max_request_bytes}
 * is {@code MNEMO_LIMITS_MAX_REQUEST_BYTES}), then explicit overrides (command-line flags). An
 * unknown key in the file or a bad value anywhere fails loading with a message naming the key, the
 * value and its source: a typo in a config must not silently keep a default.
 *
 * <table>
 *   <caption>Keys and defaults</caption>
 *   <tr><th>key</th><th>default</th><th>meaning</th></tr>
 *   <tr><td>host</td><td>127.0.0.1</td><td>address to bind (0.0.0.0 for every interface)</td></tr>
 *   <tr><td>port</td><td>8080</td><td>TCP port; 0 picks a free one</td></tr>
 *   <tr><td>data</td><td>.mnemo/server</td><td>data directory: {@code keys.json} and {@code tenants/NAME/}</td></tr>
 *   <tr><td>embedder</td><td>e5-small-v2-q</td><td>embedder name, resolved by the composition root</td></tr>
 *   <tr><td>tokenizer</td><td>cl100k_base</td><td>token-counting encoding, resolved by the composition root</td></tr>
 *   <tr><td>limits.max_request_bytes</td><td>1048576</td><td>larger bodies get 413</td></tr>
 *   <tr><td>limits.max_batch_records</td><td>256</td><td>more records in one request get 413</td></tr>
 *   <tr><td>limits.max_text_chars</td><td>8000</td><td>a longer record text gets 422</td></tr>
 *   <tr><td>group_commit.enabled</td><td>true</td><td>concurrent writes of a tenant share one commit</td></tr>
 *   <tr><td>group_commit.max_records</td><td>1024</td><td>records per shared commit at most</td></tr>
 *   <tr><td>group_commit.max_wait_ms</td><td>0</td><td>extra time a commit waits for company (0: none)</td></tr>
 *   <tr><td>log.requests</td><td>true</td><td>one log line per request</td></tr>
 *   <tr><td>log.trace_tenants</td><td>(none)</td><td>tenants whose every recall trace is logged</td></tr>
 *   <tr><td>metrics.public</td><td>false</td><td>{@code /metrics} without a key; else it needs the admin key</td></tr>
 *   <tr><td>limits.auth_failures_per_minute</td><td>60</td><td>failed key checks a client (an IP address) may make per
 *       minute, in bursts of as many; then 429 until the budget refills</td></tr>
 *   <tr><td>limits.read_timeout_ms</td><td>30000</td><td>a request's headers must arrive within this of its first
 *       byte (else the connection is closed) and its body within this in all (else 408)</td></tr>
 *   <tr><td>tenants.idle_close_seconds</td><td>600</td><td>a tenant store unused this long is closed (0: never);
 *       it reopens on the next request</td></tr>
 *   <tr><td>tenants.max_open</td><td>0 (derived)</td><td>tenant stores open at once at most; past it the least
 *       recently used store with no request in flight is closed; 0: from the open-file limit ({@link Descriptors})</td></tr>
 *   <tr><td>limits.max_connections</td><td>0 (derived)</td><td>connections at once at most; past it the server stops
 *       accepting until one closes; 0: from the open-file limit ({@link Descriptors})</td></tr>
 *   <tr><td>limits.idle_timeout_ms</td><td>30000</td><td>a connection on which no request starts for this long is
 *       closed, also one sending only blank lines</td></tr>
 *   <tr><td>disk.min_free_bytes</td><td>16777216</td><td>under this much free space on the data directory's
 *       file system the disk counts as full: refused writes answer 507, a failed tenant waits for it to reopen</td></tr>
 *   <tr><td>disk.warn_free_bytes</td><td>1073741824</td><td>under this a warning is logged and readiness says
 *       {@code low}; at least {@code disk.min_free_bytes}</td></tr>
 *   <tr><td>admin_key</td><td>(none)</td><td>environment only ({@code MNEMO_ADMIN_KEY}); never read from the file</td></tr>
 * </table>
 *
 * <p>Immutable and thread-safe. {@link #toString()} never shows the admin key.
 */
public record ServerConfig(
    String host,
    int port,
    Path data,
    String embedder,
    String tokenizer,
    long maxRequestBytes,
    int maxBatchRecords,
    int maxTextChars,
    boolean groupCommit,
    int groupCommitMaxRecords,
    Duration groupCommitMaxWait,
    boolean logRequests,
    Set<String> traceTenants,
    String adminKey,
    boolean metricsPublic,
    int authFailuresPerMinute,
    Duration readTimeout,
    Duration tenantIdle,
    Capacity capacity,
    Disk disk) {

  /** The shortest admin key accepted: 32 characters (128 bits as hex). */
  public static final int MIN_ADMIN_KEY_CHARS = 32;

  /** Every key the file and the environment may set, in documentation order. */
  public static final List<String> KEYS =
      List.of(
          "host",
          "port",
          "data",
          "embedder",
          "tokenizer",
          "limits.max_request_bytes",
          "limits.max_batch_records",
          "limits.max_text_chars",
          "group_commit.enabled",
          "group_commit.max_records",
          "group_commit.max_wait_ms",
          "log.requests",
          "log.trace_tenants",
          "metrics.public",
          "limits.auth_failures_per_minute",
          "limits.read_timeout_ms",
          "tenants.idle_close_seconds",
          "tenants.max_open",
          "limits.max_connections",
          "limits.idle_timeout_ms",
          "disk.min_free_bytes",
          "disk.warn_free_bytes");

  public ServerConfig {
    if (host == null || host.isBlank()) throw bad("host", host, "must not be blank");
    if (port < 0 || port > 65_535) throw bad("port", port, "must be between 0 and 65535");
    if (data == null) throw bad("data", null, "must be set");
    if (embedder == null || embedder.isBlank())
      throw bad("embedder", embedder, "must not be blank");
    if (tokenizer == null || tokenizer.isBlank())
      throw bad("tokenizer", tokenizer, "must not be blank");
    if (maxRequestBytes < 1024)
      throw bad("limits.max_request_bytes", maxRequestBytes, "must be >= 1024");
    if (maxBatchRecords < 1) throw bad("limits.max_batch_records", maxBatchRecords, "must be >= 1");
    if (maxTextChars < 1) throw bad("limits.max_text_chars", maxTextChars, "must be >= 1");
    if (groupCommitMaxRecords < 1)
      throw bad("group_commit.max_records", groupCommitMaxRecords, "must be >= 1");
    if (groupCommitMaxWait == null || groupCommitMaxWait.isNegative()) {
      throw bad("group_commit.max_wait_ms", groupCommitMaxWait, "must be >= 0");
    }
    traceTenants = traceTenants == null ? Set.of() : Set.copyOf(traceTenants);
    adminKey = adminKey == null || adminKey.isBlank() ? null : adminKey;
    if (adminKey != null && adminKey.length() < MIN_ADMIN_KEY_CHARS) {
      throw new IllegalArgumentException(
          "MNEMO_ADMIN_KEY must be at least "
              + MIN_ADMIN_KEY_CHARS
              + " characters, was "
              + adminKey.length()
              + "; generate one with: openssl rand -hex 32");
    }
    if (authFailuresPerMinute < 1)
      throw bad("limits.auth_failures_per_minute", authFailuresPerMinute, "must be >= 1");
    if (readTimeout == null || readTimeout.toMillis() < 100)
      throw bad("limits.read_timeout_ms", readTimeout, "must be >= 100");
    if (tenantIdle == null || tenantIdle.isNegative())
      throw bad("tenants.idle_close_seconds", tenantIdle, "must be >= 0");
    capacity = capacity == null ? Capacity.DERIVED : capacity;
    disk = disk == null ? Disk.DEFAULT : disk;
  }

  /**
   * What the server holds open at most: tenant stores ({@code tenants.max_open}) and connections
   * ({@code limits.max_connections}), 0 meaning derived from the process's open-file limit ({@link
   * Descriptors}); and how long a connection may go without a request ({@code
   * limits.idle_timeout_ms}), whatever bytes it sends meanwhile (blank lines included).
   */
  public record Capacity(int maxOpenTenants, int maxConnections, Duration idleTimeout) {
    /** Both bounds derived from the open-file limit, a 30 s idle timeout. */
    public static final Capacity DERIVED = new Capacity(0, 0, Duration.ofSeconds(30));

    public Capacity {
      if (maxOpenTenants < 0) throw bad("tenants.max_open", maxOpenTenants, "must be >= 0");
      if (maxConnections < 0) throw bad("limits.max_connections", maxConnections, "must be >= 0");
      if (idleTimeout == null || idleTimeout.toMillis() < 100)
        throw bad("limits.idle_timeout_ms", idleTimeout, "must be >= 100");
    }
  }

  /**
   * Free space of the data directory's file system ({@link DiskSpace}): under {@code
   * disk.min_free_bytes} the disk counts as full (a write the store refuses answers 507, a tenant
   * that failed for lack of space waits for this much before it is reopened); under {@code
   * disk.warn_free_bytes} a warning is logged and {@code /health/ready} says {@code low}.
   */
  public record Disk(long minFreeBytes, long warnFreeBytes) {
    /** 16 MiB to write, a warning under 1 GiB. */
    public static final Disk DEFAULT =
        new Disk(DiskSpace.DEFAULT_MIN_FREE_BYTES, DiskSpace.DEFAULT_WARN_FREE_BYTES);

    public Disk {
      if (minFreeBytes < 0) throw bad("disk.min_free_bytes", minFreeBytes, "must be >= 0");
      if (warnFreeBytes < minFreeBytes)
        throw bad(
            "disk.warn_free_bytes",
            warnFreeBytes,
            "must be >= disk.min_free_bytes (" + minFreeBytes + ")");
    }
  }

  /** Every default, no admin key. */
  public static ServerConfig defaults() {
    return new ServerConfig(
        "127.0.0.1",
        8080,
        Path.of(".mnemo/server"),
        "e5-small-v2-q",
        "cl100k_base",
        1_048_576,
        256,
        8_000,
        true,
        1_024,
        Duration.ZERO,
        true,
        Set.of(),
        null,
        false,
        60,
        Duration.ofSeconds(30),
        Duration.ofMinutes(10),
        Capacity.DERIVED,
        Disk.DEFAULT);
  }

  /**
   * Defaults, then {@code file} (YAML; may be null), then {@code env} ({@code MNEMO_*}, plus {@code
   * MNEMO_ADMIN_KEY}), then {@code overrides} (dotted keys, e.g. from flags).
   *
   * @throws IllegalArgumentException naming the key, the value and the source when anything is
   *     invalid
   */
  public static ServerConfig load(
      Path file, Map<String, String> env, Map<String, String> overrides) {
    Map<String, String> values = new LinkedHashMap<>();
    Map<String, String> sourceOf = new LinkedHashMap<>();
    if (file != null) {
      readYaml(file, values, sourceOf);
    }
    for (String key : KEYS) {
      String name = envName(key);
      String v = env.get(name);
      if (v != null) {
        values.put(key, v);
        sourceOf.put(key, "environment variable " + name);
      }
    }
    overrides.forEach(
        (k, v) -> {
          if (!KEYS.contains(k))
            throw new IllegalArgumentException(
                "unknown setting '" + k + "'; expected one of " + KEYS);
          if (v != null) {
            values.put(k, v);
            sourceOf.put(k, "command line");
          }
        });
    ServerConfig d = defaults();
    Reader r = new Reader(values, sourceOf);
    return d.toBuilder()
        .host(r.string("host", d.host))
        .port(r.integer("port", d.port))
        .data(Path.of(r.string("data", d.data.toString())))
        .embedder(r.string("embedder", d.embedder))
        .tokenizer(r.string("tokenizer", d.tokenizer))
        .maxRequestBytes(r.longValue("limits.max_request_bytes", d.maxRequestBytes))
        .maxBatchRecords(r.integer("limits.max_batch_records", d.maxBatchRecords))
        .maxTextChars(r.integer("limits.max_text_chars", d.maxTextChars))
        .groupCommit(r.bool("group_commit.enabled", d.groupCommit))
        .groupCommitMaxRecords(r.integer("group_commit.max_records", d.groupCommitMaxRecords))
        .groupCommitMaxWait(
            Duration.ofMillis(
                r.longValue("group_commit.max_wait_ms", d.groupCommitMaxWait.toMillis())))
        .logRequests(r.bool("log.requests", d.logRequests))
        .traceTenants(r.set("log.trace_tenants"))
        .adminKey(env.get("MNEMO_ADMIN_KEY"))
        .metricsPublic(r.bool("metrics.public", d.metricsPublic))
        .authFailuresPerMinute(
            r.integer("limits.auth_failures_per_minute", d.authFailuresPerMinute))
        .readTimeout(
            Duration.ofMillis(r.longValue("limits.read_timeout_ms", d.readTimeout.toMillis())))
        .tenantIdle(
            Duration.ofSeconds(r.longValue("tenants.idle_close_seconds", d.tenantIdle.toSeconds())))
        .capacity(
            new Capacity(
                r.integer("tenants.max_open", d.capacity.maxOpenTenants()),
                r.integer("limits.max_connections", d.capacity.maxConnections()),
                Duration.ofMillis(
                    r.longValue("limits.idle_timeout_ms", d.capacity.idleTimeout().toMillis()))))
        .disk(
            new Disk(
                r.longValue("disk.min_free_bytes", d.disk.minFreeBytes()),
                r.longValue("disk.warn_free_bytes", d.disk.warnFreeBytes())))
        .build();
  }

  /** The environment variable that overrides {@code key}. */
  public static String envName(String key) {
    return "MNEMO_" + key.toUpperCase(Locale.ROOT).replace('.', '_');
  }

  /** A builder holding this configuration's values, to change some of them. */
  public Builder toBuilder() {
    return new Builder(this);
  }

  /** A builder from {@link #defaults()}. */
  public static Builder builder() {
    return defaults().toBuilder();
  }

  public ServerConfig withPort(int v) {
    return toBuilder().port(v).build();
  }

  public ServerConfig withData(Path v) {
    return toBuilder().data(v).build();
  }

  public ServerConfig withAdminKey(String v) {
    return toBuilder().adminKey(v).build();
  }

  public ServerConfig withGroupCommit(boolean v) {
    return toBuilder().groupCommit(v).build();
  }

  public ServerConfig withLimits(long requestBytes, int batchRecords, int textChars) {
    return toBuilder()
        .maxRequestBytes(requestBytes)
        .maxBatchRecords(batchRecords)
        .maxTextChars(textChars)
        .build();
  }

  public ServerConfig withTraceTenants(Set<String> v) {
    return toBuilder().traceTenants(v).build();
  }

  public ServerConfig withLogRequests(boolean v) {
    return toBuilder().logRequests(v).build();
  }

  public ServerConfig withMetricsPublic(boolean v) {
    return toBuilder().metricsPublic(v).build();
  }

  public ServerConfig withAuthFailuresPerMinute(int v) {
    return toBuilder().authFailuresPerMinute(v).build();
  }

  public ServerConfig withReadTimeout(Duration v) {
    return toBuilder().readTimeout(v).build();
  }

  public ServerConfig withTenantIdle(Duration v) {
    return toBuilder().tenantIdle(v).build();
  }

  public ServerConfig withCapacity(Capacity v) {
    return toBuilder().capacity(v).build();
  }

  public ServerConfig withDisk(Disk v) {
    return toBuilder().disk(v).build();
  }

  /**
   * A configuration to build from another ({@link #toBuilder()}) or from the defaults ({@link
   * #builder()}), one setter per component; {@link #build()} validates as the constructor does. Not
   * thread-safe.
   */
  public static final class Builder {
    private String host;
    private int port;
    private Path data;
    private String embedder;
    private String tokenizer;
    private long maxRequestBytes;
    private int maxBatchRecords;
    private int maxTextChars;
    private boolean groupCommit;
    private int groupCommitMaxRecords;
    private Duration groupCommitMaxWait;
    private boolean logRequests;
    private Set<String> traceTenants;
    private String adminKey;
    private boolean metricsPublic;
    private int authFailuresPerMinute;
    private Duration readTimeout;
    private Duration tenantIdle;
    private Capacity capacity;
    private Disk disk;

    private Builder(ServerConfig c) {
      host = c.host;
      port = c.port;
      data = c.data;
      embedder = c.embedder;
      tokenizer = c.tokenizer;
      maxRequestBytes = c.maxRequestBytes;
      maxBatchRecords = c.maxBatchRecords;
      maxTextChars = c.maxTextChars;
      groupCommit = c.groupCommit;
      groupCommitMaxRecords = c.groupCommitMaxRecords;
      groupCommitMaxWait = c.groupCommitMaxWait;
      logRequests = c.logRequests;
      traceTenants = c.traceTenants;
      adminKey = c.adminKey;
      metricsPublic = c.metricsPublic;
      authFailuresPerMinute = c.authFailuresPerMinute;
      readTimeout = c.readTimeout;
      tenantIdle = c.tenantIdle;
      capacity = c.capacity;
      disk = c.disk;
    }

    public Builder host(String v) {
      host = v;
      return this;
    }

    public Builder port(int v) {
      port = v;
      return this;
    }

    public Builder data(Path v) {
      data = v;
      return this;
    }

    public Builder embedder(String v) {
      embedder = v;
      return this;
    }

    public Builder tokenizer(String v) {
      tokenizer = v;
      return this;
    }

    public Builder maxRequestBytes(long v) {
      maxRequestBytes = v;
      return this;
    }

    public Builder maxBatchRecords(int v) {
      maxBatchRecords = v;
      return this;
    }

    public Builder maxTextChars(int v) {
      maxTextChars = v;
      return this;
    }

    public Builder groupCommit(boolean v) {
      groupCommit = v;
      return this;
    }

    public Builder groupCommitMaxRecords(int v) {
      groupCommitMaxRecords = v;
      return this;
    }

    public Builder groupCommitMaxWait(Duration v) {
      groupCommitMaxWait = v;
      return this;
    }

    public Builder logRequests(boolean v) {
      logRequests = v;
      return this;
    }

    public Builder traceTenants(Set<String> v) {
      traceTenants = v;
      return this;
    }

    public Builder adminKey(String v) {
      adminKey = v;
      return this;
    }

    public Builder metricsPublic(boolean v) {
      metricsPublic = v;
      return this;
    }

    public Builder authFailuresPerMinute(int v) {
      authFailuresPerMinute = v;
      return this;
    }

    public Builder readTimeout(Duration v) {
      readTimeout = v;
      return this;
    }

    public Builder tenantIdle(Duration v) {
      tenantIdle = v;
      return this;
    }

    public Builder capacity(Capacity v) {
      capacity = v;
      return this;
    }

    public Builder disk(Disk v) {
      disk = v;
      return this;
    }

    /**
     * The configuration.
     *
     * @throws IllegalArgumentException naming the key and the value when one is invalid
     */
    public ServerConfig build() {
      return new ServerConfig(
          host,
          port,
          data,
          embedder,
          tokenizer,
          maxRequestBytes,
          maxBatchRecords,
          maxTextChars,
          groupCommit,
          groupCommitMaxRecords,
          groupCommitMaxWait,
          logRequests,
          traceTenants,
          adminKey,
          metricsPublic,
          authFailuresPerMinute,
          readTimeout,
          tenantIdle,
          capacity,
          disk);
    }
  }

  @Override
  public String toString() {
    return "ServerConfig[host="
        + host
        + ", port="
        + port
        + ", data="
        + data
        + ", embedder="
        + embedder
        + ", tokenizer="
        + tokenizer
        + ", max_request_bytes="
        + maxRequestBytes
        + ", max_batch_records="
        + maxBatchRecords
        + ", max_text_chars="
        + maxTextChars
        + ", group_commit="
        + groupCommit
        + ", group_commit_max_records="
        + groupCommitMaxRecords
        + ", group_commit_max_wait="
        + groupCommitMaxWait.toMillis()
        + "ms, log_requests="
        + logRequests
        + ", trace_tenants="
        + new TreeSet<>(traceTenants)
        + ", admin_key="
        + (adminKey == null ? "(unset)" : "(set)")
        + ", metrics_public="
        + metricsPublic
        + ", auth_failures_per_minute="
        + authFailuresPerMinute
        + ", read_timeout="
        + readTimeout.toMillis()
        + "ms, tenant_idle="
        + tenantIdle.toSeconds()
        + "s, max_open_tenants="
        + capacity.maxOpenTenants()
        + ", max_connections="
        + capacity.maxConnections()
        + ", idle_timeout="
        + capacity.idleTimeout().toMillis()
        + "ms, disk_min_free_bytes="
        + disk.minFreeBytes()
        + ", disk_warn_free_bytes="
        + disk.warnFreeBytes()
        + "]";
  }

  private static IllegalArgumentException bad(String key, Object value, String rule) {
    return new IllegalArgumentException(key + " " + rule + ", was " + value);
  }

  private static void readYaml(
      Path file, Map<String, String> values, Map<String, String> sourceOf) {
    JsonNode root;
    try {
      root = new YAMLMapper().readTree(Files.readAllBytes(file));
    } catch (IOException e) {
      throw new IllegalArgumentException(
          "cannot read the config file " + file + ": " + e.getMessage(), e);
    }
    if (root == null || root.isNull() || root.isMissingNode()) return;
    if (!root.isObject())
      throw new IllegalArgumentException("the config file " + file + " must hold a YAML mapping");
    flatten(root, "", file, values, sourceOf);
  }

  private static void flatten(
      JsonNode node,
      String prefix,
      Path file,
      Map<String, String> values,
      Map<String, String> sourceOf) {
    for (var e : node.properties()) {
      String key = prefix + e.getKey();
      JsonNode v = e.getValue();
      if ("admin_key".equals(key)) {
        throw new IllegalArgumentException(
            "admin_key is not read from "
                + file
                + ": a secret does not belong in a config file; set MNEMO_ADMIN_KEY");
      }
      if (v.isObject()) {
        flatten(v, key + ".", file, values, sourceOf);
        continue;
      }
      if (!KEYS.contains(key)) {
        throw new IllegalArgumentException(
            "unknown setting '" + key + "' in " + file + "; expected one of " + KEYS);
      }
      String s;
      if (v.isArray()) {
        StringBuilder sb = new StringBuilder();
        for (JsonNode x : v) sb.append(sb.isEmpty() ? "" : ",").append(x.asText());
        s = sb.toString();
      } else {
        s = v.isNull() ? null : v.asText();
      }
      if (s != null) {
        values.put(key, s);
        sourceOf.put(key, file.toString());
      }
    }
  }

  /** Typed reads of the merged string values, with errors naming key, value and source. */
  private record Reader(Map<String, String> values, Map<String, String> sourceOf) {
    String string(String key, String dflt) {
      return values.getOrDefault(key, dflt).trim();
    }

    long longValue(String key, long dflt) {
      String v = values.get(key);
      if (v == null) return dflt;
      try {
        return Long.parseLong(v.trim().replace("_", ""));
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(
            key + " must be an integer, was '" + v + "' (from " + sourceOf.get(key) + ")");
      }
    }

    int integer(String key, int dflt) {
      long v = longValue(key, dflt);
      if (v < Integer.MIN_VALUE || v > Integer.MAX_VALUE) {
        throw new IllegalArgumentException(
            key + " is out of range, was " + v + " (from " + sourceOf.get(key) + ")");
      }
      return (int) v;
    }

    boolean bool(String key, boolean dflt) {
      String v = values.get(key);
      if (v == null) return dflt;
      return switch (v.trim().toLowerCase(Locale.ROOT)) {
        case "true", "yes", "on", "1" -> true;
        case "false", "no", "off", "0" -> false;
        default ->
            throw new IllegalArgumentException(
                key + " must be true or false, was '" + v + "' (from " + sourceOf.get(key) + ")");
      };
    }

    Set<String> set(String key) {
      String v = values.get(key);
      if (v == null || v.isBlank()) return Set.of();
      Set<String> out = new TreeSet<>();
      Arrays.stream(v.split(",")).map(String::trim).filter(s -> !s.isEmpty()).forEach(out::add);
      return out;
    }
  }
}

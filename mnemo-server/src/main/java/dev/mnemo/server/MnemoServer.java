package dev.mnemo.server;

import dev.mnemo.Mnemo;
import dev.mnemo.MnemoException;
import io.javalin.Javalin;
import io.javalin.http.Context;
import io.javalin.router.Endpoint;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.Servlet;
import jakarta.servlet.http.HttpServletRequest;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.regex.Pattern;
import org.eclipse.jetty.ee10.servlet.FilterHolder;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.http.UriCompliance;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Mnemo as a service: the REST API {@code /v1} (see {@code /v1/openapi.json}), per-tenant API keys,
 * group commit, health and Prometheus metrics, on one Javalin (Jetty) server with virtual threads.
 *
 * <p>Lifecycle: {@link #builder} then {@link Builder#build()} opens the key store (tenant stores
 * open on first use and close when idle, see {@link Tenants}); {@link #start()} listens; {@link
 * #close()} stops listening, commits what is queued and closes the stores.
 *
 * <p>Tenancy: a key belongs to one tenant, a tenant has its own store (its own directory, its own
 * engine), owners live inside a tenant's store. The tenant of a request comes from its key and from
 * nothing the request says, so no owner string can reach another tenant's records; another tenant's
 * ids and owners are simply not found (404), never forbidden, so their existence does not leak.
 *
 * <p>Other transports (the MCP server's streamable HTTP servlet) share the port and the keys
 * through {@link Builder#mount}: requests under the mounted path are authenticated like the REST
 * API and carry the tenant ({@link #TENANT_ATTRIBUTE}) and its memory ({@link #MEMORY_ATTRIBUTE}).
 *
 * <p>Thread-safe.
 */
public final class MnemoServer implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(MnemoServer.class);
  private static final Logger ACCESS = LoggerFactory.getLogger("mnemo.access");
  private static final Pattern REQUEST_ID = Pattern.compile("[A-Za-z0-9._-]{1,64}");

  /**
   * Request attribute of an authenticated request under a mounted path: the tenant's name (a
   * String).
   */
  public static final String TENANT_ATTRIBUTE =
      "mnemo.tenant"; // the MCP endpoint reads the same name

  /**
   * Request attribute of an authenticated request under a mounted path: the tenant's memory (a
   * {@link Mnemo} whose {@code close()} does nothing; writes use the tenant's group commit).
   */
  public static final String MEMORY_ATTRIBUTE = "dev.mnemo.server.memory";

  /**
   * The request's lease on its tenant's store ({@link Tenants.Lease}), closed when the request
   * ends.
   */
  static final String LEASE_ATTRIBUTE = "dev.mnemo.server.lease";

  /**
   * Request attribute of an authenticated request under a mounted path: the caller's principals (a
   * {@code Set<String>}) from the {@value #PRINCIPALS_HEADER} header; the MCP endpoint's recalls
   * run with them.
   */
  public static final String PRINCIPALS_ATTRIBUTE =
      "mnemo.principals"; // the MCP endpoint reads the same name

  /**
   * The header in which the tenant's application states its user's principals for a mounted path
   * (MCP): {@code team:..}, {@code role:..}, {@code person:..}, separated by commas.
   */
  public static final String PRINCIPALS_HEADER = "Mnemo-Principals";

  /**
   * Request attribute of an authenticated request under a mounted path: the key's public id (the
   * MCP endpoint binds sessions to it).
   */
  public static final String KEY_ID_ATTRIBUTE = "mnemo.key_id";

  /** Request attribute: the request id (also sent back as {@code X-Request-Id}). */
  public static final String REQUEST_ID_ATTRIBUTE = "dev.mnemo.server.request_id";

  static final String PRINCIPAL_ATTRIBUTE = "dev.mnemo.server.principal";

  private final ServerConfig config;
  private final Metrics metrics;
  private final KeyStore keys;
  private final Tenants tenants;
  private final AuthThrottle authThrottle;
  private final Javalin app;
  private final List<String> routes = Collections.synchronizedList(new ArrayList<>());
  private volatile boolean started;
  private volatile boolean stopping;
  private final int maxConnections;

  /** The idle timeout of every open connection while the connection limit is reached. */
  static final long CONNECTION_LIMIT_IDLE_MS = 1_000;

  private MnemoServer(Builder b) {
    this.config = b.config;
    this.authThrottle = new AuthThrottle(config.authFailuresPerMinute());
    this.maxConnections =
        Descriptors.maxConnections(config.capacity().maxConnections(), Descriptors.limit());
    Path data = config.data();
    try {
      Files.createDirectories(data.resolve("tenants"));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create the data directory " + data, e);
    }
    // The gauges read the tenants, which need the metrics for their committers: a one-slot holder
    // breaks the cycle (the gauges are first read after the constructor, by a scrape).
    Tenants[] t = new Tenants[1];
    this.metrics =
        new Metrics(
            () -> t[0].queueDepth(),
            () -> t[0].diskBytes(),
            () -> t[0].openCount(),
            () -> t[0].failures().size());
    this.tenants =
        new Tenants(
            data.resolve("tenants"),
            b.engines,
            config,
            metrics,
            b.reopenBackoff,
            new DiskSpace(data.resolve("tenants"), b.disk.minFreeBytes(), b.disk.warnFreeBytes()));
    t[0] = tenants;
    metrics.recallRates(tenants::recallStats);
    this.keys = KeyStore.open(data.resolve("keys.json"), config.adminKey());
    this.storeHealth = b.storeHealth;
    Api api = new Api(this, keys, tenants, config, metrics);
    Map<String, Servlet> mounts = Map.copyOf(b.mounts);
    this.app =
        Javalin.create(
            cfg -> {
              cfg.startup.showJavalinBanner = false;
              cfg.startup.showOldJavalinVersionWarning = false;
              cfg.concurrency.useVirtualThreads = true;
              cfg.http.maxRequestSize = config.maxRequestBytes();
              cfg.http.prefer405over404 = true;
              // Owners are opaque ids and may hold '/', sent as %2F inside one path segment.
              cfg.jetty.modifyHttpConfiguration(
                  h ->
                      h.setUriCompliance(
                          UriCompliance.DEFAULT.with(
                              "mnemo-owners",
                              UriCompliance.Violation.AMBIGUOUS_PATH_SEPARATOR,
                              UriCompliance.Violation.AMBIGUOUS_PATH_ENCODING)));
              cfg.jetty.modifyServer(
                  server -> {
                    server.setErrorHandler(new ProblemErrorHandler());
                    server.addBean(
                        new ConnectionDeadlines(
                            server, config.readTimeout(), config.capacity().idleTimeout()));
                    // Jetty's own bound: at the limit it stops accepting (new connections wait in
                    // the kernel's backlog) and gives the open ones a short idle timeout
                    org.eclipse.jetty.server.NetworkConnectionLimit limit =
                        new org.eclipse.jetty.server.NetworkConnectionLimit(maxConnections, server);
                    limit.setEndPointIdleTimeout(CONNECTION_LIMIT_IDLE_MS);
                    server.addBean(limit);
                  });
              cfg.jetty.modifyHttpConfiguration(
                  h -> h.setIdleTimeout(config.capacity().idleTimeout().toMillis()));
              cfg.jetty.modifyServletContextHandler(
                  h -> {
                    h.setErrorHandler(new ProblemErrorHandler.Servlet());
                    h.getServletHandler().setDecodeAmbiguousURIs(true);
                    mounts.forEach(
                        (path, servlet) -> {
                          ServletHolder holder = new ServletHolder(servlet);
                          holder.setAsyncSupported(true);
                          h.addServlet(holder, path + "/*");
                          FilterHolder filter = new FilterHolder(new MountFilter(this, path));
                          filter.setAsyncSupported(true);
                          h.addFilter(filter, path + "/*", EnumSet.of(DispatcherType.REQUEST));
                        });
                  });
              cfg.events.handlerAdded(
                  meta -> {
                    if (meta.getHttpMethod().isHttpMethod())
                      routes.add(meta.getHttpMethod().name() + " " + meta.getPath());
                  });
              cfg.requestLogger.http((ctx, ms) -> logged(ctx, ms));
              cfg.routes.before(
                  ctx -> {
                    String id = requestId(ctx.header("X-Request-Id"));
                    ctx.attribute(REQUEST_ID_ATTRIBUTE, id);
                    ctx.header("X-Request-Id", id);
                    TenantMemory.REQUEST_ID.set(id);
                  });
              cfg.routes.after(
                  ctx -> {
                    TenantMemory.REQUEST_ID.remove();
                    Tenants.Lease lease = ctx.attribute(LEASE_ATTRIBUTE);
                    if (lease != null)
                      lease.close(); // the tenant's store may close idle from now on
                  });
              cfg.routes.beforeMatched(api::authorize);
              cfg.routes.exception(Exception.class, (e, ctx) -> problem(ctx, e));
              // Javalin answers its own HttpResponseExceptions (a chunked body over the limit: 413)
              // in
              // plain text unless they are mapped by their own class.
              cfg.routes.exception(
                  io.javalin.http.HttpResponseException.class, (e, ctx) -> problem(ctx, e));
              // Javalin answers unmatched routes and methods itself; give those the problem form
              // too,
              // unless a handler already wrote one (a resource that was not found).
              for (int status : new int[] {404, 405}) {
                cfg.routes.error(
                    status,
                    ctx -> {
                      if (!Problems.CONTENT_TYPE.equals(ctx.res().getContentType())) {
                        problem(
                            ctx,
                            new io.javalin.http.HttpResponseException(
                                status, status == 404 ? "Not found" : "Method not allowed"));
                      }
                    });
              }
              api.register(cfg.routes);
            });
  }

  /** Starts a server builder; {@code engines} opens each tenant's engine. */
  public static Builder builder(ServerConfig config, EngineFactory engines) {
    return new Builder(config, engines);
  }

  /** Listens on the configured host and port; returns this. */
  public MnemoServer start() {
    app.start(config.host(), config.port());
    started = true;
    LOG.info(
        "mnemo server listening on http://{}:{} data={} group_commit={}",
        config.host(),
        port(),
        config.data(),
        config.groupCommit());
    return this;
  }

  /** The port listened on (the real one when the configuration said 0). */
  public int port() {
    return app.port();
  }

  /**
   * The admin key generated at this start because none existed and {@code MNEMO_ADMIN_KEY} was not
   * set: the caller shows it to the operator once. It is stored only as a hash.
   */
  public Optional<String> generatedAdminKey() {
    return keys.generatedAdminKey();
  }

  /** The tenant's memory, for in-process transports; the tenant's store opens on first use. */
  public Mnemo memory(String tenant) {
    if (tenant == null || !KeyStore.TENANT.matcher(tenant).matches()) {
      throw new IllegalArgumentException(
          "tenant must match " + KeyStore.TENANT.pattern() + ", was '" + tenant + "'");
    }
    return tenants.memory(tenant);
  }

  /** The registry behind {@code /metrics}, for transports that add their own meters. */
  public MeterRegistry meterRegistry() {
    return metrics.registry();
  }

  /** The tenant of an authenticated request under a mounted path, or null. */
  public static String tenantOf(HttpServletRequest request) {
    return (String) request.getAttribute(TENANT_ATTRIBUTE);
  }

  /** The tenant's memory of an authenticated request under a mounted path, or null. */
  public static Mnemo memoryOf(HttpServletRequest request) {
    return (Mnemo) request.getAttribute(MEMORY_ATTRIBUTE);
  }

  /**
   * Whether the server serves requests: started and not stopping. (A tenant whose store failed is
   * listed by {@code /health/ready} but does not make the server unready; see {@link Tenants}.)
   */
  boolean ready() {
    return notReady() == null;
  }

  /**
   * Why the server is not ready, or null: starting or stopping, or its open file descriptors near
   * the limit ({@link Descriptors#pressure}), where accepting a connection or opening a store would
   * soon fail.
   */
  String notReady() {
    if (!started || stopping || tenants.closed()) return "the server is starting or stopping";
    return Descriptors.pressure(Descriptors.open(), Descriptors.limit());
  }

  /** Tenant stores open now (for tests: readiness reports the same). */
  int openTenantsForTest() {
    return tenants.openCount();
  }

  /** The bound on connections at once ({@code limits.max_connections} or derived). */
  int maxConnections() {
    return maxConnections;
  }

  private java.util.function.Supplier<StoreHealth> storeHealth; // null: none

  /**
   * The store cluster's health for {@code /health/ready}, empty without a check; a check that
   * throws is reported as not serving, with its message.
   */
  java.util.Optional<StoreHealth> storeHealth() {
    if (storeHealth == null) return java.util.Optional.empty();
    try {
      return java.util.Optional.of(storeHealth.get());
    } catch (RuntimeException e) {
      return java.util.Optional.of(
          new StoreHealth(false, "unknown", Map.of("error", String.valueOf(e.getMessage()))));
    }
  }

  /** "METHOD /path" of every route registered, in registration order (for the OpenAPI check). */
  List<String> routes() {
    return List.copyOf(routes);
  }

  /**
   * The principal of an {@code Authorization: Bearer KEY} header; 401 otherwise, and 429 for a
   * client address that failed too many checks lately ({@link AuthThrottle}). A missing header is
   * not a failed check: it guesses nothing.
   *
   * <p>The throttle is per address, and a valid key is judged by itself: from a throttled address
   * an issued key ({@code mnemo_<id>_<secret>}, 256 random bits, which no rate of guessing finds)
   * is still served, so one client's wrong keys do not lock out the others behind the same address
   * (a NAT, a proxy). Anything else from that address waits for the 429's {@code Retry-After}: a
   * wrong key, and the operator's {@code MNEMO_ADMIN_KEY}, which may be weak enough to guess.
   */
  KeyStore.Principal authenticate(String authorization, String client) {
    long wait = authThrottle.retryAfterSeconds(client);
    if (wait > 0) {
      Optional<KeyStore.Principal> issued = issuedKey(authorization);
      if (issued.isPresent()) return issued.get();
      throw new ProblemException(
          429,
          "too-many-requests",
          "Too many failed key checks",
          "this client sent too many "
              + "invalid keys; retry in "
              + wait
              + " s (limits.auth_failures_per_minute = "
              + config.authFailuresPerMinute()
              + ")",
          List.of(),
          Map.of("Retry-After", Long.toString(wait)));
    }
    try {
      return authenticate(authorization);
    } catch (ProblemException e) {
      if (authorization != null && !authorization.isBlank()) authThrottle.failed(client);
      throw e;
    }
  }

  /** The principal of a valid issued key in the header (not the operator's admin key), or empty. */
  private Optional<KeyStore.Principal> issuedKey(String authorization) {
    if (authorization == null) return Optional.empty();
    String h = authorization.trim();
    if (h.length() < 7 || !h.substring(0, 7).toLowerCase(Locale.ROOT).equals("bearer ")) {
      return Optional.empty();
    }
    return keys.authenticateIssued(h.substring(7).trim());
  }

  private KeyStore.Principal authenticate(String authorization) {
    if (authorization == null || authorization.isBlank()) {
      throw ProblemException.unauthorized("send an API key as 'Authorization: Bearer KEY'");
    }
    String h = authorization.trim();
    if (h.length() < 7 || !h.substring(0, 7).toLowerCase(Locale.ROOT).equals("bearer ")) {
      throw ProblemException.unauthorized(
          "the Authorization header must use the Bearer scheme: 'Authorization: Bearer KEY'");
    }
    return keys.authenticate(h.substring(7).trim())
        .orElseThrow(
            () -> ProblemException.unauthorized("the API key is not valid (unknown or revoked)"));
  }

  /**
   * Closes the idle tenant stores now, as the reaper does (for tests: a server whose idle time is
   * under 1 ms has no reaper).
   */
  void closeIdleTenants() {
    tenants.closeIdle();
  }

  /** A lease on the tenant's store for one request; the request closes it when done. */
  Tenants.Lease leaseFor(KeyStore.Principal p) {
    return tenants.lease(p.tenant());
  }

  static String requestId(String given) {
    return given != null && REQUEST_ID.matcher(given).matches()
        ? given
        : UUID.randomUUID().toString().replace("-", "").substring(0, 16);
  }

  private void problem(Context ctx, Exception e) {
    Problems.Problem p =
        Problems.of(
            e,
            ctx.path(),
            ctx.attribute(REQUEST_ID_ATTRIBUTE),
            writes(ctx.method().name(), ctx.path()));
    ctx.status(p.status());
    p.headers().forEach(ctx::header);
    ctx.contentType(Problems.CONTENT_TYPE);
    ctx.result(p.bytes());
  }

  /** Routes that take a body but never write: their refusals do not speak of writing. */
  private static final Set<String> READ_ONLY_POSTS = Set.of("/v1/recall", "/v1/memories/validate");

  /** Whether a request of this method and path may write. */
  static boolean writes(String method, String path) {
    return switch (method) {
      case "GET", "HEAD", "OPTIONS" -> false;
      default -> !(method.equals("POST") && READ_ONLY_POSTS.contains(path));
    };
  }

  private void logged(Context ctx, Float ms) {
    Endpoint e = ctx.endpoints().matchedHttpEndpoint();
    String route = e == null ? "unmatched" : e.path;
    long nanos = (long) (ms * 1_000_000L);
    metrics.request(ctx.method().name(), route, ctx.statusCode(), nanos);
    if (!config.logRequests()) return;
    KeyStore.Principal p = ctx.attribute(PRINCIPAL_ATTRIBUTE);
    access(
        ctx.attribute(REQUEST_ID_ATTRIBUTE),
        ctx.method().name(),
        ctx.path(),
        route,
        ctx.statusCode(),
        ms,
        p);
  }

  /**
   * One structured (logfmt) line per request. The key itself is never logged: only its public id.
   */
  static void access(
      String requestId,
      String method,
      String path,
      String route,
      int status,
      double ms,
      KeyStore.Principal p) {
    if (!ACCESS.isInfoEnabled()) return;
    ACCESS.info(
        "request_id={} method={} path=\"{}\" route=\"{}\" status={} ms={} tenant={} key_id={}",
        requestId,
        method,
        path.replace("\"", "%22"),
        route,
        status,
        String.format(Locale.ROOT, "%.2f", ms),
        p == null ? "-" : p.tenant() == null ? "(admin)" : p.tenant(),
        p == null ? "-" : p.keyId());
  }

  void countMounted(String method, String route, int status, long nanos) {
    metrics.request(method, route, status, nanos);
  }

  boolean logRequests() {
    return config.logRequests();
  }

  /** Stops listening, then commits what is queued and closes every store. */
  @Override
  public void close() {
    stopping = true;
    try {
      app.stop();
    } finally {
      tenants.close();
    }
  }

  /** Configures a {@link MnemoServer}. Not thread-safe. */
  public static final class Builder {
    private final ServerConfig config;
    private final EngineFactory engines;
    private final Map<String, Servlet> mounts = new LinkedHashMap<>();
    private java.time.Duration reopenBackoff = java.time.Duration.ofSeconds(1);
    private ServerConfig.Disk disk;

    /**
     * Free-space thresholds of the data directory's file system, instead of the configuration's
     * ({@code disk.min_free_bytes}, {@code disk.warn_free_bytes}, {@link ServerConfig.Disk}): under
     * {@code minFreeBytes} (default 16 MiB) the disk counts as full (writes refused by the store
     * answer 507, a store that failed for lack of space waits for room before it is reopened);
     * under {@code warnFreeBytes} (default 1 GiB) a warning is logged and readiness says {@code
     * low}.
     */
    public Builder diskSpace(long minFreeBytes, long warnFreeBytes) {
      this.disk = new ServerConfig.Disk(minFreeBytes, warnFreeBytes); // checks the values
      return this;
    }

    private java.util.function.Supplier<StoreHealth> storeHealth;

    /**
     * A check of the store's cluster that {@code /health/ready} runs on every call and reports
     * under {@code "store"}; when it says the store cannot serve, the server answers 503 (a load
     * balancer then sends requests elsewhere). None by default (an embedded store has no cluster).
     */
    public Builder storeHealth(java.util.function.Supplier<StoreHealth> check) {
      this.storeHealth = Objects.requireNonNull(check, "check");
      return this;
    }

    /**
     * The wait before a failed tenant store is first reopened (doubling per failed attempt); tests
     * shorten it.
     */
    Builder reopenBackoff(java.time.Duration v) {
      if (v == null || v.isNegative())
        throw new IllegalArgumentException("reopenBackoff must be >= 0");
      this.reopenBackoff = v;
      return this;
    }

    private Builder(ServerConfig config, EngineFactory engines) {
      this.config = Objects.requireNonNull(config, "config");
      this.engines = Objects.requireNonNull(engines, "engines");
      this.disk = config.disk();
    }

    /**
     * Serves {@code servlet} at {@code path} and everything under it (e.g. the MCP transport at
     * {@code /mcp}), behind the same Bearer-key authentication as the REST API. Only tenant keys
     * pass (401 without a valid key, 403 for the admin key); the servlet finds the tenant in {@link
     * #TENANT_ATTRIBUTE} and its memory in {@link #MEMORY_ATTRIBUTE} (or through {@link #tenantOf}
     * and {@link #memoryOf}). The servlet runs with async support.
     *
     * @param path an absolute path of one or more segments, not under {@code /v1}, {@code /health}
     *     or {@code /metrics}, e.g. {@code "/mcp"}
     */
    public Builder mount(String path, Servlet servlet) {
      Objects.requireNonNull(servlet, "servlet");
      if (path == null || !path.matches("(/[A-Za-z0-9._-]+)+")) {
        throw new IllegalArgumentException(
            "path must look like /mcp (segments of letters, digits, . _ -), was '" + path + "'");
      }
      for (String reserved : List.of("/v1", "/health", "/metrics")) {
        if (path.equals(reserved) || path.startsWith(reserved + "/")) {
          throw new IllegalArgumentException(
              "path " + path + " is under " + reserved + ", which the server serves itself");
        }
      }
      if (mounts.putIfAbsent(path, servlet) != null) {
        throw new IllegalArgumentException("a servlet is already mounted at " + path);
      }
      return this;
    }

    /**
     * Opens the key store (generating an admin key when there is none and {@code MNEMO_ADMIN_KEY}
     * is unset); tenant stores open on first use. Does not listen yet.
     *
     * @throws MnemoException when a store or the key store cannot be opened
     */
    public MnemoServer build() {
      return new MnemoServer(this);
    }
  }
}

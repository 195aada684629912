package dev.mnemo.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mnemo.InvalidRequestException;
import dev.mnemo.MemoryRecord;
import dev.mnemo.RecallRequest;
import dev.mnemo.json.BatchPath;
import dev.mnemo.json.IngestJson;
import dev.mnemo.json.JsonCodec;
import dev.mnemo.json.RecordJson;
import dev.mnemo.json.TurnJson;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import io.javalin.security.RouteRole;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * The routes of the REST API and their handlers. Every route declares who may call it ({@link
 * Access}); {@link #authorize} enforces it before the handler runs. Handlers take the tenant from
 * the authenticated key only. Errors are thrown and rendered by {@link Problems}.
 */
final class Api {

  /** Who may call a route. */
  enum Access implements RouteRole {
    /** No key: health, metrics, the OpenAPI document. */
    PUBLIC,
    /** A tenant's key: that tenant's memories. */
    TENANT,
    /** The admin key: tenants and keys. */
    ADMIN,
    /**
     * {@code /metrics}: the admin key, or none when {@code metrics.public} is set (tenant count and
     * data size are not for anyone who can reach the port).
     */
    METRICS
  }

  private static final String NDJSON = "application/x-ndjson";

  private final MnemoServer server;
  private final KeyStore keys;
  private final Tenants tenants;
  private final ServerConfig config;
  private final Metrics metrics;
  private final byte[] openApi;
  private final Inspector inspector = new Inspector();

  Api(MnemoServer server, KeyStore keys, Tenants tenants, ServerConfig config, Metrics metrics) {
    this.server = server;
    this.keys = keys;
    this.tenants = tenants;
    this.config = config;
    this.metrics = metrics;
    try (InputStream in = Api.class.getResourceAsStream("openapi.json")) {
      if (in == null)
        throw new IllegalStateException("openapi.json is missing from the server's resources");
      this.openApi = in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  void register(RoutesConfig r) {
    r.get("/health/live", this::live, Access.PUBLIC);
    r.get("/health/ready", this::ready, Access.PUBLIC);
    r.get("/metrics", this::metrics, Access.METRICS);
    r.get("/v1/openapi.json", this::openApi, Access.PUBLIC);
    // A browser pointed at the server's address expects a page, not a JSON 404.
    r.get("/", ctx -> ctx.redirect("/inspector", io.javalin.http.HttpStatus.FOUND), Access.PUBLIC);
    r.get("/inspector", inspector::page, Access.PUBLIC);
    r.get("/inspector/{asset}", inspector::asset, Access.PUBLIC);

    r.post("/v1/memories", this::remember, Access.TENANT);
    r.post("/v1/memories/validate", this::validate, Access.TENANT);
    r.post("/v1/recall", this::recall, Access.TENANT);
    r.get("/v1/recalls", ctx -> ctx.json(RecallLogRoutes.search(ctx, memory(ctx))), Access.TENANT);
    r.get(
        "/v1/recalls/stats",
        ctx -> ctx.json(RecallLogRoutes.stats(ctx, memory(ctx))),
        Access.TENANT);
    r.get(
        "/v1/recalls/{id}", ctx -> ctx.json(RecallLogRoutes.get(ctx, memory(ctx))), Access.TENANT);
    r.post(
        "/v1/recalls/{id}/replay",
        ctx -> ctx.json(RecallLogRoutes.replay(ctx, memory(ctx), optionalBody(ctx))),
        Access.TENANT);
    r.post("/v1/ingest", this::ingest, Access.TENANT);
    r.get("/v1/ingest/progress", this::ingestProgress, Access.TENANT);
    r.post("/v1/owners/{owner}/turns/{id}/accept", this::acceptTurn, Access.TENANT);
    r.get("/v1/export", this::exportTenant, Access.TENANT);
    r.get("/v1/owners", ctx -> ctx.json(Browse.owners(ctx, memory(ctx))), Access.TENANT);
    r.get(
        "/v1/owners/{owner}/memories",
        ctx -> ctx.json(Browse.memories(ctx, memory(ctx), ctx.pathParam("owner"))),
        Access.TENANT);
    r.delete("/v1/owners/{owner}", this::forgetOwner, Access.TENANT);
    r.get("/v1/owners/{owner}/memories/{id}", this::get, Access.TENANT);
    r.delete("/v1/owners/{owner}/memories/{id}", this::forgetRecord, Access.TENANT);
    r.get("/v1/owners/{owner}/memories/{id}/sources", this::sources, Access.TENANT);
    r.get("/v1/owners/{owner}/history", this::history, Access.TENANT);
    r.post("/v1/owners/{owner}/episodes/{episode}/summary", this::summarize, Access.TENANT);
    r.post("/v1/owners/{owner}/memories/{id}/category", this::recategorize, Access.TENANT);
    r.post("/v1/owners/{owner}/used", this::markUsed, Access.TENANT);
    r.get("/v1/owners/{owner}/export", this::exportOwner, Access.TENANT);

    r.get("/v1/tenants", this::listTenants, Access.ADMIN);
    r.delete("/v1/tenants/{tenant}", this::deleteTenant, Access.ADMIN);
    r.post("/v1/tenants/{tenant}/reopen", this::reopenTenant, Access.ADMIN);
    r.post("/v1/tenants/{tenant}/keys", this::createKey, Access.ADMIN);
    r.get("/v1/tenants/{tenant}/keys", this::listKeys, Access.ADMIN);
    r.delete("/v1/tenants/{tenant}/keys/{key_id}", this::revokeKey, Access.ADMIN);
  }

  /**
   * A refused body up to this size is read and discarded before the refusal is sent (as Tomcat's
   * {@code maxSwallowSize}): a server that answers and closes the connection while the client is
   * still sending makes many clients (the JDK's among them) see a broken pipe instead of the 413. A
   * larger body is not read; the connection is closed under it.
   */
  static final long SWALLOW_BYTES = 4L << 20;

  /** Reads and discards the request's body when it declares at most {@link #SWALLOW_BYTES}. */
  private static void swallow(Context ctx, long declared) {
    if (declared > SWALLOW_BYTES) return;
    byte[] sink = new byte[64 * 1024];
    try {
      InputStream in = ctx.req().getInputStream();
      long read = 0;
      for (int n; read <= SWALLOW_BYTES && (n = in.read(sink)) != -1; ) read += n;
    } catch (IOException e) {
      // the client went away: there is no one left to refuse
    }
  }

  /**
   * Runs before every matched route: authenticates unless the route is public, and checks the role.
   */
  void authorize(Context ctx) {
    Set<RouteRole> roles = ctx.routeRoles();
    if (roles.contains(Access.METRICS)) {
      if (config.metricsPublic()) return;
      KeyStore.Principal p = server.authenticate(ctx.header("Authorization"), ctx.ip());
      ctx.attribute(MnemoServer.PRINCIPAL_ATTRIBUTE, p);
      if (!p.admin())
        throw ProblemException.forbidden("/metrics needs the admin key (or metrics.public: true)");
      return;
    }
    if (roles.contains(Access.PUBLIC)) return;
    long declared = ctx.req().getContentLengthLong();
    if (declared > config.maxRequestBytes()) {
      // Refuse before authenticating, and without keeping a body that will be refused anyway.
      swallow(ctx, declared);
      throw ProblemException.field(
          413,
          "too-large",
          "Content too large",
          "body",
          declared,
          "the request body has "
              + declared
              + " bytes; at most "
              + config.maxRequestBytes()
              + " (limits.max_request_bytes)");
    }
    KeyStore.Principal p = server.authenticate(ctx.header("Authorization"), ctx.ip());
    ctx.attribute(MnemoServer.PRINCIPAL_ATTRIBUTE, p);
    if (roles.contains(Access.ADMIN) && !p.admin()) {
      throw ProblemException.forbidden("this route needs the admin key");
    }
    if (roles.contains(Access.TENANT) && p.admin()) {
      throw ProblemException.forbidden(
          "the admin key manages tenants and keys; memories need a tenant's key "
              + "(POST /v1/tenants/{tenant}/keys issues one)");
    }
  }

  // ---- public ---------------------------------------------------------------------------------

  private void live(Context ctx) {
    ctx.json(JsonCodec.object().put("status", "live"));
  }

  /**
   * Ready: started, not stopping and its open file descriptors under 90% of the limit, 200; else
   * 503 naming why. One broken tenant is that tenant's problem, and the others are served, so the
   * server stays ready: the body counts the tenants whose store is unusable ({@code
   * tenants_failed}), and with the admin key lists them ({@code failed_tenants}: why, since when,
   * the next attempt to reopen it) with the descriptors and bounds. Without a key nothing names a
   * tenant; a key sent is checked (and throttled) as on any route. {@code disk}, for every caller,
   * gives the free space of the stores' file system: {@code state} ok, low (under the warning
   * threshold), full (writes answer 507; {@code message} says "disk full" with the path) or
   * unknown.
   */
  private void ready(Context ctx) {
    String why = server.notReady();
    if (why != null) throw ProblemException.of(503, "not-ready", "Not ready", why);
    boolean admin = false;
    String authorization = ctx.header("Authorization");
    if (authorization != null && !authorization.isBlank()) {
      KeyStore.Principal p = server.authenticate(authorization, ctx.ip());
      ctx.attribute(MnemoServer.PRINCIPAL_ATTRIBUTE, p);
      admin = p.admin();
    }
    var store = server.storeHealth();
    // the cluster's layout (nodes, shards) only for the admin, as the failed tenants' names
    if (store.isPresent() && !store.get().serving()) {
      throw ProblemException.of(
          503,
          "store-down",
          "Store not serving",
          "the store's cluster cannot serve every owner: "
              + store.get().status()
              + (admin ? " " + store.get().detail() : ""));
    }
    var failures = tenants.failures();
    ObjectNode o =
        JsonCodec.object()
            .put("status", "ready")
            .put("tenants_open", tenants.openCount())
            .put("tenants_failed", failures.size());
    DiskSpace.State disk = tenants.disk().state(true);
    o.putObject("disk")
        .put("state", disk.level())
        .put("path", disk.path().toString())
        .put("free_bytes", disk.usable())
        .put("min_free_bytes", disk.min())
        .put("warn_free_bytes", disk.warn())
        .put("message", disk.describe());
    store.ifPresent(h -> o.putObject("store").put("status", h.status()));
    if (!admin) {
      ctx.json(o);
      return;
    }
    o.put("tenants_max_open", tenants.maxOpen())
        .put("tenants_closed_for_room", tenants.evictions())
        .put("connections_max", server.maxConnections())
        .put("descriptors_open", Descriptors.open())
        .put("descriptors_limit", Descriptors.limit());
    ArrayNode list = o.putArray("failed_tenants");
    failures
        .values()
        .forEach(
            f ->
                list.addObject()
                    .put("tenant", f.tenant())
                    .put("failure", f.kind())
                    .put("since", f.since().toString())
                    .put("error", f.error())
                    .put("attempts", f.attempts())
                    .put("next_attempt", f.nextAttempt().toString()));
    store.ifPresent(h -> ((ObjectNode) o.get("store")).set("detail", JsonCodec.tree(h.detail())));
    ctx.json(o);
  }

  private void metrics(Context ctx) {
    ctx.contentType("text/plain; version=0.0.4; charset=utf-8").result(metrics.scrape());
  }

  private void openApi(Context ctx) {
    ctx.contentType("application/json").result(openApi);
  }

  // ---- tenant ---------------------------------------------------------------------------------

  /**
   * The tenant's memory under the request's lease (taken on first use, closed after the request).
   */
  private TenantMemory memory(Context ctx) {
    Tenants.Lease lease = ctx.attribute(MnemoServer.LEASE_ATTRIBUTE);
    if (lease == null) {
      KeyStore.Principal p = ctx.attribute(MnemoServer.PRINCIPAL_ATTRIBUTE);
      lease = server.leaseFor(p);
      ctx.attribute(MnemoServer.LEASE_ATTRIBUTE, lease);
    }
    return lease.memory();
  }

  private void remember(Context ctx) {
    Wire.Memories m = Wire.memories(body(ctx), config.maxBatchRecords());
    List<MemoryRecord> stored = memory(ctx).write(m.list(), m.single());
    ObjectNode o = JsonCodec.object();
    ArrayNode ids = o.putArray("ids");
    stored.forEach(r -> ids.add(r.id()));
    // The stored records too (a client returns them from remember, as the embedded engine does,
    // without a second round trip that a concurrent correction could race).
    ArrayNode records = o.putArray("records");
    stored.forEach(r -> records.add(RecordJson.write(r, false)));
    ctx.status(201).json(o);
  }

  /**
   * Checks records as {@code POST /v1/memories} would, without writing: 200 with every violation of
   * the engine's checks in {@code errors} (empty when valid). A body that is not a record (bad
   * JSON, a wrong type, an unknown field) is refused as a write would be.
   */
  private void validate(Context ctx) {
    Wire.Memories m = Wire.memories(body(ctx), config.maxBatchRecords());
    TenantMemory memory = memory(ctx);
    ObjectNode o = JsonCodec.object();
    ArrayNode errors = o.putArray("errors");
    for (int i = 0; i < m.list().size(); i++) {
      Problems.addViolations(
          errors, memory.validate(m.list().get(i), m.single() ? "" : BatchPath.RECORDS.item(i)));
    }
    o.put("valid", errors.isEmpty());
    ctx.json(o);
  }

  private void ingest(Context ctx) {
    List<dev.mnemo.Turn> turns = Wire.turns(body(ctx), config.maxBatchRecords());
    ctx.status(200).json(IngestJson.receipt(memory(ctx).ingest(turns)));
  }

  private void ingestProgress(Context ctx) {
    ctx.json(IngestJson.progress(memory(ctx).ingestProgress()));
  }

  private void acceptTurn(Context ctx) {
    String owner = ctx.pathParam("owner");
    String id = ctx.pathParam("id");
    TenantMemory m = memory(ctx);
    if (m.turn(owner, id).isEmpty())
      throw ProblemException.notFound("no turn '" + id + "' of owner '" + owner + "'");
    ctx.json(IngestJson.receipt(m.accept(owner, id)));
  }

  private void recall(Context ctx) {
    RecallRequest request = Wire.recall(body(ctx));
    ctx.json(Wire.recallResponse(memory(ctx).recall(request)));
  }

  private void get(Context ctx) {
    MemoryRecord r = find(ctx);
    ctx.json(RecordJson.write(r, false));
  }

  private void sources(Context ctx) {
    MemoryRecord r = find(ctx);
    ObjectNode o = JsonCodec.object();
    o.put("id", r.id());
    if (r.origin() == null) o.putNull("origin");
    else o.put("origin", r.origin());
    ArrayNode s = o.putArray("sources");
    r.sources().forEach(s::add);
    ArrayNode turns = o.putArray("turns");
    memory(ctx).sources(r.owner(), r.id()).forEach(t -> turns.add(TurnJson.write(t)));
    ctx.json(o);
  }

  private MemoryRecord find(Context ctx) {
    String owner = ctx.pathParam("owner");
    String id = ctx.pathParam("id");
    return memory(ctx)
        .get(owner, id)
        .orElseThrow(
            () -> ProblemException.notFound("no memory '" + id + "' of owner '" + owner + "'"));
  }

  private void forgetRecord(Context ctx) {
    String owner = ctx.pathParam("owner");
    String id = ctx.pathParam("id");
    int n = memory(ctx).forget(owner, id);
    if (n == 0) throw ProblemException.notFound("no memory '" + id + "' of owner '" + owner + "'");
    ctx.json(JsonCodec.object().put("id", id).put("deleted", n));
  }

  private void forgetOwner(Context ctx) {
    String owner = ctx.pathParam("owner");
    int n = memory(ctx).forget(owner);
    ctx.json(JsonCodec.object().put("owner", owner).put("deleted", n));
  }

  private void history(Context ctx) {
    String owner = ctx.pathParam("owner");
    for (String q : ctx.queryParamMap().keySet()) {
      if (!q.equals("fact_key")) {
        throw new InvalidRequestException(
            q, q, "unknown query parameter " + q + "; expected fact_key");
      }
    }
    String factKey = ctx.queryParam("fact_key");
    if (factKey == null) {
      throw new InvalidRequestException("fact_key", null, "fact_key is required: ?fact_key=KEY");
    }
    // a key looked up is no longer than a stored one may be, as on writes
    dev.mnemo.InputRules.requireLength("fact_key", factKey, dev.mnemo.InputRules.MAX_KEY_CHARS);
    ObjectNode o = JsonCodec.object();
    o.put("owner", owner);
    o.put("fact_key", factKey);
    ArrayNode versions = o.putArray("versions");
    for (MemoryRecord r : memory(ctx).history(owner, factKey))
      versions.add(RecordJson.write(r, false));
    ctx.json(o);
  }

  /** Summarizes an episode (a new version of its summary); 404 when it has no current records. */
  private void summarize(Context ctx) {
    String owner = ctx.pathParam("owner");
    String episode = ctx.pathParam("episode");
    dev.mnemo.InputRules.requireLength("episode", episode, dev.mnemo.InputRules.MAX_KEY_CHARS);
    MemoryRecord r =
        memory(ctx)
            .summarize(owner, episode)
            .orElseThrow(
                () ->
                    ProblemException.notFound(
                        "episode '"
                            + episode
                            + "' of owner '"
                            + owner
                            + "' has no current records: nothing to summarize"));
    ctx.status(201).json(RecordJson.write(r, false));
  }

  /** Moves a record to another category ({@code {"category": "procedural"}}): a new version. */
  private void recategorize(Context ctx) {
    JsonNode b = body(ctx);
    if (!b.isObject() || !b.path("category").isTextual()) {
      throw new InvalidRequestException(
          "category",
          b.path("category").toString(),
          "category is required: {\"category\": \"semantic|episodic|procedural|task\"}");
    }
    for (var it = b.fieldNames(); it.hasNext(); ) {
      String f = it.next();
      if (!f.equals("category"))
        throw new InvalidRequestException(f, f, "unknown field " + f + "; expected [category]");
    }
    dev.mnemo.Category category =
        dev.mnemo.Category.fromCode("category", b.get("category").asText());
    String owner = ctx.pathParam("owner");
    String id = ctx.pathParam("id");
    if (memory(ctx).get(owner, id).isEmpty())
      throw ProblemException.notFound("no memory '" + id + "' of owner '" + owner + "'");
    ctx.status(201).json(RecordJson.write(memory(ctx).recategorize(owner, id, category), false));
  }

  private void markUsed(Context ctx) {
    String owner = ctx.pathParam("owner");
    Wire.UsedReport report = Wire.used(body(ctx));
    TenantMemory m = memory(ctx);
    // ids the tenant has no record of are named, not echoed as used
    List<String> unknown = dev.mnemo.UsedRecords.unknown(m, owner, report.ids());
    List<String> ids =
        report.ids().stream().distinct().filter(id -> !unknown.contains(id)).toList();
    if (report.answer() != null) { // the caller gave its answer: mark only the records it used
      List<dev.mnemo.MemoryRecord> records =
          ids.stream().map(id -> m.get(owner, id)).flatMap(java.util.Optional::stream).toList();
      ids = dev.mnemo.UsedRecords.in(report.query(), report.answer(), records);
    }
    int n = ids.isEmpty() ? 0 : m.markUsed(owner, ids);
    ObjectNode out = JsonCodec.object().put("owner", owner).put("updated", n);
    ArrayNode used = out.putArray("used");
    ids.stream().distinct().forEach(used::add);
    ArrayNode unknownIds = out.putArray("unknown");
    unknown.forEach(unknownIds::add);
    ctx.json(out);
  }

  private void exportOwner(Context ctx) {
    export(ctx, ctx.pathParam("owner"));
  }

  private void exportTenant(Context ctx) {
    export(ctx, null);
  }

  /**
   * Streams records as JSON lines (all versions, oldest first as the store keeps them). Once the
   * first line is out the status is sent, so a failure mid-stream cuts the stream short instead of
   * becoming a problem document: a client checks that the last line ends with a newline.
   */
  private void export(Context ctx, String owner) {
    String e = ctx.queryParam("embeddings");
    if (e != null && !e.equals("true") && !e.equals("false")) {
      throw new InvalidRequestException(
          "embeddings", e, "embeddings must be true or false, was '" + e + "'");
    }
    boolean withEmbeddings = "true".equals(e);
    TenantMemory m = memory(ctx);
    if (owner != null) {
      // The engine's checks (a blank owner) before the status line goes out.
      m.get(owner, "-");
    }
    ctx.contentType(NDJSON);
    try (OutputStream out = new BufferedOutputStream(ctx.outputStream(), 64 * 1024)) {
      m.export(
          owner,
          r -> {
            try {
              out.write(JsonCodec.WRITER.writeValueAsBytes(RecordJson.write(r, withEmbeddings)));
              out.write('\n');
            } catch (IOException x) {
              throw new UncheckedIOException(x);
            }
          });
    } catch (IOException x) {
      throw new UncheckedIOException(x);
    }
  }

  // ---- admin ----------------------------------------------------------------------------------

  private static String tenant(Context ctx) {
    String t = ctx.pathParam("tenant");
    if (!KeyStore.TENANT.matcher(t).matches()) {
      throw new InvalidRequestException(
          "tenant",
          t,
          "tenant must be 1 to 63 of [a-z0-9_-], starting with a letter or "
              + "digit, was '"
              + t
              + "'");
    }
    return t;
  }

  private void createKey(Context ctx) {
    String tenant = tenant(ctx);
    String label = Wire.keyLabel(ctx.bodyAsBytes());
    KeyStore.Issued issued = keys.issue(tenant, label);
    ObjectNode o = JsonCodec.object();
    o.put("key", issued.key());
    o.put("key_id", issued.entry().id());
    o.put("tenant", tenant);
    o.put("created_at", issued.entry().createdAt().toString());
    if (label != null) o.put("label", label);
    ctx.status(201).json(o);
  }

  private void listKeys(Context ctx) {
    String tenant = tenant(ctx);
    ObjectNode o = JsonCodec.object();
    o.put("tenant", tenant);
    ArrayNode arr = o.putArray("keys");
    for (KeyStore.Entry e : keys.list(tenant)) {
      ObjectNode k = arr.addObject();
      k.put("key_id", e.id());
      k.put("created_at", e.createdAt().toString());
      if (e.label() == null) k.putNull("label");
      else k.put("label", e.label());
    }
    ctx.json(o);
  }

  private void revokeKey(Context ctx) {
    String tenant = tenant(ctx);
    String id = ctx.pathParam("key_id");
    if (!keys.revoke(tenant, id))
      throw ProblemException.notFound("tenant '" + tenant + "' has no key '" + id + "'");
    ctx.json(JsonCodec.object().put("tenant", tenant).put("key_id", id).put("revoked", true));
  }

  private void listTenants(Context ctx) {
    Set<String> names = new TreeSet<>(keys.tenants());
    names.addAll(tenants.onDisk());
    ObjectNode o = JsonCodec.object();
    ArrayNode arr = o.putArray("tenants");
    for (String t : names) {
      arr.addObject()
          .put("tenant", t)
          .put("keys", keys.list(t).size())
          .put("store", tenants.onDisk().contains(t));
    }
    ctx.json(o);
  }

  private void deleteTenant(Context ctx) {
    String tenant = tenant(ctx);
    int revoked = keys.revokeAll(tenant); // first: no new request of the tenant gets in
    boolean deleted = tenants.delete(tenant);
    if (revoked == 0 && !deleted) throw ProblemException.notFound("no tenant '" + tenant + "'");
    ctx.json(
        JsonCodec.object()
            .put("tenant", tenant)
            .put("keys_revoked", revoked)
            .put("store_deleted", deleted));
  }

  /**
   * Closes the tenant's store and opens it again now (after fixing what broke it); 503 when it
   * still cannot open.
   */
  private void reopenTenant(Context ctx) {
    String tenant = tenant(ctx);
    if (!tenants.known(tenant))
      throw ProblemException.notFound("no store of tenant '" + tenant + "'");
    tenants.reopen(tenant);
    ctx.json(JsonCodec.object().put("tenant", tenant).put("status", "open"));
  }

  // ---- helpers --------------------------------------------------------------------------------

  /**
   * The body as JSON, or null when the request has none (read once, within the same limits as
   * {@link #body}).
   */
  private JsonNode optionalBody(Context ctx) {
    byte[] bytes = readBody(ctx);
    if (bytes.length == 0) return null;
    checkJsonType(ctx);
    return Wire.parse(bytes);
  }

  private void checkJsonType(Context ctx) {
    // the raw header: the servlet's getContentType() looks the charset up and throws (500) for a
    // name such as 'charset=\u00ff'
    String ct = ctx.header("Content-Type");
    if (ct != null && !isJson(ct)) {
      throw ProblemException.field(
          415,
          "unsupported-media-type",
          "Unsupported media type",
          "Content-Type",
          ct,
          "the body must be application/json (charset utf-8 if one is named), was '" + ct + "'");
    }
  }

  private JsonNode body(Context ctx) {
    checkJsonType(ctx);
    return Wire.parse(readBody(ctx));
  }

  /**
   * The request body, read within {@code limits.read_timeout_ms} in all and at most {@code
   * limits.max_request_bytes}: Jetty's idle timeout only bounds the pause between two bytes, so a
   * client sending a byte a second would otherwise hold the request forever. Over time: 408, over
   * size (a chunked body declares none): 413; either way the connection is closed.
   */
  private byte[] readBody(Context ctx) {
    long deadline = System.nanoTime() + config.readTimeout().toNanos();
    long max = config.maxRequestBytes();
    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
    byte[] buf = new byte[16 * 1024];
    try (InputStream in = ctx.req().getInputStream()) {
      for (int n; (n = in.read(buf)) >= 0; ) {
        out.write(buf, 0, n);
        if (out.size() > max) {
          ctx.header("Connection", "close");
          throw ProblemException.field(
              413,
              "too-large",
              "Content too large",
              "body",
              out.size(),
              "the request body has " + "more than " + max + " bytes (limits.max_request_bytes)");
        }
        if (System.nanoTime() > deadline) {
          ctx.header("Connection", "close");
          throw ProblemException.of(
              408,
              "timeout",
              "Request timeout",
              "the request body did not arrive within "
                  + config.readTimeout().toMillis()
                  + " ms (limits.read_timeout_ms)");
        }
      }
    } catch (IOException e) {
      throw ProblemException.of(
          400,
          "bad-request",
          "Bad request",
          "the request body could not be read: " + e.getMessage());
    }
    return out.toByteArray();
  }

  /**
   * Exactly {@code application/json}, with at most a {@code charset=utf-8} parameter (not {@code
   * application/jsonx}).
   */
  static boolean isJson(String contentType) {
    String[] parts = contentType.toLowerCase(java.util.Locale.ROOT).split(";", -1); // ";;;" too
    if (!parts[0].trim().equals("application/json")) return false;
    for (int i = 1; i < parts.length; i++) {
      String p = parts[i].trim();
      if (p.isEmpty()) continue;
      if (!p.replace("\"", "").replace(" ", "").equals("charset=utf-8")) return false;
    }
    return true;
  }
}

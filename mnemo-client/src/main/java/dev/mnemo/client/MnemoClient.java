package dev.mnemo.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mnemo.Category;
import dev.mnemo.IngestProgress;
import dev.mnemo.IngestReceipt;
import dev.mnemo.InvalidRequestException;
import dev.mnemo.InvalidRequestException.Violation;
import dev.mnemo.MemoryRecord;
import dev.mnemo.Mnemo;
import dev.mnemo.MnemoException;
import dev.mnemo.NewMemory;
import dev.mnemo.RecallRequest;
import dev.mnemo.RecallResult;
import dev.mnemo.RetrievalLog;
import dev.mnemo.Turn;
import dev.mnemo.json.BatchPath;
import dev.mnemo.json.JsonCodec;
import dev.mnemo.json.MemoryJson;
import dev.mnemo.json.RecordJson;
import dev.mnemo.json.RequestJson;
import dev.mnemo.json.ResultJson;
import dev.mnemo.json.TurnJson;
import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Consumer;

/**
 * {@link Mnemo} over a {@code mnemo serve} REST server: the same interface as the embedded engine,
 * so code moves from embedded to a shared server by changing the line that builds it.
 *
 * <pre>{@code
 * Mnemo mnemo = Mnemo.builder().directory(Path.of("memory")).build();                 // embedded
 * Mnemo mnemo = MnemoClient.builder().url("http://mnemo:8080").apiKey(key).build();   // a shared server
 * }</pre>
 *
 * <p><b>Errors.</b> Invalid input is an {@link InvalidRequestException} carrying the server's field
 * violations (a batch's items are named {@code memories[i].} as the engine names them); anything
 * else the server refuses, or a server that cannot be reached, is a {@link MnemoRemoteException}
 * with the status, problem type and request id. A record id the server does not find is an empty
 * {@link #get} and a {@code 0} from {@link #forget(String, String)}, as embedded.
 *
 * <p><b>Retries.</b> A call is retried with exponential back-off and jitter, up to {@code
 * maxAttempts} in all, only when repeating it cannot do harm: a connection that could not be opened
 * (nothing was sent), 429 and 503 (the server refused before doing anything; a {@code Retry-After}
 * is honoured up to {@code maxRetryAfter}), and, for calls that are safe to repeat (reads and
 * replays, forgets, ingest, which is idempotent by turn id, and accept, whose repetition is a
 * duplicate), a time-out, a broken connection, 502 and 504. A write that may have been applied
 * (remember, mark-used) is never repeated after it was sent; 4xx validation errors and 500 are
 * never retried.
 *
 * <p>What the wire does not carry: {@link dev.mnemo.Fusion} RRF travels as its code (k = 60 on the
 * server); trace signals and stage times come back rounded as the server renders them (4 decimals,
 * milliseconds). {@link #ingest} reads back the records the server produced by id (one extra
 * request per record).
 *
 * <p><b>Facets.</b> The client offers every capability the server serves: besides the {@link Mnemo}
 * methods, {@link #retrievalLog()} over {@code /v1/recalls}. The server serves no turn export,
 * import, restore or retention and no engine internals, so {@link #maintenance()} and {@link
 * #diagnostics()} are empty. Thread-safe; {@link #close()} closes the HTTP client when the builder
 * made it.
 */
public final class MnemoClient implements Mnemo {
  /** Most ids the server takes in one mark-used request; larger lists are sent in parts. */
  static final int MAX_IDS_PER_REQUEST = 1_000;

  private static final String PROBLEM_PREFIX = "urn:mnemo:problem:";

  /** How the client waits between attempts; tests replace it to run without sleeping. */
  interface Sleeper {
    void sleep(Duration d) throws InterruptedException;
  }

  private final String base;
  private final String authorization;
  private final HttpClient http;
  private final boolean ownsHttp;
  private final Duration timeout;
  private final int maxAttempts;
  private final Duration initialBackoff;
  private final Duration maxBackoff;
  private final Duration maxRetryAfter;
  private final Sleeper sleeper;

  /** Whether the tenant keeps a retrieval log; null until asked. */
  private volatile Optional<RetrievalLog> retrievalLog;

  private MnemoClient(Builder b) {
    this.base = b.url.toString().replaceAll("/+$", "");
    this.authorization = b.apiKey == null ? null : "Bearer " + b.apiKey;
    this.ownsHttp = b.http == null;
    this.http =
        b.http != null ? b.http : HttpClient.newBuilder().connectTimeout(b.connectTimeout).build();
    this.timeout = b.timeout;
    this.maxAttempts = b.maxAttempts;
    this.initialBackoff = b.initialBackoff;
    this.maxBackoff = b.maxBackoff;
    this.maxRetryAfter = b.maxRetryAfter;
    this.sleeper = b.sleeper;
  }

  public static Builder builder() {
    return new Builder();
  }

  // ---- Mnemo ----------------------------------------------------------------------------------

  @Override
  public MemoryRecord remember(NewMemory memory) {
    Objects.requireNonNull(memory, "memory");
    JsonNode r = send("POST", "/v1/memories", MemoryJson.write(memory), false, false).json();
    return read(() -> RecordJson.readAnswer(r.path("records").get(0)));
  }

  @Override
  public List<MemoryRecord> rememberAll(List<NewMemory> memories) {
    if (memories == null)
      throw new InvalidRequestException("memories", null, "memories must not be null");
    if (memories.isEmpty()) return List.of();
    ObjectNode body = JsonCodec.object();
    ArrayNode records = body.putArray("records");
    for (NewMemory m : memories)
      records.add(m == null ? JsonCodec.nullNode() : MemoryJson.write(m));
    JsonNode r;
    try {
      r = send("POST", "/v1/memories", body, false, false).json();
    } catch (InvalidRequestException e) {
      throw BatchPath.RECORDS.renamed(e, BatchPath.MEMORIES);
    }
    return read(
        () -> {
          List<MemoryRecord> out = new ArrayList<>();
          for (JsonNode x : r.path("records")) out.add(RecordJson.readAnswer(x));
          return out;
        });
  }

  /**
   * Checks the memory on the server, which knows its own limits (text length), and writes nothing.
   */
  @Override
  public List<Violation> validate(NewMemory memory, String fieldPrefix) {
    String p = fieldPrefix == null ? "" : fieldPrefix;
    if (memory == null) {
      return List.of(
          new Violation(
              p.isEmpty() ? "memory" : p.substring(0, p.length() - 1),
              null,
              p + "memory must not be null"));
    }
    JsonNode r =
        send("POST", "/v1/memories/validate", MemoryJson.write(memory), true, false).json();
    List<Violation> out = new ArrayList<>();
    for (JsonNode e : r.path("errors")) out.add(violation(e, p));
    return out;
  }

  @Override
  public IngestReceipt ingest(List<Turn> turns) {
    Objects.requireNonNull(turns, "turns");
    if (turns.isEmpty()) return new IngestReceipt(List.of(), List.of(), 0, List.of());
    ObjectNode body = JsonCodec.object();
    ArrayNode arr = body.putArray("turns");
    for (Turn t : turns) arr.add(t == null ? JsonCodec.nullNode() : TurnJson.write(t));
    JsonNode r = send("POST", "/v1/ingest", body, true, false).json();
    LinkedHashSet<String> owners = new LinkedHashSet<>();
    for (Turn t : turns) if (t != null && t.owner() != null) owners.add(t.owner());
    return receipt(r, owners);
  }

  /** The receipt names the records by id; they are read back from the owners of the turns. */
  private IngestReceipt receipt(JsonNode r, Collection<String> owners) {
    List<MemoryRecord> records = new ArrayList<>();
    for (String id : strings(r.path("records"))) {
      for (String owner : owners) {
        Optional<MemoryRecord> found = get(owner, id);
        if (found.isPresent()) {
          records.add(found.get());
          break;
        }
      }
    }
    return new IngestReceipt(
        strings(r.path("accepted")),
        strings(r.path("duplicates")),
        r.path("queued").asInt(),
        records);
  }

  @Override
  public List<Turn> sources(String owner, String recordId) {
    requireOwner(owner);
    if (recordId == null || recordId.isBlank()) return List.of();
    Reply r =
        send(
            "GET",
            ownerPath(owner) + "/memories/" + encode(recordId) + "/sources",
            null,
            true,
            true);
    if (r.status() == 404) return List.of();
    JsonNode turns = r.json().path("turns");
    return read(
        () -> {
          List<Turn> out = new ArrayList<>();
          for (int i = 0; i < turns.size(); i++)
            out.add(TurnJson.read(turns.get(i), "turns[" + i + "]."));
          return out;
        });
  }

  /**
   * Accepting is idempotent (a turn already accepted is reported as a duplicate), so it is retried
   * like a read.
   */
  @Override
  public IngestReceipt accept(String owner, String id) {
    requireOwner(owner);
    if (id == null || id.isBlank())
      throw new InvalidRequestException("id", id, "id must not be blank, was " + id);
    Reply r = send("POST", ownerPath(owner) + "/turns/" + encode(id) + "/accept", null, true, true);
    if (r.status() == 404) {
      throw new InvalidRequestException(
          "id", id, "no turn '" + id + "' of owner '" + owner + "' in the turn log");
    }
    return receipt(r.json(), List.of(owner));
  }

  /** The tenant's progress: its engine extracts the turns of every owner of the tenant. */
  @Override
  public IngestProgress ingestProgress() {
    JsonNode n = send("GET", "/v1/ingest/progress", null, true, false).json();
    return read(
        () ->
            new IngestProgress(
                n.path("pending").asLong(),
                n.path("extracted").asLong(),
                n.path("kept").asLong(),
                n.path("errors").asLong(),
                n.path("records_written").asLong(),
                n.path("duplicates_merged").asLong(),
                n.path("conflicts").asLong(),
                n.hasNonNull("last_error") ? n.get("last_error").asText() : null,
                n.path("dead_lettered").asLong(),
                strings(n.path("dead_letters"))));
  }

  /**
   * Asks the server for its progress until no turn is pending (the server has no call that waits),
   * at first every 20 ms, the pause doubling up to 500 ms; false when {@code timeout} passed first.
   */
  @Override
  public boolean awaitIngested(Duration timeout) {
    Objects.requireNonNull(timeout, "timeout");
    long deadline = System.nanoTime() + timeout.toNanos();
    long pause = 20;
    while (ingestProgress().pending() > 0) {
      long left = deadline - System.nanoTime();
      if (left <= 0) return false;
      try {
        sleeper.sleep(Duration.ofMillis(Math.min(pause, Math.max(1, left / 1_000_000))));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new MnemoException("awaitIngested: interrupted", false, e);
      }
      pause = Math.min(500, pause * 2);
    }
    return true;
  }

  /**
   * The tenant's retrieval log over {@code /v1/recalls}: present when the tenant's store keeps one
   * (asked once, with the first call; a SolrCloud tenant answers 501 and has none).
   */
  @Override
  public Optional<RetrievalLog> retrievalLog() {
    Optional<RetrievalLog> known = retrievalLog;
    if (known == null) {
      try {
        send("GET", "/v1/recalls?limit=1", null, true, false);
        known = Optional.of(new RemoteRetrievalLog(this));
      } catch (MnemoRemoteException e) {
        if (e.status() != 501) throw e;
        known = Optional.empty();
      }
      retrievalLog = known;
    }
    return known;
  }

  /** {@code GET} of a JSON answer: retried like every read; 404 when {@code notFoundIsAnswer}. */
  Reply httpGet(String path, boolean notFoundIsAnswer) {
    return send("GET", path, null, true, notFoundIsAnswer);
  }

  /** {@code POST} of a read-only call (a replay): retried like a read. */
  Reply httpPostRepeatable(String path, JsonNode body, boolean notFoundIsAnswer) {
    return send("POST", path, body, true, notFoundIsAnswer);
  }

  @Override
  public RecallResult recall(RecallRequest request) {
    Objects.requireNonNull(request, "request");
    JsonNode r = send("POST", "/v1/recall", RequestJson.write(request), true, false).json();
    return read(() -> ResultJson.read(r, ResultJson.Shape.REST));
  }

  @Override
  public List<MemoryRecord> history(String owner, String factKey) {
    requireOwner(owner);
    JsonNode r =
        send(
                "GET",
                ownerPath(owner) + "/history?fact_key=" + encode(factKey == null ? "" : factKey),
                null,
                true,
                false)
            .json();
    return read(
        () -> {
          List<MemoryRecord> out = new ArrayList<>();
          for (JsonNode x : r.path("versions")) out.add(RecordJson.readAnswer(x));
          return out;
        });
  }

  @Override
  public Optional<MemoryRecord> summarize(String owner, String episode) {
    requireOwner(owner);
    if (episode == null || episode.isBlank()) {
      throw new InvalidRequestException(
          "episode", episode, "episode must not be blank, was " + episode);
    }
    Reply r =
        send(
            "POST",
            ownerPath(owner) + "/episodes/" + encode(episode) + "/summary",
            null,
            false,
            true);
    if (r.status() == 404) return Optional.empty();
    return Optional.of(read(() -> RecordJson.readAnswer(r.json())));
  }

  @Override
  public MemoryRecord recategorize(String owner, String id, Category category) {
    requireOwner(owner);
    java.util.Objects.requireNonNull(category, "category");
    JsonNode body = JsonCodec.object().put("category", category.code());
    Reply r =
        send(
            "POST",
            ownerPath(owner) + "/memories/" + encode(id == null ? "" : id) + "/category",
            body,
            false,
            true);
    if (r.status() == 404)
      throw new InvalidRequestException(
          "id", id, "no record '" + id + "' of owner '" + owner + "'");
    return read(() -> RecordJson.readAnswer(r.json()));
  }

  @Override
  public Optional<MemoryRecord> get(String owner, String id) {
    requireOwner(owner);
    if (id == null || id.isBlank()) return Optional.empty();
    Reply r = send("GET", ownerPath(owner) + "/memories/" + encode(id), null, true, true);
    if (r.status() == 404) return Optional.empty();
    return Optional.of(read(() -> RecordJson.readAnswer(r.json())));
  }

  @Override
  public int forget(String owner) {
    requireOwner(owner);
    return send("DELETE", ownerPath(owner), null, true, false).json().path("deleted").asInt();
  }

  @Override
  public int forget(String owner, String id) {
    requireOwner(owner);
    if (id == null || id.isBlank()) return 0;
    Reply r = send("DELETE", ownerPath(owner) + "/memories/" + encode(id), null, true, true);
    return r.status() == 404 ? 0 : r.json().path("deleted").asInt();
  }

  @Override
  public int markUsed(String owner, Collection<String> ids) {
    requireOwner(owner);
    Objects.requireNonNull(ids, "ids");
    List<String> distinct = new ArrayList<>(new LinkedHashSet<>(ids));
    int updated = 0;
    for (int from = 0; from < distinct.size(); from += MAX_IDS_PER_REQUEST) {
      ObjectNode body = JsonCodec.object();
      distinct
          .subList(from, Math.min(distinct.size(), from + MAX_IDS_PER_REQUEST))
          .forEach(body.putArray("ids")::add);
      updated +=
          send("POST", ownerPath(owner) + "/used", body, false, false)
              .json()
              .path("updated")
              .asInt();
    }
    return updated;
  }

  /**
   * Streams the records as the server sends them (JSON lines), without holding them all. A stream
   * that ends without its final newline was cut short by the server: that is a retriable {@link
   * MnemoRemoteException} after the records already handed to the sink.
   */
  @Override
  public void export(String owner, Consumer<MemoryRecord> sink) {
    Objects.requireNonNull(sink, "sink");
    if (owner != null) requireOwner(owner);
    String path = owner == null ? "/v1/export" : ownerPath(owner) + "/export";
    HttpResponse<InputStream> r =
        exchange("GET", path, null, true, false, HttpResponse.BodyHandlers.ofInputStream());
    try (InputStream in = r.body()) {
      java.io.ByteArrayOutputStream line = new java.io.ByteArrayOutputStream();
      int c;
      int count = 0;
      while ((c = in.read()) != -1) {
        if (c != '\n') {
          line.write(c);
          continue;
        }
        JsonNode n = JsonCodec.READER.readTree(line.toByteArray());
        line.reset();
        sink.accept(read(() -> RecordJson.readAnswer(n)));
        count++;
      }
      if (line.size() > 0) {
        throw new MnemoRemoteException(
            "GET "
                + path
                + ": the export was cut short after "
                + count
                + " records (the last line has no newline); export again",
            true,
            r.statusCode(),
            null,
            r.headers().firstValue("X-Request-Id").orElse(null),
            null);
      }
    } catch (IOException e) {
      throw new MnemoRemoteException(
          "GET " + path + ": the export stream broke: " + e.getMessage(),
          true,
          r.statusCode(),
          null,
          r.headers().firstValue("X-Request-Id").orElse(null),
          e);
    }
  }

  @Override
  public void close() {
    if (ownsHttp) http.close();
  }

  @Override
  public String toString() {
    return "MnemoClient[" + base + "]";
  }

  // ---- HTTP -----------------------------------------------------------------------------------

  record Reply(int status, byte[] body) {
    JsonNode json() {
      try {
        return JsonCodec.READER.readTree(body);
      } catch (IOException e) {
        throw new MnemoRemoteException(
            "the server's answer is not JSON: " + e.getMessage(), false, status, null, null, e);
      }
    }
  }

  private Reply send(
      String method, String path, JsonNode body, boolean repeatable, boolean notFoundIsAnswer) {
    HttpResponse<byte[]> r =
        exchange(
            method,
            path,
            body,
            repeatable,
            notFoundIsAnswer,
            HttpResponse.BodyHandlers.ofByteArray());
    return new Reply(r.statusCode(), r.body());
  }

  /**
   * One call with the retry policy of the class comment. Returns a 2xx answer (or a 404 when {@code
   * notFoundIsAnswer}); throws everything else as the class comment says.
   *
   * @param repeatable whether the call may be repeated after it reached the server (a read, or an
   *     idempotent write)
   */
  private <T> HttpResponse<T> exchange(
      String method,
      String path,
      JsonNode body,
      boolean repeatable,
      boolean notFoundIsAnswer,
      HttpResponse.BodyHandler<T> handler) {
    HttpRequest.Builder rb =
        HttpRequest.newBuilder(URI.create(base + path))
            .timeout(timeout)
            .header("Accept", "application/json, application/problem+json, application/x-ndjson")
            .header("User-Agent", "mnemo-client");
    if (authorization != null) rb.header("Authorization", authorization);
    if (body != null) {
      rb.header("Content-Type", "application/json");
      try {
        rb.method(
            method,
            HttpRequest.BodyPublishers.ofByteArray(JsonCodec.WRITER.writeValueAsBytes(body)));
      } catch (IOException e) {
        throw new IllegalStateException("could not write the request body", e);
      }
    } else {
      rb.method(method, HttpRequest.BodyPublishers.noBody());
    }
    HttpRequest request = rb.build();
    String call = method + " " + path.replaceAll("\\?.*", "");
    for (int attempt = 1; ; attempt++) {
      MnemoRemoteException failure;
      Duration wait = null;
      try {
        HttpResponse<T> r = http.send(request, handler);
        int s = r.statusCode();
        if (s / 100 == 2 || (s == 404 && notFoundIsAnswer)) return r;
        Problem p =
            Problem.of(s, bodyBytes(r.body()), r.headers().firstValue("X-Request-Id").orElse(null));
        if (p.invalidInput()) throw p.toInvalidRequest();
        boolean retriable = s == 429 || s == 503 || (repeatable && (s == 502 || s == 504));
        failure =
            new MnemoRemoteException(
                call + ": " + p.summary(), retriable, s, p.type(), p.requestId(), null);
        if (retriable) {
          Optional<Duration> after = retryAfter(r.headers().firstValue("Retry-After").orElse(null));
          if (after.isPresent() && after.get().compareTo(maxRetryAfter) > 0) {
            throw new MnemoRemoteException(
                call
                    + ": "
                    + p.summary()
                    + " (the server asks to retry after "
                    + after.get().toSeconds()
                    + " s, more than maxRetryAfter "
                    + maxRetryAfter.toSeconds()
                    + " s)",
                true,
                s,
                p.type(),
                p.requestId(),
                null);
          }
          wait = after.orElse(null);
        }
      } catch (HttpConnectTimeoutException | ConnectException e) {
        // Nothing reached the server: always safe to try again.
        failure =
            new MnemoRemoteException(
                call + ": could not connect to " + base + " (" + describe(e) + ")",
                true,
                0,
                null,
                null,
                e);
      } catch (HttpTimeoutException e) {
        failure =
            new MnemoRemoteException(
                call
                    + ": no answer within "
                    + timeout.toMillis()
                    + " ms"
                    + (repeatable ? "" : "; the write may or may not have been applied"),
                repeatable,
                0,
                null,
                null,
                e);
      } catch (IOException e) {
        failure =
            new MnemoRemoteException(
                call
                    + ": the connection to "
                    + base
                    + " failed ("
                    + describe(e)
                    + ")"
                    + (repeatable ? "" : "; the write may or may not have been applied"),
                repeatable,
                0,
                null,
                null,
                e);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new MnemoException(call + ": interrupted", false, e);
      }
      if (!failure.retriable() || attempt >= maxAttempts) {
        if (attempt > 1 && failure.retriable()) {
          throw new MnemoRemoteException(
              failure.getMessage() + " (after " + attempt + " attempts)",
              true,
              failure.status(),
              failure.type(),
              failure.requestId(),
              failure.getCause());
        }
        throw failure;
      }
      try {
        sleeper.sleep(wait != null ? wait : backoff(attempt));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new MnemoException(call + ": interrupted while waiting to retry", false, e);
      }
    }
  }

  /**
   * Exponential back-off with equal jitter: half the step, plus a random part of the other half.
   */
  private Duration backoff(int attempt) {
    long step = initialBackoff.toMillis() << Math.min(attempt - 1, 20);
    long capped = Math.min(step, maxBackoff.toMillis());
    long half = capped / 2;
    return Duration.ofMillis(
        half + (half > 0 ? ThreadLocalRandom.current().nextLong(half + 1) : 0));
  }

  /** A Retry-After header: delta-seconds or an HTTP date (RFC 9110). */
  static Optional<Duration> retryAfter(String header) {
    if (header == null || header.isBlank()) return Optional.empty();
    String h = header.trim();
    try {
      return Optional.of(Duration.ofSeconds(Math.max(0, Long.parseLong(h))));
    } catch (NumberFormatException e) {
      try {
        ZonedDateTime at = ZonedDateTime.parse(h, DateTimeFormatter.RFC_1123_DATE_TIME);
        Duration d = Duration.between(java.time.Instant.now(), at.toInstant());
        return Optional.of(d.isNegative() ? Duration.ZERO : d);
      } catch (DateTimeParseException x) {
        return Optional.empty();
      }
    }
  }

  private static byte[] bodyBytes(Object body) throws IOException {
    if (body instanceof byte[] b) return b;
    if (body instanceof InputStream in) {
      try (in) {
        return in.readAllBytes();
      }
    }
    return new byte[0];
  }

  private static String describe(Throwable e) {
    return e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
  }

  /**
   * A problem+json answer, read leniently (a proxy's HTML error page is a problem without fields).
   */
  private record Problem(
      int status, String type, String detail, List<Violation> violations, String requestId) {
    static Problem of(int status, byte[] body, String requestIdHeader) {
      JsonNode n;
      try {
        n = body.length == 0 ? JsonCodec.object() : JsonCodec.READER.readTree(body);
      } catch (IOException e) {
        n = JsonCodec.object();
      }
      if (n == null || !n.isObject()) n = JsonCodec.object();
      String type = n.path("type").asText(null);
      if (type != null && type.startsWith(PROBLEM_PREFIX))
        type = type.substring(PROBLEM_PREFIX.length());
      List<Violation> v = new ArrayList<>();
      for (JsonNode e : n.path("errors")) v.add(violation(e, ""));
      String requestId =
          n.hasNonNull("request_id") ? n.get("request_id").asText() : requestIdHeader;
      return new Problem(status, type, n.path("detail").asText(null), v, requestId);
    }

    /** A refusal of the input: bad JSON, a bad field, too large, a wrong media type. */
    boolean invalidInput() {
      return status == 400 || status == 413 || status == 415 || status == 422;
    }

    InvalidRequestException toInvalidRequest() {
      if (!violations.isEmpty()) return new InvalidRequestException(violations);
      return new InvalidRequestException(
          "body",
          null,
          detail != null ? detail : "the server refused the request (" + status + ")");
    }

    String summary() {
      return status
          + (type == null ? "" : " " + type)
          + (detail == null ? "" : ": " + detail)
          + (requestId == null ? "" : " (request_id " + requestId + ")");
    }
  }

  private static Violation violation(JsonNode e, String prefix) {
    JsonNode v = e.get("value");
    Object value;
    if (v == null || v.isNull()) value = null;
    else if (v.isTextual()) value = v.asText();
    else if (v.isInt()) value = v.intValue();
    else if (v.isIntegralNumber()) value = v.longValue();
    else if (v.isNumber()) value = v.doubleValue();
    else if (v.isBoolean()) value = v.booleanValue();
    else value = v.toString();
    return new Violation(
        prefix + e.path("field").asText(), value, prefix + e.path("message").asText());
  }

  <T> T read(java.util.function.Supplier<T> reader) {
    try {
      return reader.get();
    } catch (IllegalArgumentException | NullPointerException e) {
      throw new MnemoRemoteException(
          "the server's answer could not be read (is "
              + base
              + " a Mnemo server of this "
              + "version?): "
              + e.getMessage(),
          false,
          200,
          null,
          null,
          e);
    }
  }

  static List<String> strings(JsonNode arr) {
    List<String> out = new ArrayList<>();
    arr.forEach(x -> out.add(x.asText()));
    return out;
  }

  /** The engine's own check, made here because a blank owner cannot be put in a URL path. */
  private static void requireOwner(String owner) {
    if (owner == null || owner.isBlank()) {
      throw new InvalidRequestException("owner", owner, "owner must not be blank, was " + owner);
    }
  }

  private static String ownerPath(String owner) {
    return "/v1/owners/" + encode(owner);
  }

  /** Percent-encodes a path segment or query value (a space is %20, not +). */
  static String encode(String s) {
    return URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20");
  }

  /**
   * Configures a {@link MnemoClient}. Defaults: connect time-out 5 s, call time-out 30 s, 4
   * attempts, back-off from 200 ms doubling to 5 s, a {@code Retry-After} honoured up to 30 s.
   */
  public static final class Builder {
    private URI url;
    private String apiKey;
    private HttpClient http;
    private Duration connectTimeout = Duration.ofSeconds(5);
    private Duration timeout = Duration.ofSeconds(30);
    private int maxAttempts = 4;
    private Duration initialBackoff = Duration.ofMillis(200);
    private Duration maxBackoff = Duration.ofSeconds(5);
    private Duration maxRetryAfter = Duration.ofSeconds(30);
    private Sleeper sleeper = d -> Thread.sleep(d);

    private Builder() {}

    /** The server's base URL, e.g. {@code http://127.0.0.1:8080} (a path prefix is kept). */
    public Builder url(String v) {
      Objects.requireNonNull(v, "url");
      try {
        return url(URI.create(v));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(
            "url must be an http(s) URL such as http://127.0.0.1:8080, was '" + v + "'", e);
      }
    }

    public Builder url(URI v) {
      Objects.requireNonNull(v, "url");
      if (!"http".equals(v.getScheme()) && !"https".equals(v.getScheme()) || v.getHost() == null) {
        throw new IllegalArgumentException(
            "url must be an http(s) URL such as http://127.0.0.1:8080, was '" + v + "'");
      }
      this.url = v;
      return this;
    }

    /** The tenant's API key ({@code mnemo_...}), sent as {@code Authorization: Bearer}. */
    public Builder apiKey(String v) {
      this.apiKey = v;
      return this;
    }

    /** Use this HTTP client (the caller closes it); its own connect time-out then applies. */
    public Builder httpClient(HttpClient v) {
      this.http = v;
      return this;
    }

    public Builder connectTimeout(Duration v) {
      this.connectTimeout = positive("connectTimeout", v);
      return this;
    }

    /** The time-out of one attempt, from sending to the answer's headers. */
    public Builder timeout(Duration v) {
      this.timeout = positive("timeout", v);
      return this;
    }

    /** Attempts per call, the first included (1: never retry). */
    public Builder maxAttempts(int v) {
      if (v < 1) throw new IllegalArgumentException("maxAttempts must be >= 1, was " + v);
      this.maxAttempts = v;
      return this;
    }

    /** The first wait between attempts and the most any wait grows to (before jitter). */
    public Builder backoff(Duration initial, Duration max) {
      this.initialBackoff = positive("initial back-off", initial);
      this.maxBackoff = positive("max back-off", max);
      if (max.compareTo(initial) < 0)
        throw new IllegalArgumentException("max back-off " + max + " is below initial " + initial);
      return this;
    }

    /** The longest {@code Retry-After} waited for; a longer one fails the call at once. */
    public Builder maxRetryAfter(Duration v) {
      Objects.requireNonNull(v, "maxRetryAfter");
      if (v.isNegative())
        throw new IllegalArgumentException("maxRetryAfter must be >= 0, was " + v);
      this.maxRetryAfter = v;
      return this;
    }

    Builder sleeper(Sleeper v) {
      this.sleeper = Objects.requireNonNull(v);
      return this;
    }

    public MnemoClient build() {
      if (url == null)
        throw new IllegalStateException("set url(...) before build(), e.g. http://127.0.0.1:8080");
      return new MnemoClient(this);
    }

    private static Duration positive(String what, Duration v) {
      Objects.requireNonNull(v, what);
      if (v.isNegative() || v.isZero())
        throw new IllegalArgumentException(what + " must be positive, was " + v);
      return v;
    }
  }
}

package dev.mnemo.server;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mnemo.InvalidRequestException;
import dev.mnemo.InvalidRequestException.Violation;
import dev.mnemo.MnemoException;
import dev.mnemo.json.JsonCodec;
import io.javalin.http.HttpResponseException;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one place where errors become HTTP responses: RFC 9457 {@code application/problem+json} with
 * {@code type}, {@code title}, {@code status}, {@code detail}, {@code instance} (the path), and the
 * extensions {@code request_id} and {@code errors} (each with {@code field}, {@code value} and
 * {@code message}).
 *
 * <table>
 *   <caption>Mapping</caption>
 *   <tr><th>cause</th><th>status</th><th>type</th></tr>
 *   <tr><td>{@link InvalidRequestException} (a field's value)</td><td>422</td><td>invalid-request</td></tr>
 *   <tr><td>{@link ProblemException}</td><td>its own</td><td>its own</td></tr>
 *   <tr><td>body over the size limit</td><td>413</td><td>too-large</td></tr>
 *   <tr><td>unknown route / method</td><td>404 / 405</td><td>not-found / method-not-allowed</td></tr>
 *   <tr><td>{@link DiskSpace.NoSpaceException} (the disk is full)</td><td>507 + Retry-After</td><td>insufficient-storage (with {@code disk}: path, free and needed bytes)</td></tr>
 *   <tr><td>retriable {@link MnemoException} (a provider's time-out, shutting down)</td><td>503 + Retry-After</td><td>unavailable</td></tr>
 *   <tr><td>other {@link MnemoException} (store failure)</td><td>500</td><td>store-failure</td></tr>
 *   <tr><td>anything else</td><td>500</td><td>internal (logged with its stack trace; the body says only the request id)</td></tr>
 * </table>
 */
final class Problems {
  private static final Logger LOG = LoggerFactory.getLogger(Problems.class);
  static final String CONTENT_TYPE = "application/problem+json";
  static final String TYPE_PREFIX = "urn:mnemo:problem:";
  private static final int MAX_VALUE_CHARS = 200;

  /** A rendered problem. */
  record Problem(int status, Map<String, String> headers, ObjectNode body) {
    byte[] bytes() {
      try {
        return JsonCodec.WRITER.writeValueAsBytes(body);
      } catch (IOException e) {
        throw new IllegalStateException(e);
      }
    }
  }

  private Problems() {}

  static Problem of(Throwable t, String instance, String requestId) {
    return of(t, instance, requestId, true);
  }

  /**
   * The problem for {@code t}. {@code writes}: whether the request could have written (then a
   * refused one says that nothing was written; a refused recall or validation has nothing to say
   * about writing).
   */
  static Problem of(Throwable t, String instance, String requestId, boolean writes) {
    if (t instanceof ProblemException p) {
      Problem out =
          build(
              p.status,
              p.type,
              p.title,
              p.getMessage(),
              p.violations,
              p.headers,
              instance,
              requestId);
      p.extensions
          .properties()
          .forEach(
              e -> {
                if (!out.body().has(e.getKey())) out.body().set(e.getKey(), e.getValue());
              });
      return out;
    }
    if (t instanceof InvalidRequestException e) {
      return build(
          422,
          "invalid-request",
          "Invalid request",
          e.getMessage() + (writes ? "; nothing was written" : ""),
          e.violations(),
          Map.of(),
          instance,
          requestId);
    }
    if (t instanceof HttpResponseException h) {
      int s = h.getStatus();
      return switch (s) {
        case 413 ->
            build(
                413,
                "too-large",
                "Content too large",
                "the request body is over the limit; " + h.getMessage(),
                List.of(),
                Map.of(),
                instance,
                requestId);
        case 404 ->
            build(
                404,
                "not-found",
                "Not found",
                "no route " + instance,
                List.of(),
                Map.of(),
                instance,
                requestId);
        case 405 ->
            build(
                405,
                "method-not-allowed",
                "Method not allowed",
                "this route does not take this method",
                List.of(),
                Map.of(),
                instance,
                requestId);
        default ->
            build(
                s,
                "http-" + s,
                h.getMessage(),
                h.getMessage(),
                List.of(),
                Map.of(),
                instance,
                requestId);
      };
    }
    if (t instanceof DiskSpace.NoSpaceException n) {
      ObjectNode disk = JsonCodec.object();
      disk.put("path", n.state.path().toString());
      disk.put("free_bytes", n.state.usable());
      disk.put("min_free_bytes", n.state.min());
      Problem out =
          build(
              507,
              "insufficient-storage",
              "Insufficient storage",
              n.getMessage(),
              List.of(),
              Map.of("Retry-After", String.valueOf(DiskSpace.NoSpaceException.RETRY_AFTER_SECONDS)),
              instance,
              requestId);
      out.body().set("disk", disk);
      return out;
    }
    if (t instanceof MnemoException m && m.retriable()) {
      return build(
          503,
          "unavailable",
          "Temporarily unavailable",
          m.getMessage(),
          List.of(),
          Map.of("Retry-After", "1"),
          instance,
          requestId);
    }
    if (t instanceof MnemoException m) {
      LOG.error("store failure request_id={} path={}", requestId, instance, m);
      return build(
          500,
          "store-failure",
          "Store failure",
          m.getMessage(),
          List.of(),
          Map.of(),
          instance,
          requestId);
    }
    if (clientGone(t)) {
      // The client hung up mid-answer: nothing is wrong with the server, and no one reads this
      // reply.
      LOG.debug(
          "client closed the connection request_id={} path={}: {}",
          requestId,
          instance,
          t.toString());
      return build(
          499,
          "client-closed",
          "Client closed the connection",
          "the client closed the connection",
          List.of(),
          Map.of(),
          instance,
          requestId);
    }
    LOG.error("internal error request_id={} path={}", requestId, instance, t);
    return build(
        500,
        "internal",
        "Internal error",
        "internal error; the server logged it under request id " + requestId,
        List.of(),
        Map.of(),
        instance,
        requestId);
  }

  /**
   * The problem for a bare HTTP status that Jetty decided on (see {@link ProblemErrorHandler}):
   * {@code reason} is Jetty's short reason ("URI too long", "Ambiguous URI path separator"), never
   * a stack trace.
   */
  static Problem status(int status, String reason, String instance) {
    String why = reason == null || reason.isBlank() ? "" : reason.replaceAll("[^\\x20-\\x7E]", "?");
    return switch (status) {
      case 400 ->
          build(
              400,
              "bad-request",
              "Bad request",
              why.isEmpty() ? "the request is malformed" : "the request is malformed: " + why,
              List.of(),
              Map.of(),
              instance,
              null);
      case 404 ->
          build(
              404,
              "not-found",
              "Not found",
              "no route " + (instance == null ? "" : instance),
              List.of(),
              Map.of(),
              instance,
              null);
      case 405 ->
          build(
              405,
              "method-not-allowed",
              "Method not allowed",
              "this route does not take this method",
              List.of(),
              Map.of(),
              instance,
              null);
      case 408 ->
          build(
              408,
              "timeout",
              "Request timeout",
              "the request was not received in time",
              List.of(),
              Map.of(),
              instance,
              null);
      case 413 ->
          build(
              413,
              "too-large",
              "Content too large",
              "the request body is over the limit" + " (limits.max_request_bytes)",
              List.of(),
              Map.of(),
              instance,
              null);
      case 414 ->
          build(
              414,
              "uri-too-long",
              "URI too long",
              "the request URI is over the limit (8 KB)",
              List.of(),
              Map.of(),
              instance,
              null);
      case 431 ->
          build(
              431,
              "headers-too-large",
              "Request header fields too large",
              "the request headers are over the limit (8 KB)",
              List.of(),
              Map.of(),
              instance,
              null);
      default ->
          build(
              status,
              "http-" + status,
              why.isEmpty() ? "HTTP " + status : why,
              why.isEmpty() ? "HTTP " + status : why,
              List.of(),
              Map.of(),
              instance,
              null);
    };
  }

  /**
   * Whether {@code t} is a write to a connection the client closed (Jetty's EofException, a reset
   * or broken pipe).
   */
  static boolean clientGone(Throwable t) {
    for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
      if (c instanceof org.eclipse.jetty.io.EofException) return true;
      if (c instanceof java.nio.channels.ClosedChannelException) return true;
      if (c instanceof IOException && c.getMessage() != null) {
        String m = c.getMessage().toLowerCase(java.util.Locale.ROOT);
        if (m.contains("broken pipe") || m.contains("connection reset") || m.contains("closed"))
          return true;
      }
    }
    return false;
  }

  private static Problem build(
      int status,
      String type,
      String title,
      String detail,
      List<Violation> violations,
      Map<String, String> headers,
      String instance,
      String requestId) {
    ObjectNode o = JsonCodec.object();
    o.put("type", TYPE_PREFIX + type);
    o.put("title", title);
    o.put("status", status);
    o.put("detail", detail);
    if (instance != null) o.put("instance", instance);
    if (requestId != null) o.put("request_id", requestId);
    if (!violations.isEmpty()) {
      addViolations(o.putArray("errors"), violations);
    }
    return new Problem(status, headers, o);
  }

  /**
   * Each violation as {@code {field, value, message}}: the one shape of a field error in every
   * answer.
   */
  static void addViolations(ArrayNode errors, List<Violation> violations) {
    for (Violation v : violations) {
      ObjectNode e = errors.addObject();
      e.put("field", v.field());
      putValue(e, v.value());
      e.put("message", v.message());
    }
  }

  private static void putValue(ObjectNode e, Object value) {
    switch (value) {
      case null -> e.putNull("value");
      case Integer i -> e.put("value", i);
      case Long l -> e.put("value", l);
      case Double d when Double.isFinite(d) -> e.put("value", d);
      case Boolean b -> e.put("value", b);
      default -> {
        String s = value.toString();
        e.put("value", s.length() > MAX_VALUE_CHARS ? s.substring(0, MAX_VALUE_CHARS) + "..." : s);
      }
    }
  }

  /** Writes a problem straight to a servlet response (for filters in front of mounted servlets). */
  static void write(HttpServletResponse res, Problem p) throws IOException {
    res.setStatus(p.status());
    p.headers().forEach(res::setHeader);
    res.setContentType(CONTENT_TYPE);
    res.setCharacterEncoding(StandardCharsets.UTF_8.name());
    res.getOutputStream().write(p.bytes());
  }
}

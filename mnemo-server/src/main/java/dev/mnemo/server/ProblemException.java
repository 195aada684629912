package dev.mnemo.server;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mnemo.InvalidRequestException.Violation;
import dev.mnemo.json.JsonCodec;
import java.util.List;
import java.util.Map;

/**
 * An HTTP error the server decided on itself (bad JSON, a missing key, a size limit, a missing
 * resource), rendered by {@link Problems} like every other error. {@code type} is the slug of the
 * problem type URI.
 */
final class ProblemException extends RuntimeException {
  private static final long serialVersionUID = 1L;
  final int status;
  final String type;
  final String title;

  // Never Java-serialized (rendered as problem+json inside the server), so these fields need not be
  // Serializable.
  @SuppressWarnings("serial")
  final List<Violation> violations;

  @SuppressWarnings("serial")
  final Map<String, String> headers;

  /** Extension members of the problem body beside the standard ones (may be empty). */
  final ObjectNode extensions;

  ProblemException(
      int status,
      String type,
      String title,
      String detail,
      List<Violation> violations,
      Map<String, String> headers) {
    this(status, type, title, detail, violations, headers, null);
  }

  ProblemException(
      int status,
      String type,
      String title,
      String detail,
      List<Violation> violations,
      Map<String, String> headers,
      ObjectNode extensions) {
    super(detail, null, false, false);
    this.status = status;
    this.type = type;
    this.title = title;
    this.violations = List.copyOf(violations);
    this.headers = Map.copyOf(headers);
    this.extensions = extensions == null ? JsonCodec.object() : extensions.deepCopy();
  }

  static ProblemException of(int status, String type, String title, String detail) {
    return new ProblemException(status, type, title, detail, List.of(), Map.of());
  }

  static ProblemException field(
      int status, String type, String title, String field, Object value, String detail) {
    return new ProblemException(
        status, type, title, detail, List.of(new Violation(field, value, detail)), Map.of());
  }

  static ProblemException notFound(String detail) {
    return of(404, "not-found", "Not found", detail);
  }

  static ProblemException unauthorized(String detail) {
    return new ProblemException(
        401,
        "unauthorized",
        "Unauthorized",
        detail,
        List.of(),
        Map.of("WWW-Authenticate", "Bearer realm=\"mnemo\""));
  }

  static ProblemException forbidden(String detail) {
    return of(403, "forbidden", "Forbidden", detail);
  }
}

package dev.mnemo.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mnemo.json.JsonCodec;
import dev.mnemo.json.StrictJson;

/**
 * Checks a POSTed MCP message before the SDK sees it, and answers the malformed ones with a
 * JSON-RPC error of our own: the SDK answers some of them with a 500 carrying a serialized Java
 * exception (stack trace included), and a {@code tools/call} whose {@code arguments} is a string
 * with an empty reply.
 *
 * <p>Checked: strict JSON (valid UTF-8, no duplicate keys, no trailing garbage), one message object
 * (no batches, as MCP 2025-06-18 has none), {@code "jsonrpc": "2.0"}, an id that is a string or an
 * integer, a string method (or a response's result or error), params an object, and for {@code
 * tools/call} a string {@code name} and object {@code arguments}. Stateless.
 */
final class McpMessages {
  static final int PARSE_ERROR = -32700;
  static final int INVALID_REQUEST = -32600;
  static final int INVALID_PARAMS = -32602;

  private McpMessages() {}

  /** A refused message: the JSON-RPC error to send back with HTTP 400. */
  record Refusal(int code, String message, JsonNode id) {
    byte[] body() {
      ObjectNode o = JsonCodec.object();
      o.put("jsonrpc", "2.0");
      if (id == null) o.putNull("id");
      else o.set("id", id);
      o.putObject("error").put("code", code).put("message", message);
      try {
        return JsonCodec.WRITER.writeValueAsBytes(o);
      } catch (java.io.IOException e) {
        throw new IllegalStateException(e);
      }
    }
  }

  /** Null when the message may go to the SDK, else why not. */
  static Refusal check(byte[] body) {
    JsonNode n;
    try {
      n = StrictJson.read(body);
    } catch (StrictJson.Malformed e) {
      return new Refusal(PARSE_ERROR, "Parse error: " + e.getMessage(), null);
    }
    if (!n.isObject()) {
      return new Refusal(
          INVALID_REQUEST,
          "Invalid request: a message must be one JSON object, was " + kind(n),
          null);
    }
    JsonNode id = n.get("id");
    JsonNode safeId = id != null && (id.isTextual() || id.isIntegralNumber()) ? id : null;
    if (id != null && safeId == null) {
      return new Refusal(
          INVALID_REQUEST,
          "Invalid request: id must be a string or an integer, was " + kind(id),
          null);
    }
    JsonNode version = n.get("jsonrpc");
    if (version == null || !version.isTextual() || !version.asText().equals("2.0")) {
      return new Refusal(INVALID_REQUEST, "Invalid request: jsonrpc must be \"2.0\"", safeId);
    }
    JsonNode method = n.get("method");
    if (method == null) {
      if (n.has("result") || n.has("error")) return null; // a client's response to a server request
      return new Refusal(INVALID_REQUEST, "Invalid request: method is missing", safeId);
    }
    if (!method.isTextual()) {
      return new Refusal(
          INVALID_REQUEST, "Invalid request: method must be a string, was " + kind(method), safeId);
    }
    JsonNode params = n.get("params");
    if (params != null && !params.isNull() && !params.isObject()) {
      return new Refusal(
          INVALID_PARAMS, "Invalid params: params must be an object, was " + kind(params), safeId);
    }
    if (method.asText().equals("tools/call")) {
      if (params == null || !params.isObject()) {
        return new Refusal(
            INVALID_PARAMS, "Invalid params: tools/call needs params {name, arguments}", safeId);
      }
      JsonNode name = params.get("name");
      if (name == null || !name.isTextual()) {
        return new Refusal(
            INVALID_PARAMS,
            "Invalid params: name must be the tool's name (a string), was "
                + (name == null ? "missing" : kind(name)),
            safeId);
      }
      JsonNode args = params.get("arguments");
      if (args != null && !args.isNull() && !args.isObject()) {
        return new Refusal(
            INVALID_PARAMS,
            "Invalid params: arguments must be an object of the tool's arguments, was "
                + kind(args)
                + (args.isTextual() ? " (send the object itself, not a JSON string of it)" : ""),
            safeId);
      }
    }
    return null;
  }

  private static String kind(JsonNode n) {
    return switch (n.getNodeType()) {
      case STRING -> "a string";
      case NUMBER -> "a number";
      case BOOLEAN -> "a boolean";
      case ARRAY -> "an array";
      case OBJECT -> "an object";
      case NULL -> "null";
      default -> n.getNodeType().toString().toLowerCase(java.util.Locale.ROOT);
    };
  }
}

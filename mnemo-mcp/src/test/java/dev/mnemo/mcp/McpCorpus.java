package dev.mnemo.mcp;

import java.util.List;

/**
 * Malformed MCP messages: every one must get a JSON-RPC or problem error, never a 5xx nor a stack
 * trace.
 */
final class McpCorpus {
  private McpCorpus() {}

  static final List<String> MALFORMED =
      List.of(
          "",
          "{",
          "[]",
          "null",
          "42",
          "\"text\"",
          "{}",
          "{\"jsonrpc\":\"1.0\",\"id\":1,\"method\":\"tools/list\"}",
          "{\"jsonrpc\":\"2.0\",\"id\":1}",
          "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":42}",
          "{\"jsonrpc\":\"2.0\",\"id\":{\"x\":1},\"method\":\"tools/list\"}",
          "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"no/such/method\"}",
          "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\"}",
          "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":42}",
          "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{}}",
          "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"nope\",\"arguments\":{}}}",
          "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"remember\",\"arguments\":[]}}",
          "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"remember\",\"arguments\":42}}",
          "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"remember\",\"arguments\":"
              + "{\"owner\":\"o\",\"text\":\"x\",\"valid_from\":\"-999999999-01-01T00:00:00Z\"}}}",
          "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"recall\",\"arguments\":"
              + "{\"owner\":\"o\",\"query\":\"x\",\"mode\":\"valid_at\",\"at\":\"+999999999-12-31T23:59:59Z\"}}}",
          "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"remember\",\"arguments\":"
              + "{\"owner\":\"a\\u0000b\",\"text\":\"x\"}}}",
          "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"remember\",\"arguments\":"
              + "{\"owner\":\"o\",\"text\":\"x\",\"recorded_at\":\"9999-01-01T00:00:00Z\"}}}",
          "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\",\"params\":\"x\"}",
          "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"} trailing",
          "\u00ff\u00fe garbage");
}

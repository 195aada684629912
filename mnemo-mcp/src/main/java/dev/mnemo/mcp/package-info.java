/**
 * Mnemo as an MCP server: the {@code remember}, {@code recall}, {@code history}, {@code forget} and
 * {@code mark_used} tools, built on the official MCP Java SDK, over two transports that share the
 * same tool code.
 *
 * <ul>
 *   <li>{@link dev.mnemo.mcp.McpStdio}: one local caller on stdin/stdout ({@code mnemo mcp}).
 *   <li>{@link dev.mnemo.mcp.McpEndpoint}: streamable HTTP as a jakarta servlet that the REST
 *       server mounts behind its API-key authentication; the tenant comes from a request attribute.
 * </ul>
 *
 * <p>Tools never see an engine directly: a {@link dev.mnemo.mcp.MemoryAccess} gives them the
 * caller's engine and owner namespace. Tool descriptions and input schemas live in {@code
 * tools.json} beside these classes; the same schemas drive the strict argument checks, so what a
 * model is told and what the server accepts cannot drift apart.
 */
package dev.mnemo.mcp;

/**
 * Mnemo's JSON wire format, shared by the REST server, the client, the CLI and the MCP tools: the
 * codec of records, requests, results and turns ({@link dev.mnemo.json.JsonCodec}), strict reading of
 * a request body ({@link dev.mnemo.json.StrictJson}) and the retrieval log's JSON ({@link
 * dev.mnemo.json.RecallLogJson}). Invalid input is an {@link dev.mnemo.InvalidRequestException}
 * naming the field.
 */
package dev.mnemo.json;

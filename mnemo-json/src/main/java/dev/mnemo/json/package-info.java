/**
 * Mnemo's JSON wire format, shared by the REST server, the client, the CLI, the evaluation and the
 * MCP tools. {@link dev.mnemo.json.JsonCodec} holds the immutable Jackson reader and writers (there
 * is no shared, mutable {@code ObjectMapper}); each wire type has one class with its reader and
 * writer side by side ({@link dev.mnemo.json.MemoryJson}, {@link dev.mnemo.json.TurnJson}, {@link
 * dev.mnemo.json.RecordJson}, {@link dev.mnemo.json.RequestJson}, {@link
 * dev.mnemo.json.ResultJson}, {@link dev.mnemo.json.TraceJson}, {@link dev.mnemo.json.IngestJson},
 * {@link dev.mnemo.json.RecallLogJson}); every field is read by the one strict {@link
 * dev.mnemo.json.FieldReader}; {@link dev.mnemo.json.BatchPath} names the items of a batch on each
 * side; {@link dev.mnemo.json.StrictJson} reads a request body. Invalid input from a caller is an
 * {@link dev.mnemo.InvalidRequestException} naming the field with its path; Mnemo's own output that
 * cannot be read back is an {@link IllegalArgumentException}.
 */
package dev.mnemo.json;

package dev.mnemo.json;

import static dev.mnemo.json.Nodes.putNullable;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mnemo.IngestProgress;
import dev.mnemo.IngestReceipt;

/**
 * The wire forms of ingestion's answers (written only; no side reads them back). Stateless,
 * thread-safe.
 */
public final class IngestJson {
  private IngestJson() {}

  /**
   * Background extraction's progress: {@code {pending, extracted, kept, errors, records_written,
   * duplicates_merged, conflicts, last_error, dead_lettered, dead_letters}}.
   */
  public static ObjectNode progress(IngestProgress p) {
    ObjectNode o = JsonCodec.object();
    o.put("pending", p.pending());
    o.put("extracted", p.extracted());
    o.put("kept", p.kept());
    o.put("errors", p.errors());
    o.put("records_written", p.recordsWritten());
    o.put("duplicates_merged", p.duplicatesMerged());
    o.put("conflicts", p.conflicts());
    putNullable(o, "last_error", p.lastError());
    o.put("dead_lettered", p.deadLettered());
    var dead = o.putArray("dead_letters");
    p.deadLetters().forEach(dead::add);
    return o;
  }

  /**
   * An ingest receipt: {@code {accepted: [turn ids], duplicates: [turn ids], queued: n, records:
   * [record ids]}}.
   */
  public static ObjectNode receipt(IngestReceipt r) {
    ObjectNode o = JsonCodec.object();
    r.accepted().forEach(o.putArray("accepted")::add);
    r.duplicates().forEach(o.putArray("duplicates")::add);
    o.put("queued", r.queued());
    ArrayNode recs = o.putArray("records");
    r.records().forEach(x -> recs.add(x.id()));
    return o;
  }
}

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
   * Background extraction's progress, in two groups whose names say what they count: {@code turns}
   * (the turn log by state, over its whole life: {@code waiting}, {@code extracted}, {@code
   * kept_as_sources}, {@code failed}) and {@code since_start} (the work of this engine since it was
   * opened: {@code records_written}, {@code duplicates_merged}, {@code conflicts_kept}, {@code
   * dead_lettered}, {@code last_error}), then {@code dead_letters}.
   *
   * <p>The flat fields of before ({@code pending, extracted, kept, errors, records_written,
   * duplicates_merged, conflicts, last_error, dead_lettered}) are written too, with the same
   * values: clients read them (the Java client, scripts polling {@code pending}), and a field that
   * disappears breaks a client silently. They are deprecated in the OpenAPI document.
   */
  public static ObjectNode progress(IngestProgress p) {
    ObjectNode o = JsonCodec.object();
    ObjectNode turns = o.putObject("turns");
    turns.put("waiting", p.pending());
    turns.put("extracted", p.extracted());
    turns.put("kept_as_sources", p.kept());
    turns.put("failed", p.errors());
    ObjectNode since = o.putObject("since_start");
    since.put("records_written", p.recordsWritten());
    since.put("duplicates_merged", p.duplicatesMerged());
    since.put("conflicts_kept", p.conflicts());
    since.put("dead_lettered", p.deadLettered());
    putNullable(since, "last_error", p.lastError());
    var dead = o.putArray("dead_letters");
    p.deadLetters().forEach(dead::add);
    // deprecated flat names, kept for the clients that read them
    o.put("pending", p.pending());
    o.put("extracted", p.extracted());
    o.put("kept", p.kept());
    o.put("errors", p.errors());
    o.put("records_written", p.recordsWritten());
    o.put("duplicates_merged", p.duplicatesMerged());
    o.put("conflicts", p.conflicts());
    putNullable(o, "last_error", p.lastError());
    o.put("dead_lettered", p.deadLettered());
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

package dev.mnemo;

import java.util.List;

/**
 * What {@link Mnemo#ingest} acknowledged. Returned only once the turns are durable.
 *
 * @param accepted ids of the turns newly stored, in input order
 * @param duplicates ids of turns already stored (ingest is idempotent by turn id); not stored again
 * @param queued how many accepted turns wait for extraction (0 when extraction ran synchronously)
 * @param records the records the write path produced synchronously (empty in asynchronous mode)
 */
public record IngestReceipt(
    List<String> accepted, List<String> duplicates, int queued, List<MemoryRecord> records) {
  public IngestReceipt {
    accepted = List.copyOf(accepted);
    duplicates = List.copyOf(duplicates);
    records = List.copyOf(records);
  }
}

package dev.mnemo;

/**
 * Where background extraction stands: counts of the turn log's states and of the work done since
 * the engine was opened.
 *
 * @param pending turns durable and waiting for extraction (the queue)
 * @param extracted turns the extractor has seen (since the log was created)
 * @param kept turns kept as sources only (tool events, system messages, failed or partial attempts)
 * @param errors extraction error artifacts
 * @param recordsWritten records the write path added or versioned since the engine was opened
 * @param duplicatesMerged candidates merged into an existing record (NOOP) since the engine was opened
 * @param conflicts candidates kept beside a contradicting record since the engine was opened
 * @param lastError the last extraction error since the engine was opened, or null
 */
public record IngestProgress(long pending, long extracted, long kept, long errors, long recordsWritten,
    long duplicatesMerged, long conflicts, String lastError) {}

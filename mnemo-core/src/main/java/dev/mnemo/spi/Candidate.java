package dev.mnemo.spi;

import dev.mnemo.MemoryRecord;

/**
 * One eligible record a store found, with its raw retrieval signals.
 *
 * <p>Stores compute {@code cosine} and {@code bm25} for every candidate they return, whichever
 * search found it, so that fusion compares like with like.
 *
 * @param record the record, with its embedding
 * @param cosine cosine between the query vector and the record's vector; NaN without either
 * @param bm25 raw BM25 score of the record for the query text; 0 when it does not match
 * @param denseRank 1-based rank in the dense list, 0 when not in it
 * @param bm25Rank 1-based rank in the BM25 list, 0 when not in it
 * @param entityRank 1-based rank in the entity list, 0 when not in it
 * @param timeRank 1-based rank in the time-range list, 0 when not in it
 */
public record Candidate(
    MemoryRecord record,
    double cosine,
    double bm25,
    int denseRank,
    int bm25Rank,
    int entityRank,
    int timeRank) {}

package dev.mnemo;

import java.util.List;

/**
 * One selected record of a recall.
 *
 * @param record the record
 * @param score its final score
 * @param relevance its relevance (what the threshold tested)
 * @param tokens tokens of its text
 * @param conflictsWith ids of other selected records of the same fact key that disagree with it
 *     (surfaced together, with their dates, rather than silently resolved)
 */
public record Recalled(
    MemoryRecord record, double score, double relevance, int tokens, List<String> conflictsWith) {
  public Recalled {
    conflictsWith = List.copyOf(conflictsWith);
  }
}

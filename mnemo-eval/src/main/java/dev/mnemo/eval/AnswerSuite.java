package dev.mnemo.eval;

import dev.mnemo.NewMemory;
import java.util.List;
import java.util.Objects;

/**
 * One memory history and the questions asked of it, for the answer-level evaluation: the writes go
 * into one fresh store, every case is asked of it.
 *
 * @param id the history's id (a scenario, a LoCoMo conversation)
 * @param writes the memories, in order; each names its source id first in {@link
 *     NewMemory#sources()}
 * @param cases the questions
 */
public record AnswerSuite(String id, List<NewMemory> writes, List<AnswerCase> cases) {
  public AnswerSuite {
    Objects.requireNonNull(id, "id");
    writes = List.copyOf(writes);
    cases = List.copyOf(cases);
  }
}

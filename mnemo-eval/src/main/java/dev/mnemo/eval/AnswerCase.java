package dev.mnemo.eval;

import dev.mnemo.RecallRequest;
import java.util.Objects;
import java.util.Set;

/**
 * One question of the answer-level evaluation: what is asked (and how memory is recalled for it),
 * the gold answer, and which source ids are relevant to it.
 *
 * @param id a question id, unique within its suite
 * @param category a group to report by (a LoCoMo category, a scenario split)
 * @param request the recall made for the with-memory answer; its query is the question
 * @param gold the gold answer, or {@link #NOTHING_STORED} where the memory holds nothing relevant
 * @param relevant source ids of the memories the question is about (for precision@k and the
 *     counterfactual check); may be empty
 */
public record AnswerCase(
    String id, String category, RecallRequest request, String gold, Set<String> relevant) {

  /** The gold answer of a question whose answer is not in the memory. */
  public static final String NOTHING_STORED =
      "Nothing about this is recorded; the right answer is that it is not known.";

  public AnswerCase {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(category, "category");
    Objects.requireNonNull(request, "request");
    if (gold == null || gold.isBlank())
      throw new IllegalArgumentException("question " + id + " needs a gold answer");
    relevant = Set.copyOf(relevant);
  }

  /** The question. */
  public String question() {
    return request.query();
  }
}

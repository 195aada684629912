package dev.mnemo.llm;

import java.util.List;

/**
 * Turns what a caller is about to recall for (the latest message, and optionally the task or
 * question in focus) into the text to search with, plus the names it is about. A function applied
 * before {@code Mnemo.recall}: the caller puts {@link Rewrite#query()} into the recall request.
 *
 * <p>Why: the whole latest message as a query is dominated by incidental words ("Thanks! By the
 * way, could you also...") and misses the decision at hand. Implementations are thread-safe and
 * never fail a recall: when they cannot rewrite, they return the text as it was ({@link
 * Rewrite#rewritten()} false).
 */
public interface QueryRewriter {

  /**
   * @param text the message or request text; required
   * @param focus the task, decision or open question at hand, or null
   */
  Rewrite rewrite(String text, String focus);

  /**
   * @param query the text to search with
   * @param entities names of people, places, products the query is about (may be empty)
   * @param rewritten false when this is the original text (no rewriter, or it failed)
   */
  record Rewrite(String query, List<String> entities, boolean rewritten) {
    public Rewrite {
      if (query == null || query.isBlank())
        throw new IllegalArgumentException("query must not be blank");
      entities = List.copyOf(entities);
    }
  }

  /** The rewriter that changes nothing. */
  static QueryRewriter identity() {
    return (text, focus) -> new Rewrite(text, List.of(), false);
  }
}

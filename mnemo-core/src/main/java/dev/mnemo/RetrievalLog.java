package dev.mnemo;

import java.util.List;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * The retrieval log of a {@link Mnemo}: every logged recall with its request, trace and outcome,
 * searchable, counted, summarized into rates and replayable (see {@link RecallLogOptions} for what
 * is logged). Reached through {@link Mnemo#retrievalLog()}, which is empty when there is no log (an
 * embedded engine whose store keeps none and that was given none; a server tenant on such a store).
 *
 * <p>Logging is asynchronous: a recall shows up here shortly after it returned. Thread-safe as the
 * {@link Mnemo} it came from; valid until that is closed.
 */
public interface RetrievalLog {

  /** Logged recalls matching the query, newest first. */
  List<LoggedRecall> recalls(RecallLogQuery query);

  /** How many logged recalls match the query, ignoring its paging. */
  long countRecalls(RecallLogQuery query);

  /** The logged recall with that id; empty for an unknown or blank id. */
  Optional<LoggedRecall> loggedRecall(String id);

  /** Fetch, abstention, injected-token and use rates of the logged recalls matching the query. */
  RecallStats recallStats(RecallLogQuery query);

  /**
   * Runs the logged recall {@code id} again with its logged request (its "now", so the store as
   * known then), optionally changed by {@code change} (null: unchanged), and reports how the
   * selection differs; empty when no such entry. The replay itself is not logged.
   */
  Optional<Replay> replay(String id, UnaryOperator<RecallRequest.Builder> change);
}

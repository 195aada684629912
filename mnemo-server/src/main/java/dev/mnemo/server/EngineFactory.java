package dev.mnemo.server;

import dev.mnemo.Mnemo;
import java.nio.file.Path;

/**
 * Opens the engine of one tenant: the composition root's choice of store, embedder and tokenizer
 * (the CLI opens the Lucene store with the local e5 embedder; tests use a fake embedder).
 *
 * <p>Contract: each call returns a new engine whose store lives in {@code directory} and nowhere
 * else, so that no two tenants ever share a store; the server closes it. Called at most once per
 * tenant at a time, from any thread. Errors opening the store are raised as {@link
 * dev.mnemo.MnemoException}.
 */
@FunctionalInterface
public interface EngineFactory {

  /**
   * @param tenant the tenant's name (already validated: {@code [a-z0-9][a-z0-9_-]{0,62}})
   * @param directory the tenant's own store directory (may not exist yet)
   * @param maxTextChars the server's limit on a record's text, for {@link
   *     Mnemo.Builder#maxTextChars}
   */
  Mnemo open(String tenant, Path directory, int maxTextChars);

  /**
   * Deletes the tenant's data that lives outside {@code directory} (a shared SolrCloud collection's
   * records and turns), at once; called when the tenant is deleted, after its engine is closed and
   * before its directory is removed. The default does nothing: a store in {@code directory} goes
   * with it.
   *
   * @throws dev.mnemo.MnemoException when it cannot (the tenant's directory is then kept)
   */
  default void purge(String tenant, Path directory) {}
}

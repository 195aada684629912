package dev.mnemo.mcp;

import dev.mnemo.Mnemo;
import java.util.Objects;

/**
 * What the MCP tools may touch on behalf of one caller: the engine that holds the caller's memories
 * and the caller's owner namespace inside it.
 *
 * <p>Contract: {@link #mnemo()} belongs to whoever made this access; the tools never close it, and
 * call it from several threads at once (every {@link Mnemo} is thread-safe). {@link #storedOwner}
 * maps the owner that a model names (e.g. {@code "alice"}) to the owner id the engine stores; it
 * must be injective and must never give two tenants the same id, which is how a multi-tenant server
 * keeps tenants apart in one shared engine. Tool results always show the caller's owner, never the
 * stored id. Implementations must be thread-safe and never return null.
 */
public interface MemoryAccess {

  /** The engine that holds this caller's memories. */
  Mnemo mnemo();

  /** The owner id stored in the engine for the owner the caller named; the same string by default. */
  default String storedOwner(String owner) {
    return owner;
  }

  /** Every owner of {@code mnemo}, unprefixed: the access of a single local user (stdio). */
  static MemoryAccess of(Mnemo mnemo) {
    Objects.requireNonNull(mnemo, "mnemo");
    return () -> mnemo;
  }
}

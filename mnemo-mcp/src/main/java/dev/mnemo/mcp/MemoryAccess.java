package dev.mnemo.mcp;

import dev.mnemo.Mnemo;
import java.util.Objects;
import java.util.Set;

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

  /**
   * The owner id stored in the engine for the owner the caller named; the same string by default.
   */
  default String storedOwner(String owner) {
    return owner;
  }

  /**
   * The caller's principals ({@code team:..}, {@code role:..}, {@code person:..}), which every
   * recall runs with: a record with access labels is recalled only when one of them is here (see
   * {@link dev.mnemo.Access}). They come from whoever made this access, never from a tool's
   * arguments: a model does not choose whose access it has. None by default: only records without
   * labels.
   */
  default Set<String> principals() {
    return Set.of();
  }

  /** Every owner of {@code mnemo}, unprefixed: the access of a single local user (stdio). */
  static MemoryAccess of(Mnemo mnemo) {
    return of(mnemo, Set.of());
  }

  /** Every owner of {@code mnemo}, unprefixed, recalling with {@code principals}. */
  static MemoryAccess of(Mnemo mnemo, Set<String> principals) {
    Objects.requireNonNull(mnemo, "mnemo");
    Set<String> held = Set.copyOf(principals);
    return new MemoryAccess() {
      @Override
      public Mnemo mnemo() {
        return mnemo;
      }

      @Override
      public Set<String> principals() {
        return held;
      }
    };
  }

  /** This access with {@code principals} in place of its own. */
  default MemoryAccess withPrincipals(Set<String> principals) {
    MemoryAccess self = this;
    Set<String> held = Set.copyOf(principals);
    return new MemoryAccess() {
      @Override
      public Mnemo mnemo() {
        return self.mnemo();
      }

      @Override
      public String storedOwner(String owner) {
        return self.storedOwner(owner);
      }

      @Override
      public Set<String> principals() {
        return held;
      }
    };
  }
}

package dev.mnemo.mcp;

/**
 * Finds the {@link MemoryAccess} of an authenticated tenant, for the HTTP transport.
 *
 * <p>Called once per tool call with the tenant id that the REST server's authentication put on the
 * request (see {@link McpEndpoint#TENANT_ATTRIBUTE}), so it must be cheap and thread-safe. Throw,
 * or return null, when the tenant has no memory: the tool call then fails with a tool error and
 * touches nothing. The exception's message is not shown to the caller.
 */
@FunctionalInterface
public interface MemoryAccessResolver {

  /** The access of this tenant. */
  MemoryAccess forTenant(String tenant);
}

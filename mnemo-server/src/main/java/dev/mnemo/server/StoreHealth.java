package dev.mnemo.server;

import java.util.Map;
import java.util.Objects;

/**
 * What a store's cluster says of itself, for {@code /health/ready} (see {@link
 * MnemoServer.Builder#storeHealth}): whether it can serve every owner now, a one-word status and
 * details to show as they are (JSON-serializable values: strings, numbers, booleans, maps, lists).
 *
 * @param serving false makes {@code /health/ready} answer 503
 * @param status e.g. {@code serving}, {@code degraded} (serving with a replica down), {@code down}
 * @param detail shown under {@code store.detail}
 */
public record StoreHealth(boolean serving, String status, Map<String, ?> detail) {
  public StoreHealth {
    Objects.requireNonNull(status, "status");
    detail = Map.copyOf(detail);
  }
}

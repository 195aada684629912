package dev.mnemo.server;

import java.util.concurrent.ConcurrentHashMap;

/**
 * Limits failed key checks per client (its IP address): a token bucket of {@code perMinute} tokens
 * refilled at {@code perMinute} a minute; each failed check takes one. A client with an empty
 * bucket gets 429 before its key is even looked at, so guessing keys costs a minute per {@code
 * perMinute} guesses. Successful checks take nothing.
 *
 * <p>Bounded: at most {@link #MAX_CLIENTS} clients are tracked; when full, clients whose bucket has
 * refilled completely are dropped (they hold no information), then the oldest half if that is not
 * enough. Hand-written rather than a rate-limiter library because it is a dozen lines and the
 * server has no other use for one. Thread-safe.
 */
final class AuthThrottle {
  static final int MAX_CLIENTS = 100_000;

  private final double capacity;
  private final double perNano;
  private final ConcurrentHashMap<String, Bucket> buckets = new ConcurrentHashMap<>();

  private static final class Bucket {
    double tokens;
    long at;

    Bucket(double tokens, long at) {
      this.tokens = tokens;
      this.at = at;
    }

    synchronized double refill(double capacity, double perNano, long now) {
      tokens = Math.min(capacity, tokens + (now - at) * perNano);
      at = now;
      return tokens;
    }
  }

  AuthThrottle(int perMinute) {
    this.capacity = perMinute;
    this.perNano = perMinute / 60e9;
  }

  /** Seconds until {@code client} may try again, or 0 when it may try now. */
  long retryAfterSeconds(String client) {
    Bucket b = buckets.get(client);
    if (b == null) return 0;
    double t = b.refill(capacity, perNano, System.nanoTime());
    return t >= 1 ? 0 : (long) Math.ceil((1 - t) / perNano / 1e9);
  }

  /** Records a failed check of {@code client}. */
  void failed(String client) {
    long now = System.nanoTime();
    if (buckets.size() >= MAX_CLIENTS) evict(now);
    Bucket b = buckets.computeIfAbsent(client, c -> new Bucket(capacity, now));
    synchronized (b) {
      b.refill(capacity, perNano, now);
      b.tokens = Math.max(0, b.tokens - 1);
    }
  }

  private void evict(long now) {
    buckets.entrySet().removeIf(e -> e.getValue().refill(capacity, perNano, now) >= capacity);
    if (buckets.size() >= MAX_CLIENTS) {
      int drop = buckets.size() / 2;
      var it = buckets.keySet().iterator();
      while (drop-- > 0 && it.hasNext()) {
        it.next();
        it.remove();
      }
    }
  }

  int tracked() {
    return buckets.size();
  }
}

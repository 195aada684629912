package dev.mnemo.server;

import java.lang.management.ManagementFactory;

/**
 * The process's file descriptors: its limit, how many are open, and the bounds the server derives
 * from the limit when the configuration leaves them at 0.
 *
 * <p>The budget: half the limit for tenant stores at {@link #PER_TENANT} descriptors each, a
 * quarter for connections (one each), the last quarter for the rest (the JVM's jars, logs, the key
 * store, merges' temporary files, the recall and turn logs' files of a store while it commits).
 * {@link #PER_TENANT} is what one busy tenant holds, measured by {@code TenantBoundIT}: an idle
 * store holds about 3 (its index files and lock), one that writes and recalls holds up to a dozen
 * while segments pile up before a merge. Readiness turns not-ready at {@link #NOT_READY_SHARE} of
 * the limit, before opening a file or accepting a connection fails.
 *
 * <p>Where the JVM cannot tell (not a Unix), the limit is taken as {@link #UNKNOWN_LIMIT} and the
 * open count as unknown (-1): the bounds are still derived, readiness does not check descriptors.
 * Thread-safe.
 */
final class Descriptors {
  /** Descriptors one open tenant store is budgeted. */
  static final int PER_TENANT = 16;

  /** The share of the limit at which readiness turns not-ready. */
  static final double NOT_READY_SHARE = 0.9;

  /** The limit assumed when the JVM cannot read it. */
  static final long UNKNOWN_LIMIT = 10_240;

  /** Open tenant stores at most when derived (each holds memory too: readers, caches). */
  static final int MAX_DERIVED_TENANTS = 4_096;

  /** Connections at most when derived. */
  static final int MAX_DERIVED_CONNECTIONS = 10_000;

  private Descriptors() {}

  /** The process's open-file limit. */
  static long limit() {
    long max = attribute("MaxFileDescriptorCount");
    return max > 0 ? max : UNKNOWN_LIMIT;
  }

  /** Descriptors open now, or -1 when the JVM cannot tell. */
  static long open() {
    return attribute("OpenFileDescriptorCount");
  }

  /**
   * An attribute of the operating system's MXBean, read by name through JMX (what {@code
   * UnixOperatingSystemMXBean} offers, without naming a JDK-internal type), or -1 where it has
   * none.
   */
  private static long attribute(String name) {
    try {
      Object v =
          ManagementFactory.getPlatformMBeanServer()
              .getAttribute(
                  new javax.management.ObjectName("java.lang:type=OperatingSystem"), name);
      return v instanceof Number n ? n.longValue() : -1;
    } catch (javax.management.JMException | RuntimeException e) {
      return -1;
    }
  }

  /** {@code configured}, or when 0 the tenant stores the limit allows: limit / 2 / PER_TENANT. */
  static int maxOpenTenants(int configured, long limit) {
    if (configured > 0) return configured;
    return (int) Math.max(8, Math.min(MAX_DERIVED_TENANTS, limit / 2 / PER_TENANT));
  }

  /** {@code configured}, or when 0 the connections the limit allows: a quarter of it. */
  static int maxConnections(int configured, long limit) {
    if (configured > 0) return configured;
    return (int) Math.max(64, Math.min(MAX_DERIVED_CONNECTIONS, limit / 4));
  }

  /**
   * Why the server should take no more work, or null: {@code open} descriptors at or above {@link
   * #NOT_READY_SHARE} of {@code limit}.
   */
  static String pressure(long open, long limit) {
    if (open < 0 || limit <= 0 || open < (long) Math.ceil(limit * NOT_READY_SHARE)) return null;
    return "open file descriptors "
        + open
        + " of the limit "
        + limit
        + " (not ready from "
        + Math.round(NOT_READY_SHARE * 100)
        + "%): accepting connections and opening tenant stores would soon fail;"
        + " lower tenants.max_open or limits.max_connections, or raise the limit (ulimit -n)";
  }
}

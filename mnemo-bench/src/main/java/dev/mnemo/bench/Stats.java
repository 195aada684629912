package dev.mnemo.bench;

import java.util.Arrays;
import java.util.Locale;

/**
 * Latency distribution of one measured operation: count, mean and percentiles, in nanoseconds.
 * Percentiles are nearest-rank over the sorted samples (p99.9 of fewer than 1,000 samples is the
 * maximum). Immutable.
 *
 * @param name what was measured
 * @param count number of samples
 * @param meanNanos arithmetic mean
 * @param p50Nanos median
 * @param p90Nanos 90th percentile
 * @param p99Nanos 99th percentile
 * @param p999Nanos 99.9th percentile
 * @param maxNanos slowest sample
 */
public record Stats(
    String name,
    int count,
    long meanNanos,
    long p50Nanos,
    long p90Nanos,
    long p99Nanos,
    long p999Nanos,
    long maxNanos) {

  /** The distribution of {@code samples} (nanoseconds; not modified). */
  public static Stats of(String name, long[] samples) {
    if (samples.length == 0) return new Stats(name, 0, 0, 0, 0, 0, 0, 0);
    long[] s = samples.clone();
    Arrays.sort(s);
    long sum = 0;
    for (long v : s) sum += v;
    return new Stats(
        name,
        s.length,
        sum / s.length,
        rank(s, 0.50),
        rank(s, 0.90),
        rank(s, 0.99),
        rank(s, 0.999),
        s[s.length - 1]);
  }

  private static long rank(long[] sorted, double q) {
    int i = (int) Math.ceil(q * sorted.length) - 1;
    return sorted[Math.max(0, Math.min(sorted.length - 1, i))];
  }

  public double p50Millis() {
    return p50Nanos / 1e6;
  }

  public double p99Millis() {
    return p99Nanos / 1e6;
  }

  /** One line: name, count, mean, p50, p90, p99, p99.9, max in milliseconds. */
  public String line() {
    return String.format(
        Locale.ROOT,
        "%-34s %7d %9.3f %9.3f %9.3f %9.3f %9.3f %9.3f",
        name,
        count,
        meanNanos / 1e6,
        p50Nanos / 1e6,
        p90Nanos / 1e6,
        p99Nanos / 1e6,
        p999Nanos / 1e6,
        maxNanos / 1e6);
  }

  /** The header matching {@link #line()}. */
  public static String header() {
    return String.format(
        Locale.ROOT,
        "%-34s %7s %9s %9s %9s %9s %9s %9s",
        "operation (ms)",
        "count",
        "mean",
        "p50",
        "p90",
        "p99",
        "p99.9",
        "max");
  }

  String json() {
    return String.format(
        Locale.ROOT,
        "{\"name\":\"%s\",\"count\":%d,\"mean_ms\":%.4f,\"p50_ms\":%.4f,\"p90_ms\":%.4f,\"p99_ms\":%.4f,"
            + "\"p999_ms\":%.4f,\"max_ms\":%.4f}",
        Json.escape(name),
        count,
        meanNanos / 1e6,
        p50Nanos / 1e6,
        p90Nanos / 1e6,
        p99Nanos / 1e6,
        p999Nanos / 1e6,
        maxNanos / 1e6);
  }

  /** The same numbers under another name. */
  public Stats named(String other) {
    return new Stats(other, count, meanNanos, p50Nanos, p90Nanos, p99Nanos, p999Nanos, maxNanos);
  }
}

package dev.mnemo.spi;

import dev.mnemo.InvalidRequestException;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.Map;

/**
 * Reads the values of a provider's config map ({@link EmbedderProvider#create}, {@link
 * StoreProvider}), refusing bad ones with an {@link InvalidRequestException} naming the key, its
 * value and what is expected. Shared by the providers of separate modules (the local and the HTTP
 * embedder), so that every provider reads {@code timeout = 30s} or {@code batch = 0} the same way.
 * A null map reads as empty. Stateless.
 */
public final class ProviderConfig {
  private ProviderConfig() {}

  /** The trimmed value of {@code key}, or null when absent or blank. */
  public static String string(Map<String, String> config, String key) {
    String v = config == null ? null : config.get(key);
    return v == null || v.isBlank() ? null : v.trim();
  }

  /**
   * The value of {@code key} as is (blanks kept: a prefix may be a lone space), or {@code
   * fallback}.
   */
  public static String raw(Map<String, String> config, String key, String fallback) {
    String v = config == null ? null : config.get(key);
    return v == null ? fallback : v;
  }

  /**
   * The trimmed value of {@code key}; refused when absent or blank, {@code what} saying what it is.
   */
  public static String required(Map<String, String> config, String key, String what) {
    String v = string(config, key);
    if (v == null) {
      throw new InvalidRequestException(
          key,
          config == null ? null : config.get(key),
          what + " (config key '" + key + "') is required");
    }
    return v;
  }

  /** A positive integer, or {@code fallback} when absent. */
  public static Integer positiveInt(Map<String, String> config, String key, Integer fallback) {
    String v = string(config, key);
    if (v == null) return fallback;
    try {
      int n = Integer.parseInt(v);
      if (n >= 1) return n;
    } catch (NumberFormatException e) {
      // reported below, with the same message as a non-positive number
    }
    throw new InvalidRequestException(
        key, v, key + " must be a whole number >= 1, was '" + v + "'");
  }

  /**
   * A positive duration: seconds as a plain number ({@code 30}, {@code 2.5}), a number with a unit
   * ({@code 500ms}, {@code 30s}, {@code 2m}) or ISO-8601 ({@code PT30S}); {@code fallback} when
   * absent.
   */
  public static Duration duration(Map<String, String> config, String key, Duration fallback) {
    String v = string(config, key);
    if (v == null) return fallback;
    Duration d = parseDuration(v.toLowerCase(Locale.ROOT));
    if (d == null || d.isNegative() || d.isZero()) {
      throw new InvalidRequestException(
          key,
          v,
          key + " must be a positive duration such as 30, 30s, 500ms or PT30S, was '" + v + "'");
    }
    return d;
  }

  private static Duration parseDuration(String v) {
    try {
      if (v.startsWith("pt")) return Duration.parse(v);
      long nanosPerUnit = 1_000_000_000L;
      String number = v;
      if (v.endsWith("ms")) {
        nanosPerUnit = 1_000_000L;
        number = v.substring(0, v.length() - 2);
      } else if (v.endsWith("s")) {
        number = v.substring(0, v.length() - 1);
      } else if (v.endsWith("m")) {
        nanosPerUnit = 60_000_000_000L;
        number = v.substring(0, v.length() - 1);
      }
      double amount = Double.parseDouble(number.trim());
      if (!Double.isFinite(amount) || amount * nanosPerUnit > Long.MAX_VALUE) return null;
      return Duration.ofNanos(Math.round(amount * nanosPerUnit));
    } catch (NumberFormatException | DateTimeParseException e) {
      return null;
    }
  }
}

package dev.mnemo;

import java.time.Instant;
import java.util.Objects;

/**
 * Which records a recall may see in time. A closed set.
 *
 * <ul>
 *   <li>{@link Current}: valid at {@code asked_at}, as known at {@code asked_at}.
 *   <li>{@link ValidAt}: valid at {@code at}, as known at {@code asked_at} (historical).
 *   <li>{@link KnownAt}: as known at {@code at} (recorded at or before, not yet expired), valid at
 *       {@code at}.
 * </ul>
 */
public sealed interface TemporalMode {

  /** The valid-time instant records must hold at. */
  Instant validTime(Instant askedAt);

  /** The transaction-time instant records must be believed at. */
  Instant knownTime(Instant askedAt);

  /** The persisted/wire code: current, valid_at or known_at. */
  String code();

  static TemporalMode current() {
    return Current.INSTANCE;
  }

  static TemporalMode validAt(Instant at) {
    return new ValidAt(at);
  }

  static TemporalMode knownAt(Instant at) {
    return new KnownAt(at);
  }

  /** Parses a code and its instant ({@code at} may be null for current). */
  static TemporalMode of(String code, Instant at) {
    String c = code == null ? "current" : code.trim().toLowerCase(java.util.Locale.ROOT);
    return switch (c) {
      case "current" -> current();
      case "valid_at", "valid-at" -> {
        if (at == null)
          throw new InvalidRequestException(
              "at", null, "at is required with mode valid_at, was null");
        yield validAt(at);
      }
      case "known_at", "known-at" -> {
        if (at == null)
          throw new InvalidRequestException(
              "at", null, "at is required with mode known_at, was null");
        yield knownAt(at);
      }
      default ->
          throw new InvalidRequestException(
              "mode",
              code,
              "mode must be one of [current, valid_at, known_at], was '" + code + "'");
    };
  }

  /** True now, as known now. */
  enum Current implements TemporalMode {
    INSTANCE;

    @Override
    public Instant validTime(Instant askedAt) {
      return askedAt;
    }

    @Override
    public Instant knownTime(Instant askedAt) {
      return askedAt;
    }

    @Override
    public String code() {
      return "current";
    }
  }

  /** True at {@code at}, as known at asked_at. */
  record ValidAt(Instant at) implements TemporalMode {
    public ValidAt {
      Objects.requireNonNull(at, "at");
    }

    @Override
    public Instant validTime(Instant askedAt) {
      return at;
    }

    @Override
    public Instant knownTime(Instant askedAt) {
      return askedAt;
    }

    @Override
    public String code() {
      return "valid_at";
    }
  }

  /** What was believed at {@code at} about what was true then. */
  record KnownAt(Instant at) implements TemporalMode {
    public KnownAt {
      Objects.requireNonNull(at, "at");
    }

    @Override
    public Instant validTime(Instant askedAt) {
      return at;
    }

    @Override
    public Instant knownTime(Instant askedAt) {
      return at;
    }

    @Override
    public String code() {
      return "known_at";
    }
  }
}

package dev.mnemo;

import dev.mnemo.InvalidRequestException.Violation;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * The limits every input shares, whichever door it comes through (Java API, REST, MCP, CLI,
 * ingest): one check for validation and for writing, so that what {@code validate} calls valid a
 * write accepts and a store can represent.
 *
 * <ul>
 *   <li><b>Times</b> lie between {@link #MIN_TIME} (0001-01-01T00:00:00Z) and {@link #MAX_TIME}
 *       (9999-12-31T23:59:59.999Z): four-digit ISO-8601 years, which every store keeps (epoch
 *       milliseconds in Lucene, dates in Solr) and every client parses back. {@code Instant} itself
 *       reaches a billion years, past what a long of milliseconds holds.
 *   <li><b>Transaction time</b> ({@code recorded_at}, a turn's {@code at}) is not later than the
 *       engine's clock plus {@link #CLOCK_SKEW} (five minutes): a record "recorded" in year 9999
 *       could never be superseded, since transaction time only moves forward.
 *   <li><b>Owners</b> hold 1 to {@value #MAX_OWNER_CHARS} characters, not all blank, from a safe
 *       set: letters, marks, digits, punctuation, symbols and the space. Control characters (NUL,
 *       newlines), format characters (right-to-left overrides, zero-width joiners: name spoofing in
 *       the inspector), other separators, lone surrogates, private-use and unassigned code points
 *       are refused.
 *   <li><b>Sizes</b>: keys, scopes, source ids and entities at most {@value #MAX_KEY_CHARS}
 *       characters, metadata values {@value #MAX_METADATA_VALUE_CHARS}; a record holds at most
 *       {@value #MAX_METADATA_ENTRIES} metadata entries, {@value #MAX_SOURCES} sources and {@value
 *       #MAX_ENTITIES} entities; a turn at most {@value #MAX_TURN_CHARS} characters; a recall asks
 *       for at most {@value #MAX_BUDGET_TOKENS} tokens. Refusals name the limit (docs/security.md
 *       lists every limit and what a client sees).
 *   <li><b>Recall filters</b>: at most {@value #MAX_METADATA_FILTERS} metadata entries in one
 *       recall. Each becomes a clause of the store's eligibility query beside the owner, time,
 *       scope, category and access clauses (up to {@link Access#MAX_PRINCIPALS} principals), and
 *       the retrieval log counts what each rule removed with the same query; the whole must stay
 *       under the 1,024 clauses Lucene's and Solr's queries take by default.
 * </ul>
 *
 * <p>Stateless and thread-safe.
 */
public final class InputRules {
  /** The earliest instant any time field may hold. */
  public static final Instant MIN_TIME = Instant.parse("0001-01-01T00:00:00Z");

  /** The latest instant any time field may hold. */
  public static final Instant MAX_TIME = Instant.parse("9999-12-31T23:59:59.999Z");

  /** How far a transaction time may run ahead of the engine's clock. */
  public static final Duration CLOCK_SKEW = Duration.ofMinutes(5);

  /** The longest owner, in UTF-16 characters. */
  public static final int MAX_OWNER_CHARS = 256;

  /** The longest fact key, scope, source id, entity or metadata key, in characters. */
  public static final int MAX_KEY_CHARS = 1024;

  /**
   * The longest metadata value, in characters (a store indexes it as one term of at most 32 KB).
   */
  public static final int MAX_METADATA_VALUE_CHARS = 4096;

  /**
   * The most metadata entries one record holds. A few dozen is usual; each entry is indexed, so
   * thousands on one record make its owner's every recall and the store slower.
   */
  public static final int MAX_METADATA_ENTRIES = 128;

  /** The most source ids one record names (turn or event ids it was derived from). */
  public static final int MAX_SOURCES = 1024;

  /** The most entities one record names. */
  public static final int MAX_ENTITIES = 256;

  /**
   * The longest turn an ingest takes, in characters (a record's text is bounded by the engine's
   * {@code maxTextChars}, 8,000 by default; a turn is split into records by extraction).
   */
  public static final int MAX_TURN_CHARS = 100_000;

  /** The largest token budget a recall may ask for. */
  public static final int MAX_BUDGET_TOKENS = 1_000_000;

  /** The most metadata filters one recall may name. */
  public static final int MAX_METADATA_FILTERS = 128;

  private InputRules() {}

  /**
   * Adds a violation when a collection {@code field} holds more than {@code max} entries; true when
   * it did (the caller then skips checking each entry).
   */
  public static boolean checkCount(String field, int count, int max, List<Violation> out) {
    if (count <= max) return false;
    out.add(
        new Violation(
            field, count, field + " must hold at most " + max + " entries, was " + count));
    return true;
  }

  /**
   * The checks of this class on a memory to write: its owner, its times ({@code recorded_at} not
   * after {@code now} plus the skew) and the lengths of its keys. Field names start with {@code
   * prefix} ({@code "records[2]."}).
   */
  public static void checkMemory(NewMemory m, String prefix, Instant now, List<Violation> out) {
    checkOwner(prefix + "owner", m.owner(), out);
    checkTransactionTime(prefix + "recorded_at", m.recordedAt(), now, out);
    checkTime(prefix + "valid_from", m.validFrom(), out);
    checkTime(prefix + "valid_to", m.validTo(), out);
    checkLength(prefix + "fact_key", m.factKey(), MAX_KEY_CHARS, out);
    checkLength(prefix + "scope", m.scope(), MAX_KEY_CHARS, out);
    checkLength(prefix + "episode", m.episode(), MAX_KEY_CHARS, out);
    if (!checkCount(prefix + "sources", m.sources().size(), MAX_SOURCES, out)) {
      for (int i = 0; i < m.sources().size(); i++)
        checkLength(prefix + "sources[" + i + "]", m.sources().get(i), MAX_KEY_CHARS, out);
    }
    if (!checkCount(prefix + "entities", m.entities().size(), MAX_ENTITIES, out)) {
      for (int i = 0; i < m.entities().size(); i++)
        checkLength(prefix + "entities[" + i + "]", m.entities().get(i), MAX_KEY_CHARS, out);
    }
    if (!checkCount(prefix + "metadata", m.metadata().size(), MAX_METADATA_ENTRIES, out)) {
      for (var e : m.metadata().entrySet()) {
        checkLength(prefix + "metadata", e.getKey(), MAX_KEY_CHARS, out);
        checkLength(prefix + "metadata." + e.getKey(), e.getValue(), MAX_METADATA_VALUE_CHARS, out);
      }
    }
    Access.check(prefix + "access", m.access(), Access.MAX_LABELS, out);
  }

  /** Adds a violation when {@code value} (null: absent) is longer than {@code max} characters. */
  public static void checkLength(String field, String value, int max, List<Violation> out) {
    if (value != null && value.length() > max) {
      out.add(
          new Violation(
              field,
              value.length(),
              field + " must be at most " + max + " characters, was " + value.length()));
    }
  }

  /**
   * {@code value} when at most {@code max} characters (or null), else an {@link
   * InvalidRequestException} naming {@code field} ({@link #checkLength}'s rule, for a door that
   * checks one value).
   */
  public static String requireLength(String field, String value, int max) {
    List<Violation> v = new java.util.ArrayList<>(1);
    checkLength(field, value, max, v);
    if (!v.isEmpty()) throw new InvalidRequestException(v);
    return value;
  }

  /** Whether {@code t} lies in [MIN_TIME, MAX_TIME]. */
  public static boolean representable(Instant t) {
    return !t.isBefore(MIN_TIME) && !t.isAfter(MAX_TIME);
  }

  /** Adds a violation when {@code t} (null: absent, fine) lies outside [MIN_TIME, MAX_TIME]. */
  public static void checkTime(String field, Instant t, List<Violation> out) {
    if (t != null && !representable(t)) {
      out.add(
          new Violation(
              field,
              t.toString(),
              field
                  + " must lie between "
                  + MIN_TIME
                  + " and "
                  + MAX_TIME
                  + " (years 0001 to 9999), was "
                  + t));
    }
  }

  /**
   * Adds a violation when the transaction time {@code t} (null: absent) is outside the time range
   * or later than {@code now} plus {@link #CLOCK_SKEW}.
   */
  public static void checkTransactionTime(
      String field, Instant t, Instant now, List<Violation> out) {
    int before = out.size();
    checkTime(field, t, out);
    if (out.size() == before && t != null && now != null && t.isAfter(now.plus(CLOCK_SKEW))) {
      out.add(
          new Violation(
              field,
              t.toString(),
              field
                  + " must not be in the future (now "
                  + now
                  + ", "
                  + CLOCK_SKEW.toMinutes()
                  + " minutes of clock skew allowed), was "
                  + t
                  + "; use valid_from for when a fact starts to hold"));
    }
  }

  /**
   * Adds a violation when {@code owner} is blank, too long or holds a character outside the safe
   * set.
   */
  public static void checkOwner(String field, String owner, List<Violation> out) {
    if (owner == null || owner.isBlank()) {
      out.add(
          new Violation(
              field,
              owner,
              field + " must not be blank, was " + (owner == null ? "null" : "'" + owner + "'")));
      return;
    }
    if (owner.length() > MAX_OWNER_CHARS) {
      out.add(
          new Violation(
              field,
              owner.length(),
              field
                  + " must be at most "
                  + MAX_OWNER_CHARS
                  + " characters, was "
                  + owner.length()));
      return;
    }
    int bad = firstUnsafe(owner);
    if (bad >= 0) {
      int cp = owner.codePointAt(bad);
      out.add(
          new Violation(
              field,
              owner,
              String.format(
                  java.util.Locale.ROOT,
                  "%s must hold only letters, digits, punctuation, symbols and spaces; it has U+%04X (%s) at index %d",
                  field,
                  cp,
                  Character.getName(cp) == null ? "unassigned" : Character.getName(cp),
                  bad)));
    }
  }

  /**
   * The owner's violation message, or null when it is valid (for callers that report one field).
   */
  public static String ownerProblem(String field, String owner) {
    List<Violation> v = new java.util.ArrayList<>(1);
    checkOwner(field, owner, v);
    return v.isEmpty() ? null : v.get(0).message();
  }

  /** Throws {@link InvalidRequestException} naming {@code field} when the owner is not valid. */
  public static String requireOwner(String field, String owner) {
    List<Violation> v = new java.util.ArrayList<>(1);
    checkOwner(field, owner, v);
    if (!v.isEmpty()) throw new InvalidRequestException(v);
    return owner;
  }

  /** Index of the first character outside the safe set, or -1. */
  static int firstUnsafe(String s) {
    for (int i = 0; i < s.length(); ) {
      int cp = s.codePointAt(i);
      if (!safe(cp)) return i;
      i += Character.charCount(cp);
    }
    return -1;
  }

  private static boolean safe(int cp) {
    if (cp == ' ') return true;
    return switch (Character.getType(cp)) {
      case Character.CONTROL,
          Character.FORMAT,
          Character.SURROGATE,
          Character.PRIVATE_USE,
          Character.UNASSIGNED,
          Character.LINE_SEPARATOR,
          Character.PARAGRAPH_SEPARATOR,
          Character.SPACE_SEPARATOR ->
          false;
      default -> true;
    };
  }
}

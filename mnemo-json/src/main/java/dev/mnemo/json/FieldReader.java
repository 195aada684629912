package dev.mnemo.json;

import com.fasterxml.jackson.databind.JsonNode;
import dev.mnemo.InvalidRequestException;
import dev.mnemo.InvalidRequestException.Violation;
import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * The one strict reader of a JSON object's fields, shared by the wire codecs, the REST server, the
 * MCP tools' argument check and the scenario files, so that all of them name a bad field the same
 * way: {@code path + field} and the value shown ({@code "records[2].text must be a string, was
 * 42"}).
 *
 * <p>A reader is opened on one object with the path prefix of its fields ({@code ""}, {@code
 * "records[2]."}) and a list that collects violations; every getter returns {@code null} (or an
 * empty collection) for an absent or JSON-null field and for a field of the wrong type, which it
 * reports. So one pass reads every field and the caller reports all problems at once ({@link
 * #throwIfAny()}), as the error model asks. The messages, one per rule:
 *
 * <ul>
 *   <li>unknown field: {@code unknown field p.f; expected one of [sorted names]}
 *   <li>missing: {@code p.f is required}; blank: {@code p.f must not be blank}
 *   <li>wrong type: {@code p.f must be <a string|a number|a whole number|true or false|...>, was V}
 * </ul>
 *
 * <p>Values shown in messages are cut at {@value #SHOWN_CHARS} characters: a hostile megabyte is
 * not echoed back. A whole number may be written {@code 5.0}. Not thread-safe (one reader per
 * object read); the static violation factories are.
 */
public final class FieldReader {
  /** The longest value echoed in a message, in characters. */
  public static final int SHOWN_CHARS = 80;

  private final JsonNode n;
  private final String path;
  private final List<Violation> v;

  private FieldReader(JsonNode n, String path, List<Violation> sink) {
    this.n = n;
    this.path = path;
    this.v = sink;
  }

  /**
   * A reader of the object {@code n}, or an {@link InvalidRequestException} when {@code n} is not
   * an object ({@code "<path><what> must be a JSON object, was <type>"}).
   *
   * @param path the prefix of every field's name, e.g. {@code ""} or {@code "records[2]."}
   * @param what what the object is, for the message when it is not one ({@code "memory"})
   * @param sink where violations are collected (shared with the caller, who may add its own)
   */
  public static FieldReader of(JsonNode n, String path, String what, List<Violation> sink) {
    if (n == null || !n.isObject()) {
      throw new InvalidRequestException(
          path + what,
          n == null ? null : n.getNodeType(),
          path + what + " must be a JSON object, was " + kind(n));
    }
    return new FieldReader(n, path, sink);
  }

  /** A reader of the object {@code n} with its own list of violations. */
  public static FieldReader of(JsonNode n, String path, String what) {
    return of(n, path, what, new ArrayList<>());
  }

  /**
   * A reader of the object field {@code f} (absent or null: null; another type: reported, null).
   */
  public FieldReader object(String f, String expected) {
    JsonNode x = n.get(f);
    if (x == null || x.isNull()) return null;
    if (!x.isObject()) {
      v.add(wrongType(path + f, x, expected));
      return null;
    }
    return new FieldReader(x, path + f + ".", v);
  }

  /** The node read. */
  public JsonNode node() {
    return n;
  }

  /** The field's raw node, or null when absent or JSON null. */
  public JsonNode get(String f) {
    JsonNode x = n.get(f);
    return x == null || x.isNull() ? null : x;
  }

  /** Whether the field is present and not JSON null. */
  public boolean has(String f) {
    return n.hasNonNull(f);
  }

  /** The field's full name: the path prefix and the field. */
  public String path(String f) {
    return path + f;
  }

  /** The prefix of this reader's fields. */
  public String path() {
    return path;
  }

  /** The violations so far (the shared sink). */
  public List<Violation> violations() {
    return v;
  }

  /** Adds a violation of the field {@code f} (named with the prefix). */
  public void reject(String f, Object value, String rule) {
    v.add(new Violation(path + f, value, path + f + " " + rule));
  }

  /** Adds a violation as it is. */
  public void add(Violation x) {
    v.add(x);
  }

  /** Reports every field not in {@code allowed}. Returns this reader. */
  public FieldReader only(Collection<String> allowed) {
    for (var it = n.fieldNames(); it.hasNext(); ) {
      String f = it.next();
      if (!allowed.contains(f)) v.add(unknownField(path + f, allowed));
    }
    return this;
  }

  /**
   * The field's value when it is of the expected type; absent: null; another type: reported, null.
   */
  private <T> T typed(
      String f, Predicate<JsonNode> ok, String expected, Function<JsonNode, T> value) {
    JsonNode x = get(f);
    if (x == null) return null;
    if (!ok.test(x)) {
      v.add(wrongType(path + f, x, expected));
      return null;
    }
    return value.apply(x);
  }

  /** Whether the field is present, else reported as required. */
  private boolean present(String f) {
    if (get(f) != null) return true;
    v.add(missing(path + f));
    return false;
  }

  public String text(String f) {
    return typed(f, JsonNode::isTextual, "a string", JsonNode::asText);
  }

  /** A text that must be present and not blank; null (reported) otherwise. */
  public String requiredText(String f) {
    String s = requiredString(f);
    if (s != null && s.isBlank()) {
      v.add(new Violation(path + f, s, path + f + " must not be blank"));
      return null;
    }
    return s;
  }

  /** A text that must be present; it may be empty (a rendered block of nothing). */
  public String requiredString(String f) {
    return present(f) ? text(f) : null;
  }

  public Double number(String f) {
    return typed(f, JsonNode::isNumber, "a number", JsonNode::asDouble);
  }

  /** A whole number (an {@code int}; {@code 5.0} counts as 5). */
  public Integer integer(String f) {
    return typed(f, FieldReader::isInt, "a whole number", JsonNode::intValue);
  }

  /** A whole number of at least {@code min}: {@code "p.f must be a whole number >= min, was V"}. */
  public Integer integer(String f, int min) {
    return typed(
        f, x -> isInt(x) && x.intValue() >= min, "a whole number >= " + min, JsonNode::intValue);
  }

  /** A whole number (a {@code long}). */
  public Long longInteger(String f) {
    return typed(
        f,
        x -> x.isNumber() && x.canConvertToExactIntegral() && x.canConvertToLong(),
        "a whole number",
        JsonNode::longValue);
  }

  public Boolean bool(String f) {
    return typed(f, JsonNode::isBoolean, "true or false", JsonNode::booleanValue);
  }

  /** An ISO-8601 instant, offset date-time or plain date (00:00 UTC); see {@link #parseInstant}. */
  public Instant instant(String f) {
    String s = text(f);
    if (s == null) return null;
    try {
      return parseInstant(path + f, s);
    } catch (InvalidRequestException e) {
      v.addAll(e.violations());
      return null;
    }
  }

  /** An instant that must be present. */
  public Instant requiredInstant(String f) {
    return present(f) ? instant(f) : null;
  }

  /**
   * A value of a coded type ({@code Category::fromCode}...); a bad code is the type's own
   * violation.
   */
  public <T> T code(String f, java.util.function.BiFunction<String, String, T> fromCode) {
    String s = text(f);
    if (s == null) return null;
    return guard(() -> fromCode.apply(path + f, s));
  }

  /** An array of strings (absent: empty). */
  public List<String> strings(String f) {
    JsonNode x = get(f);
    if (x == null) return List.of();
    if (!x.isArray()) {
      v.add(wrongType(path + f, x, "an array of strings"));
      return List.of();
    }
    List<String> out = new ArrayList<>();
    for (JsonNode e : x) {
      if (!e.isTextual())
        v.add(
            new Violation(
                path + f, e.toString(), path + f + " must contain only strings, had " + shown(e)));
      else out.add(e.asText());
    }
    return out;
  }

  /** An array of numbers as floats (absent: null). */
  public float[] floats(String f) {
    JsonNode x = get(f);
    if (x == null) return null;
    if (!x.isArray()) {
      v.add(wrongType(path + f, x, "an array of numbers"));
      return null;
    }
    float[] out = new float[x.size()];
    for (int i = 0; i < out.length; i++) {
      JsonNode e = x.get(i);
      if (!e.isNumber()) {
        v.add(
            new Violation(
                path + f, e.toString(), path + f + " must contain only numbers, had " + shown(e)));
        return null;
      }
      out[i] = e.floatValue();
    }
    return out;
  }

  /** An object of strings (absent: empty); a bad value is named {@code p.f.key}. */
  public Map<String, String> stringMap(String f) {
    return map(f, "an object of strings", "a string", x -> x.isTextual() ? x.asText() : null);
  }

  /** An object of numbers (absent: empty). */
  public Map<String, Double> numberMap(String f) {
    return map(f, "an object of numbers", "a number", x -> x.isNumber() ? x.asDouble() : null);
  }

  private <T> Map<String, T> map(
      String f, String expected, String valueExpected, Function<JsonNode, T> value) {
    JsonNode x = get(f);
    if (x == null) return Map.of();
    if (!x.isObject()) {
      v.add(wrongType(path + f, x, expected));
      return Map.of();
    }
    Map<String, T> out = new LinkedHashMap<>();
    for (var e : x.properties()) {
      T t = value.apply(e.getValue());
      if (t == null) v.add(wrongType(path + f + "." + e.getKey(), e.getValue(), valueExpected));
      else out.put(e.getKey(), t);
    }
    return out;
  }

  /** Runs a check that may throw an {@link InvalidRequestException}, collecting its violations. */
  public <T> T guard(java.util.function.Supplier<T> check) {
    try {
      return check.get();
    } catch (InvalidRequestException e) {
      v.addAll(e.violations());
      return null;
    }
  }

  /** Throws the violations collected, when there are any. */
  public void throwIfAny() {
    if (!v.isEmpty()) throw new InvalidRequestException(v);
  }

  // ---- the rules' words, for checks that read no object (the MCP schema check)
  // -------------------

  /** {@code unknown field F; expected one of [sorted]}. */
  public static Violation unknownField(String field, Collection<String> allowed) {
    return new Violation(
        field, field, "unknown field " + field + "; expected one of " + new TreeSet<>(allowed));
  }

  /** {@code F is required}. */
  public static Violation missing(String field) {
    return new Violation(field, null, field + " is required");
  }

  /** {@code F must be EXPECTED, was V} (V cut at {@value #SHOWN_CHARS} characters). */
  public static Violation wrongType(String field, JsonNode value, String expected) {
    return new Violation(
        field, value.toString(), field + " must be " + expected + ", was " + shown(value));
  }

  /** The value as JSON, cut at {@value #SHOWN_CHARS} characters. */
  public static String shown(JsonNode value) {
    String s = value == null ? "null" : value.toString();
    return s.length() > SHOWN_CHARS ? s.substring(0, SHOWN_CHARS) + "..." : s;
  }

  /** The node's JSON type in words ({@code "string"}, {@code "array"}, {@code "null"}). */
  public static String kind(JsonNode n) {
    return n == null ? "null" : n.getNodeType().toString().toLowerCase(Locale.ROOT);
  }

  private static boolean isInt(JsonNode x) {
    return x.isNumber() && x.canConvertToExactIntegral() && x.canConvertToInt();
  }

  /** Parses an ISO instant, an offset date-time or a plain date (00:00 UTC). */
  public static Instant parseInstant(String field, String s) {
    if (s == null) return null;
    String t = s.strip(); // whitespace only: trim() would also drop a NUL or another control
    Instant at;
    try {
      if (t.length() == 10) at = LocalDate.parse(t).atStartOfDay(ZoneOffset.UTC).toInstant();
      else {
        try {
          at = Instant.parse(t);
        } catch (DateTimeParseException e) {
          at = OffsetDateTime.parse(t).toInstant();
        }
      }
    } catch (java.time.DateTimeException e) { // a parse error, or a date past what Instant holds
      throw new InvalidRequestException(
          field,
          s,
          field
              + " must be an ISO-8601 date (2026-03-01) or instant "
              + "(2026-03-01T10:00:00Z), was '"
              + s
              + "'");
    }
    return at;
  }

  /**
   * {@link #parseInstant}, also refused outside the range every store represents ({@link
   * dev.mnemo.InputRules#checkTime}): for values no engine call checks afterwards (the log's query
   * parameters). A body's times are checked by the engine with the rest of the record, so that
   * {@code validate} lists them among the other violations.
   */
  public static Instant parseInstantInRange(String field, String s) {
    Instant at = parseInstant(field, s);
    List<Violation> range = new ArrayList<>(1);
    dev.mnemo.InputRules.checkTime(field, at, range);
    if (!range.isEmpty()) throw new InvalidRequestException(range);
    return at;
  }
}

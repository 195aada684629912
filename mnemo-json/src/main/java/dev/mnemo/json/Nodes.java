package dev.mnemo.json;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mnemo.InvalidRequestException;
import dev.mnemo.InvalidRequestException.Violation;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/** Small helpers of the writers and of the readers of Mnemo's own answers. */
final class Nodes {
  private Nodes() {}

  static void putIfSet(ObjectNode o, String k, Object v) {
    if (v != null) o.put(k, v.toString());
  }

  static void putNullable(ObjectNode o, String k, Object v) {
    if (v == null) o.putNull(k);
    else o.put(k, v.toString());
  }

  /** A score as the wire rounds it (4 decimals); NaN is {@code null}. */
  static void num(ObjectNode o, String k, double v) {
    if (Double.isNaN(v)) o.putNull(k);
    else o.put(k, round(v));
  }

  static double round(double v) {
    return Math.round(v * 10_000.0) / 10_000.0;
  }

  /**
   * Builds a value read from JSON that Mnemo itself wrote (a server's answer, the retrieval log),
   * or throws an {@link IllegalArgumentException} {@code "unreadable <what>: ..."} naming every
   * field it could not read: the two sides disagree about the wire form, the caller did not err.
   */
  static <T> T answer(String what, List<Violation> v, Supplier<T> make) {
    T out = null;
    RuntimeException failure = null;
    try {
      out = make.get();
    } catch (InvalidRequestException e) {
      v.addAll(e.violations());
    } catch (RuntimeException e) {
      failure = e;
    }
    if (v.isEmpty() && failure == null) return out;
    List<String> why = new ArrayList<>();
    v.forEach(x -> why.add(x.message()));
    if (failure != null && v.isEmpty()) why.add(String.valueOf(failure.getMessage()));
    throw new IllegalArgumentException(
        "unreadable " + what + ": " + String.join("; ", why), failure);
  }

  /**
   * Reads an object of Mnemo's own answer: not an object is an {@link IllegalArgumentException}.
   */
  static FieldReader answerObject(
      com.fasterxml.jackson.databind.JsonNode n, String path, String what, List<Violation> v) {
    if (n == null || !n.isObject()) {
      throw new IllegalArgumentException(
          what + " must be a JSON object, was " + (n == null ? "missing" : FieldReader.shown(n)));
    }
    return FieldReader.of(n, path, what, v);
  }
}

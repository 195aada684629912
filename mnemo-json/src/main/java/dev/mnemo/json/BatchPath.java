package dev.mnemo.json;

import dev.mnemo.InvalidRequestException;
import dev.mnemo.InvalidRequestException.Violation;
import java.util.ArrayList;
import java.util.List;

/**
 * The names the items of a batch go by, each side's named once, and the one mapping between them:
 * the engine's {@code rememberAll} names the third memory {@code memories[2].}, the REST API (whose
 * batch is {@code {"records": [...]}}) {@code records[2].}, a scenario file {@code writes[2].}, an
 * ingest request {@code turns[2].}. A violation found on one side is shown to the caller of another
 * with {@link #renamed}, so a client of the REST API reads {@code records[2].text} and a user of
 * the Java client {@code memories[2].text}, whichever side found it. Immutable, thread-safe.
 */
public enum BatchPath {
  /** {@link dev.mnemo.Mnemo#rememberAll}'s items, as the engine's checks name them. */
  MEMORIES("memories"),
  /** The items of the REST API's batch write, {@code POST /v1/memories {"records": [...]}}. */
  RECORDS("records"),
  /** The writes of a scenario (see {@code docs/scenarios.md}). */
  WRITES("writes"),
  /** The turns of an ingest request, {@code POST /v1/ingest {"turns": [...]}}. */
  TURNS("turns");

  private final String array;

  BatchPath(String array) {
    this.array = array;
  }

  /** The array's field name ({@code "records"}). */
  public String array() {
    return array;
  }

  /** The path prefix of item {@code i}: {@code "records[2]."}. */
  public String item(int i) {
    return array + "[" + i + "].";
  }

  /**
   * The violations with this side's item paths renamed to {@code to}'s ({@code memories[2].text} to
   * {@code records[2].text}), in the field and in the message; other fields are left as they are.
   */
  public InvalidRequestException renamed(InvalidRequestException e, BatchPath to) {
    return rewrite(
        e,
        field ->
            field.startsWith(array + "[") ? to.array + field.substring(array.length()) : field);
  }

  /**
   * The violations of a batch of one named as a single object: {@code memories[0].text} becomes
   * {@code text} (a single write is answered as one record, not as a batch).
   */
  public InvalidRequestException unbatched(InvalidRequestException e) {
    return rewrite(
        e,
        field -> {
          if (!field.startsWith(array + "[")) return field;
          int dot = field.indexOf("].");
          return dot < 0 ? field : field.substring(dot + 2);
        });
  }

  private static InvalidRequestException rewrite(
      InvalidRequestException e, java.util.function.UnaryOperator<String> rename) {
    List<Violation> out = new ArrayList<>();
    for (Violation v : e.violations()) {
      String field = rename.apply(v.field());
      if (field.equals(v.field())) {
        out.add(v);
        continue;
      }
      String message =
          v.message().startsWith(v.field())
              ? field + v.message().substring(v.field().length())
              : v.message().replace(v.field(), field);
      out.add(new Violation(field, v.value(), message));
    }
    return new InvalidRequestException(out);
  }
}

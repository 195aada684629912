package dev.mnemo.eval;

import com.fasterxml.jackson.core.JsonPointer;
import com.fasterxml.jackson.databind.JsonNode;
import dev.mnemo.json.JsonCodec;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Compares an evaluation's JSON report with checked-in expectations (in the way of Anserini's
 * regression files): a metric that got worse by more than its tolerance fails the check.
 *
 * <p>Expectation file:
 *
 * <pre>{@code
 * {"run": "how the report was made", "tolerance": 0.005,
 *  "metrics": {"/policies/full/recall@10": 0.947,
 *              "/policies/full/mean_latency_ms": {"value": 150, "better": "lower", "tolerance": 100}}}
 * }</pre>
 *
 * Each key is a JSON Pointer into the report; the value is the recorded number, or an object with
 * {@code value}, an optional {@code tolerance} (default: the file's {@code tolerance}, else 0) and
 * {@code better} ({@code higher}, the default, or {@code lower}; names ending in {@code leakage},
 * {@code stale_use}, {@code _ms} or starting with {@code tokens} default to lower). A metric is
 * worse when it moved the wrong way by more than the tolerance, and missing when the report has no
 * number there (null included); both fail. Stateless.
 */
public final class ExpectationCheck {
  private ExpectationCheck() {}

  /** How one metric compares. */
  public enum Status {
    OK,
    IMPROVED,
    WORSE,
    MISSING
  }

  /**
   * One compared metric.
   *
   * @param pointer where in the report
   * @param expected the recorded value
   * @param actual the report's value, NaN when missing
   * @param tolerance how far it may move the wrong way
   * @param higherIsBetter the direction
   * @param status the verdict
   */
  public record Row(
      String pointer,
      double expected,
      double actual,
      double tolerance,
      boolean higherIsBetter,
      Status status) {}

  /**
   * The outcome of a check.
   *
   * @param rows one per expected metric, in the expectation file's order
   */
  public record Result(List<Row> rows) {
    public Result {
      rows = List.copyOf(rows);
    }

    /** Whether no metric got worse or went missing. */
    public boolean passed() {
      return rows.stream()
          .noneMatch(r -> r.status() == Status.WORSE || r.status() == Status.MISSING);
    }

    /** A table of every metric, then a verdict line. */
    public String table() {
      StringBuilder sb = new StringBuilder();
      int w = Math.max(6, rows.stream().mapToInt(r -> r.pointer().length()).max().orElse(6));
      sb.append(
          String.format(
              Locale.ROOT,
              "%-" + w + "s %10s %10s %10s %9s  %s%n",
              "metric",
              "expected",
              "actual",
              "change",
              "tolerance",
              "status"));
      for (Row r : rows) {
        String status =
            switch (r.status()) {
              case OK -> "ok";
              case IMPROVED -> "improved (record the new value)";
              case WORSE -> "WORSE" + (r.higherIsBetter() ? " (dropped)" : " (rose)");
              case MISSING -> "MISSING from the report";
            };
        sb.append(
            String.format(
                Locale.ROOT,
                "%-" + w + "s %10s %10s %10s %9s  %s%n",
                r.pointer(),
                n(r.expected()),
                n(r.actual()),
                Double.isNaN(r.actual())
                    ? "-"
                    : String.format(Locale.ROOT, "%+.4f", r.actual() - r.expected()),
                n(r.tolerance()),
                status));
      }
      long bad =
          rows.stream()
              .filter(r -> r.status() == Status.WORSE || r.status() == Status.MISSING)
              .count();
      sb.append(
          bad == 0
              ? String.format(Locale.ROOT, "PASS: %d metrics no worse than expected%n", rows.size())
              : String.format(
                  Locale.ROOT,
                  "FAIL: %d of %d metrics worse than expected or missing%n",
                  bad,
                  rows.size()));
      return sb.toString();
    }

    private static String n(double v) {
      return Double.isNaN(v) ? "-" : String.format(Locale.ROOT, "%.4f", v);
    }
  }

  /** Reads both files and compares them. */
  public static Result check(Path expectations, Path report) {
    return check(
        read(expectations, "expectation"), read(report, "report"), expectations.toString());
  }

  private static JsonNode read(Path file, String what) {
    try {
      return JsonCodec.read(file);
    } catch (IOException e) {
      throw new IllegalArgumentException(
          "cannot read the " + what + " " + file + ": " + e.getMessage(), e);
    }
  }

  /**
   * Compares a report with expectations.
   *
   * @param origin what to name in messages (the expectation file)
   * @throws IllegalArgumentException if the expectations are malformed
   */
  public static Result check(JsonNode expectations, JsonNode report, String origin) {
    JsonNode metrics = expectations.get("metrics");
    if (metrics == null || !metrics.isObject() || metrics.isEmpty()) {
      throw new IllegalArgumentException(
          origin + ": needs \"metrics\", an object of JSON Pointer -> expected value");
    }
    double fileTolerance = number(expectations.get("tolerance"), 0, origin + ": tolerance");
    List<Row> rows = new ArrayList<>();
    for (Iterator<Map.Entry<String, JsonNode>> it = metrics.properties().iterator();
        it.hasNext(); ) {
      Map.Entry<String, JsonNode> e = it.next();
      String where = origin + ": metrics \"" + e.getKey() + "\"";
      JsonPointer pointer;
      try {
        pointer = JsonPointer.compile(e.getKey());
      } catch (IllegalArgumentException ex) {
        throw new IllegalArgumentException(
            where + " is not a JSON Pointer (like /policies/full/recall@10)", ex);
      }
      JsonNode spec = e.getValue();
      double expected;
      double tolerance = fileTolerance;
      boolean higher = !lowerByName(e.getKey());
      if (spec.isNumber()) {
        expected = spec.asDouble();
      } else if (spec.isObject()) {
        expected = number(spec.get("value"), Double.NaN, where + ".value");
        if (Double.isNaN(expected))
          throw new IllegalArgumentException(where + ".value is required (a number)");
        tolerance = number(spec.get("tolerance"), fileTolerance, where + ".tolerance");
        JsonNode better = spec.get("better");
        if (better != null) {
          String b = better.asText();
          if (!b.equals("higher") && !b.equals("lower")) {
            throw new IllegalArgumentException(
                where + ".better must be 'higher' or 'lower', was '" + b + "'");
          }
          higher = b.equals("higher");
        }
      } else {
        throw new IllegalArgumentException(
            where + " must be a number or {\"value\": ..}, was " + spec);
      }
      if (tolerance < 0)
        throw new IllegalArgumentException(where + ": tolerance must be >= 0, was " + tolerance);
      JsonNode got = report.at(pointer);
      double actual = got.isNumber() ? got.asDouble() : Double.NaN;
      Status status;
      if (Double.isNaN(actual)) {
        status = Status.MISSING;
      } else {
        double gain = higher ? actual - expected : expected - actual;
        status =
            gain < -tolerance - 1e-12
                ? Status.WORSE
                : gain > tolerance + 1e-12 ? Status.IMPROVED : Status.OK;
      }
      rows.add(new Row(e.getKey(), expected, actual, tolerance, higher, status));
    }
    return new Result(rows);
  }

  private static boolean lowerByName(String pointer) {
    String leaf = pointer.substring(pointer.lastIndexOf('/') + 1);
    return leaf.endsWith("leakage")
        || leaf.endsWith("stale_use")
        || leaf.endsWith("_ms")
        || leaf.startsWith("tokens");
  }

  private static double number(JsonNode n, double absent, String where) {
    if (n == null || n.isNull()) return absent;
    if (!n.isNumber()) throw new IllegalArgumentException(where + " must be a number, was " + n);
    return n.asDouble();
  }
}

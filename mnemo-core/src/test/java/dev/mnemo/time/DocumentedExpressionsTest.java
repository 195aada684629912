package dev.mnemo.time;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Checks every row of the tables in {@code docs/time-expressions.md} against the parser, so the
 * documentation cannot drift from the behaviour.
 */
class DocumentedExpressionsTest {
  private static final Instant ASKED_AT = Instant.parse("2026-04-22T10:00:00Z");

  @TestFactory
  Stream<DynamicTest> everyDocumentedExpression_givesTheDocumentedRange() throws IOException {
    List<String[]> rows = rows("| Query | Expression | From | To | Meaning |");
    assertThat(rows).hasSizeGreaterThan(100);
    return rows.stream()
        .map(
            row ->
                DynamicTest.dynamicTest(
                    row[0],
                    () -> {
                      TimeRange range =
                          TimeExpressions.parse(code(row[0]), ASKED_AT, ZoneOffset.UTC)
                              .orElseThrow(() -> new AssertionError("no range for " + row[0]));
                      assertThat(range.expression()).isEqualTo(code(row[1]));
                      assertThat(range.from()).as("from").isEqualTo(instant(row[2]));
                      assertThat(range.to()).as("to").isEqualTo(instant(row[3]));
                    }));
  }

  @TestFactory
  Stream<DynamicTest> everyDocumentedNonTime_givesNoRange() throws IOException {
    List<String[]> rows = rows("| Query (no time range) | Why |");
    assertThat(rows).hasSizeGreaterThan(15);
    return rows.stream()
        .map(
            row ->
                DynamicTest.dynamicTest(
                    row[0],
                    () ->
                        assertThat(TimeExpressions.findAll(code(row[0]), ASKED_AT, ZoneOffset.UTC))
                            .isEmpty()));
  }

  /** The cells of every table row under a header line equal to {@code header}. */
  private static List<String[]> rows(String header) throws IOException {
    List<String> lines = Files.readAllLines(docs());
    List<String[]> rows = new ArrayList<>();
    for (int i = 0; i < lines.size(); i++) {
      if (!lines.get(i).strip().equals(header)) {
        continue;
      }
      for (int j = i + 2; j < lines.size() && lines.get(j).startsWith("|"); j++) {
        String line = lines.get(j).strip();
        String[] cells = line.substring(1, line.length() - 1).split("\\|");
        rows.add(Arrays.stream(cells).map(String::strip).toArray(String[]::new));
      }
    }
    return rows;
  }

  private static Path docs() {
    for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
      Path candidate = dir.resolve("docs/time-expressions.md");
      if (Files.isRegularFile(candidate)) {
        return candidate;
      }
    }
    Assumptions.abort("docs/time-expressions.md not found above " + Path.of("").toAbsolutePath());
    throw new IllegalStateException("unreachable");
  }

  private static String code(String cell) {
    assertThat(cell).startsWith("`").endsWith("`");
    return cell.substring(1, cell.length() - 1);
  }

  private static Instant instant(String cell) {
    return switch (cell) {
      case "asked_at" -> ASKED_AT;
      case "DISTANT_PAST" -> TimeExpressions.DISTANT_PAST;
      case "DISTANT_FUTURE" -> TimeExpressions.DISTANT_FUTURE;
      default ->
          cell.contains("T")
              ? OffsetDateTime.parse(cell).toInstant()
              : LocalDate.parse(cell).atStartOfDay(ZoneOffset.UTC).toInstant();
    };
  }
}

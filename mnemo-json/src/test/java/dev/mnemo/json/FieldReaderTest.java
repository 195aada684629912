package dev.mnemo.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.mnemo.Category;
import dev.mnemo.InvalidRequestException;
import dev.mnemo.InvalidRequestException.Violation;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class FieldReaderTest {
  private static JsonNode json(String s) throws Exception {
    return JsonCodec.READER.readTree(s);
  }

  private static List<String> messages(List<Violation> v) {
    return v.stream().map(Violation::message).toList();
  }

  @Test
  void unknownFields_areNamedWithThePath_andTheSortedAllowedNames() throws Exception {
    FieldReader x =
        FieldReader.of(json("{\"owner\":\"u\",\"colour\":\"red\"}"), "records[2].", "record")
            .only(Set.of("text", "owner", "id"));
    assertThat(x.violations())
        .singleElement()
        .satisfies(
            v -> {
              assertThat(v.field()).isEqualTo("records[2].colour");
              assertThat(v.message())
                  .isEqualTo("unknown field records[2].colour; expected one of [id, owner, text]");
            });
  }

  @Test
  void wrongTypes_nameTheFieldTheExpectedTypeAndTheValue() throws Exception {
    FieldReader x =
        FieldReader.of(
            json(
                """
        {"t":5,"n":"x","i":2.5,"b":"yes","l":"a","m":{"k":1},"d":"yesterday"}"""),
            "p.",
            "thing");
    assertThat(x.text("t")).isNull();
    assertThat(x.number("n")).isNull();
    assertThat(x.integer("i")).isNull();
    assertThat(x.bool("b")).isNull();
    assertThat(x.strings("l")).isEmpty();
    assertThat(x.stringMap("m")).isEmpty();
    assertThat(x.instant("d")).isNull();
    assertThat(messages(x.violations()))
        .containsExactly(
            "p.t must be a string, was 5",
            "p.n must be a number, was \"x\"",
            "p.i must be a whole number, was 2.5",
            "p.b must be true or false, was \"yes\"",
            "p.l must be an array of strings, was \"a\"",
            "p.m.k must be a string, was 1",
            "p.d must be an ISO-8601 date (2026-03-01) or instant (2026-03-01T10:00:00Z), was 'yesterday'");
    assertThat(x.violations())
        .extracting(Violation::field)
        .containsExactly("p.t", "p.n", "p.i", "p.b", "p.l", "p.m.k", "p.d");
  }

  @Test
  void absentAndNull_areAbsent_butRequiredFieldsSaySo() throws Exception {
    FieldReader x =
        FieldReader.of(json("{\"a\":null,\"blank\":\"  \",\"empty\":\"\"}"), "", "thing");
    assertThat(x.text("a")).isNull();
    assertThat(x.strings("missing")).isEmpty();
    assertThat(x.violations()).isEmpty();
    x.requiredText("a");
    x.requiredText("blank");
    x.requiredInstant("at");
    assertThat(x.requiredString("empty")).isEmpty();
    assertThat(messages(x.violations()))
        .containsExactly("a is required", "blank must not be blank", "at is required");
  }

  @Test
  void wellTypedValues_areRead() throws Exception {
    FieldReader x =
        FieldReader.of(
            json(
                """
        {"s":"x","n":0.5,"i":5.0,"b":true,"l":["a","b"],"m":{"k":"v"},"d":"2026-03-01","c":"episodic","f":[1,0.5]}"""),
            "",
            "thing");
    assertThat(x.text("s")).isEqualTo("x");
    assertThat(x.number("n")).isEqualTo(0.5);
    assertThat(x.integer("i")).isEqualTo(5);
    assertThat(x.bool("b")).isTrue();
    assertThat(x.strings("l")).containsExactly("a", "b");
    assertThat(x.stringMap("m")).isEqualTo(Map.of("k", "v"));
    assertThat(x.instant("d")).isEqualTo(Instant.parse("2026-03-01T00:00:00Z"));
    assertThat(x.code("c", Category::fromCode)).isEqualTo(Category.EPISODIC);
    assertThat(x.floats("f")).containsExactly(1f, 0.5f);
    assertThat(x.violations()).isEmpty();
  }

  @Test
  void integerWithMinimum_andCodes_reportInTheirOwnWords() throws Exception {
    FieldReader x = FieldReader.of(json("{\"k\":0,\"c\":\"gossip\"}"), "q.", "query");
    assertThat(x.integer("k", 1)).isNull();
    assertThat(x.code("c", Category::fromCode)).isNull();
    assertThat(messages(x.violations()))
        .first()
        .isEqualTo("q.k must be a whole number >= 1, was 0");
    assertThat(x.violations()).extracting(Violation::field).containsExactly("q.k", "q.c");
  }

  @Test
  void aNestedObject_isReadWithItsPath() throws Exception {
    FieldReader x = FieldReader.of(json("{\"focus\":{\"task\":3},\"other\":[]}"), "", "request");
    FieldReader focus = x.object("focus", "an object");
    assertThat(focus.text("task")).isNull();
    assertThat(x.object("other", "an object {task}")).isNull();
    assertThat(messages(x.violations()))
        .containsExactly(
            "focus.task must be a string, was 3", "other must be an object {task}, was []");
  }

  @Test
  void notAnObject_isRefusedWithItsType() throws Exception {
    assertThatThrownBy(() -> FieldReader.of(json("[1]"), "records[0].", "record"))
        .isInstanceOf(InvalidRequestException.class)
        .hasMessage("records[0].record must be a JSON object, was array");
    assertThatThrownBy(() -> FieldReader.of(null, "", "memory"))
        .hasMessage("memory must be a JSON object, was null");
  }

  @Test
  void aHostileValue_isNotEchoedWhole() throws Exception {
    String big = "x".repeat(100_000);
    FieldReader x = FieldReader.of(json("{\"t\":[\"" + big + "\"]}"), "", "thing");
    x.text("t");
    assertThat(x.violations().get(0).message()).hasSizeLessThan(200).endsWith("...");
  }

  @Test
  void throwIfAny_reportsEveryViolationAtOnce() throws Exception {
    List<Violation> sink = new ArrayList<>();
    FieldReader x = FieldReader.of(json("{\"a\":1,\"b\":2}"), "", "thing", sink);
    x.text("a");
    x.text("b");
    assertThat(sink).hasSize(2);
    assertThatThrownBy(x::throwIfAny)
        .isInstanceOfSatisfying(
            InvalidRequestException.class,
            e -> assertThat(e.violations()).extracting(Violation::field).containsExactly("a", "b"));
  }

  @Test
  void theRulesWords_areSharedByChecksThatReadNoObject() throws Exception {
    assertThat(FieldReader.unknownField("x.y", List.of("b", "a")).message())
        .isEqualTo("unknown field x.y; expected one of [a, b]");
    assertThat(FieldReader.missing("owner").message()).isEqualTo("owner is required");
    assertThat(FieldReader.wrongType("k", json("\"3\""), "an integer").message())
        .isEqualTo("k must be an integer, was \"3\"");
  }
}

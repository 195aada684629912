package dev.mnemo.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * Random JSON, shaped like the API's bodies with random field names, types and values (extreme
 * dates, control characters, huge numbers, nesting), never gets a 5xx from any body-taking route,
 * and a write request is all or nothing: the store grows by exactly the ids a 201 returns, and not
 * at all otherwise. Seeded by jqwik; a failure prints its seed.
 */
class RandomJsonPropertiesIT {
  private static Path dir;
  private static TestServer server;
  private static String key;

  @BeforeContainer
  static void start() throws IOException {
    dir = Files.createTempDirectory("mnemo-random-json");
    server = new TestServer(dir);
    key = server.key("fuzz");
  }

  @AfterContainer
  static void stop() throws IOException {
    if (server != null) server.close();
    try (var walk = Files.walk(dir)) {
      for (Path p : walk.sorted(java.util.Comparator.reverseOrder()).toList())
        Files.deleteIfExists(p);
    }
  }

  private static final List<String> FIELDS =
      List.of(
          "owner",
          "text",
          "records",
          "turns",
          "valid_from",
          "valid_to",
          "recorded_at",
          "fact_key",
          "category",
          "importance",
          "scope",
          "metadata",
          "sources",
          "entities",
          "seq",
          "episode",
          "mode",
          "at",
          "asked_at",
          "k",
          "budget_tokens",
          "ids",
          "id",
          "role",
          "x");

  @Provide
  Arbitrary<JsonNode> bodies() {
    return value(3).map(v -> v);
  }

  private Arbitrary<JsonNode> value(int depth) {
    JsonNodeFactory f = JsonNodeFactory.instance;
    Arbitrary<JsonNode> strings =
        Arbitraries.oneOf(
            Arbitraries.strings().ofMaxLength(20).map(f::textNode),
            Arbitraries.strings()
                .withCharRange('\u0000', '\u2FFF')
                .ofMaxLength(12)
                .map(f::textNode),
            Arbitraries.of(
                    "o",
                    "maya",
                    "",
                    " ",
                    "a\u202Eb",
                    "2026-01-01T00:00:00Z",
                    "-999999999-01-01T00:00:00Z",
                    "+999999999-12-31T23:59:59Z",
                    "9999-12-31T23:59:59Z",
                    "0000-01-01T00:00:00Z",
                    "current",
                    "valid_at",
                    "known_at",
                    "user",
                    "semantic")
                .map(f::textNode),
            Arbitraries.strings().ofLength(9000).map(f::textNode));
    Arbitrary<JsonNode> scalars =
        Arbitraries.oneOf(
            strings,
            Arbitraries.integers().map(f::numberNode),
            Arbitraries.longs().map(f::numberNode),
            Arbitraries.doubles().map(f::numberNode),
            Arbitraries.of(true, false).map(f::booleanNode),
            Arbitraries.just(f.nullNode()));
    if (depth == 0) return scalars;
    Arbitrary<JsonNode> objects =
        Arbitraries.maps(Arbitraries.of(FIELDS), Arbitraries.lazy(() -> value(depth - 1)))
            .ofMaxSize(6)
            .map(
                m -> {
                  ObjectNode o = f.objectNode();
                  m.forEach(o::set);
                  return o;
                });
    Arbitrary<JsonNode> arrays =
        Arbitraries.lazy(() -> value(depth - 1))
            .list()
            .ofMaxSize(4)
            .map(
                l -> {
                  ArrayNode a = f.arrayNode();
                  l.forEach(a::add);
                  return a;
                });
    return Arbitraries.frequencyOf(
        net.jqwik.api.Tuple.of(2, scalars),
        net.jqwik.api.Tuple.of(6, objects),
        net.jqwik.api.Tuple.of(1, arrays));
  }

  private static long stored() {
    return server.send("GET", "/v1/export", key, null).body().lines().count();
  }

  @Property(tries = 300)
  void randomJson_neverA5xx_andWritesAllOrNothing(
      @ForAll("bodies") JsonNode body, @ForAll("routes") String route) {
    long before = route.equals("/v1/memories") ? stored() : 0;
    TestServer.Response r = server.send("POST", route, key, body.toString());
    assertThat(r.status()).as(route + " " + body + " -> " + r).isLessThan(500);
    if (route.equals("/v1/memories")) {
      long after = stored();
      if (r.status() == 201) {
        assertThat(after - before)
            .as("a 201 wrote exactly its records")
            .isGreaterThanOrEqualTo(r.json().get("ids").size());
      } else {
        assertThat(after)
            .as("a refused write wrote nothing: " + body + " -> " + r)
            .isEqualTo(before);
      }
    }
  }

  @Provide
  Arbitrary<String> routes() {
    return Arbitraries.of(
        "/v1/memories", "/v1/memories/validate", "/v1/recall", "/v1/ingest", "/v1/owners/o/used");
  }

  static {
    // the export of a tenant is read often here: keep the access log quiet
    System.setProperty("org.slf4j.simpleLogger.log.mnemo.access", "warn");
  }
}

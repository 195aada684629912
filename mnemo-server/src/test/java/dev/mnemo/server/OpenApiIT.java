package dev.mnemo.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.mnemo.json.JsonCodec;
import java.io.InputStream;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The OpenAPI document served at /v1/openapi.json against the implementation: every registered
 * route is documented and every documented route is registered; every request example validates
 * against its schema and is accepted by the server; every documented operation, called, answers its
 * documented success status with a body that validates against the documented schema.
 */
class OpenApiIT {
  @TempDir static Path dir;
  static TestServer s;
  static JsonNode spec;

  @BeforeAll
  static void start() throws Exception {
    s = new TestServer(dir);
    try (InputStream in = MnemoServer.class.getResourceAsStream("openapi.json")) {
      spec = JsonCodec.READER.readTree(in);
    }
  }

  @AfterAll
  static void stop() {
    s.close();
  }

  private static Set<String> documented() {
    Set<String> out = new TreeSet<>();
    for (var p : spec.get("paths").properties()) {
      p.getValue().fieldNames().forEachRemaining(m -> out.add(m.toUpperCase() + " " + p.getKey()));
    }
    return out;
  }

  @Test
  void everyRouteIsDocumented_andEveryDocumentedRouteExists() {
    assertThat(new TreeSet<>(s.server.routes())).isEqualTo(documented());
    assertThat(s.send("GET", "/v1/openapi.json", null, null).json()).isEqualTo(spec);
  }

  @Test
  void everyOperation_documentsItsErrorsAsProblems() {
    for (String op : documented()) {
      JsonNode o = operation(op);
      boolean secured = !o.has("security");
      for (var r : o.get("responses").properties()) {
        if (r.getKey().startsWith("4") || r.getKey().startsWith("5")) {
          assertThat(r.getValue().get("content").has("application/problem+json"))
              .as(op + " " + r.getKey())
              .isTrue();
        }
      }
      if (secured) assertThat(o.get("responses").has("401")).as(op + " documents 401").isTrue();
      if (o.has("requestBody"))
        assertThat(o.get("responses").has("422")).as(op + " documents 422").isTrue();
    }
  }

  @Test
  void examplesValidate_andEveryOperationAnswersAsDocumented() {
    String tenant = "docs";
    String key = s.key(tenant);
    String spareKeyId =
        s.send("POST", "/v1/tenants/" + tenant + "/keys", TestServer.ADMIN, null)
            .json()
            .get("key_id")
            .asText();
    String id =
        s.send(
                "POST",
                "/v1/memories",
                key,
                "{\"owner\":\"alice\",\"text\":\"Alice is vegetarian\",\"fact_key\":\"diet\",\"sources\":[\"s1\"]}")
            .json()
            .get("ids")
            .get(0)
            .asText();
    // a record no example supersedes, for POST .../memories/{id}/category and
    // .../episodes/{episode}/summary
    String chess =
        s.send(
                "POST",
                "/v1/memories",
                key,
                "{\"owner\":\"alice\",\"text\":\"Alice plays chess\",\"episode\":\"s1\"}")
            .json()
            .get("ids")
            .get(0)
            .asText();
    // a failed attempt under the same id, for POST .../turns/{id}/accept
    s.send(
        "POST",
        "/v1/ingest",
        key,
        "{\"turns\":[{\"id\":\""
            + id
            + "\",\"owner\":\"alice\",\"role\":\"assistant\","
            + "\"text\":\"Alice orders the vegetarian menu\",\"status\":\"failed\"}]}");
    // a logged recall, for the /v1/recalls/{id} routes (logging is asynchronous: wait for it)
    s.send("POST", "/v1/recall", key, "{\"owner\":\"alice\",\"text\":\"Is Alice vegetarian?\"}");
    String recallId = null;
    for (int i = 0; i < 200 && recallId == null; i++) {
      JsonNode found = s.send("GET", "/v1/recalls?owner=alice", key, null).json().get("recalls");
      if (found.isEmpty()) sleepQuietly(25);
      else recallId = found.get(0).get("id").asText();
    }
    assertThat(recallId).as("the recall was logged").isNotNull();
    List<String> ops = new ArrayList<>(documented());
    // Deletions last, the tenant's deletion at the very end.
    ops.sort(
        Comparator.comparing((String op) -> op.startsWith("DELETE"))
            .thenComparing(op -> op.equals("DELETE /v1/tenants/{tenant}"))
            .thenComparing(op -> op.contains("{owner}") && !op.contains("{id}"))
            .thenComparing(op -> op));
    for (String op : ops) {
      JsonNode o = operation(op);
      String method = op.substring(0, op.indexOf(' '));
      String path =
          op.substring(op.indexOf(' ') + 1)
              .replace("{owner}", "alice")
              .replace(
                  "{id}",
                  op.contains("/v1/recalls/") ? recallId : op.endsWith("/category") ? chess : id)
              .replace("{tenant}", tenant)
              .replace("{key_id}", spareKeyId)
              .replace("{asset}", "inspector.css")
              .replace("{episode}", "s1");
      String query = "";
      if (o.has("parameters")) {
        for (JsonNode p : o.get("parameters")) {
          if (p.get("in").asText().equals("query") && p.path("required").asBoolean()) {
            query +=
                (query.isEmpty() ? "?" : "&")
                    + p.get("name").asText()
                    + "="
                    + URLEncoder.encode("diet", StandardCharsets.UTF_8);
          }
        }
      }
      String auth = o.has("security") ? null : tags(o).contains("admin") ? TestServer.ADMIN : key;
      String expected = successStatus(o);
      JsonNode successSchema = o.get("responses").get(expected).get("content");
      List<String> bodies = new ArrayList<>();
      if (o.has("requestBody")) {
        JsonNode content = o.get("requestBody").get("content").get("application/json");
        for (var ex : content.get("examples").properties()) {
          List<String> errors = new ArrayList<>();
          validate(ex.getValue().get("value"), content.get("schema"), "$", errors);
          assertThat(errors).as(op + " example " + ex.getKey()).isEmpty();
          bodies.add(ex.getValue().get("value").toString());
        }
      } else {
        bodies.add(null);
      }
      for (String body : bodies) {
        TestServer.Response r = s.send(method, path + query, auth, body);
        assertThat(String.valueOf(r.status())).as(op + " " + r).isEqualTo(expected);
        if (successSchema == null) continue; // a redirect: no body
        String ctype = successSchema.fieldNames().next();
        assertThat(r.contentType()).as(op).startsWith(ctype);
        JsonNode schema = successSchema.get(ctype).get("schema");
        List<String> errors = new ArrayList<>();
        if (ctype.equals("application/json")) {
          validate(r.json(), schema, "$", errors);
        } else if (ctype.equals("application/x-ndjson")) {
          for (String line : r.body().split("\n")) {
            if (!line.isBlank())
              validate(new TestServer.Response(200, "", line, null).json(), schema, "$", errors);
          }
        }
        assertThat(errors).as(op + " response " + r.body()).isEmpty();
      }
    }
  }

  private static void sleepQuietly(long ms) {
    try {
      Thread.sleep(ms); // polls the asynchronous log; not a timing assertion
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Test
  void problemResponses_validateAgainstTheProblemSchema() {
    String key = s.key("problems");
    List<String> errors = new ArrayList<>();
    JsonNode schema = spec.get("components").get("schemas").get("Problem");
    validate(s.send("POST", "/v1/memories", key, "{\"owner\":\"a\"}").json(), schema, "$", errors);
    validate(s.send("POST", "/v1/memories", key, "{").json(), schema, "$", errors);
    validate(s.send("GET", "/v1/export", null, null).json(), schema, "$", errors);
    assertThat(errors).isEmpty();
  }

  @Test
  void theSchemaCheck_catchesWhatItShould() throws Exception {
    JsonNode newMemory = spec.get("components").get("schemas").get("NewMemory");
    List<String> errors = new ArrayList<>();
    validate(
        JsonCodec.READER.readTree("{\"owner\":5,\"colour\":\"red\",\"importance\":2}"),
        newMemory,
        "$",
        errors);
    assertThat(errors)
        .hasSize(4); // owner's type, unknown colour, importance's maximum, missing text
  }

  private static JsonNode operation(String op) {
    String method = op.substring(0, op.indexOf(' ')).toLowerCase();
    return spec.get("paths").get(op.substring(op.indexOf(' ') + 1)).get(method);
  }

  private static List<String> tags(JsonNode o) {
    List<String> t = new ArrayList<>();
    o.path("tags").forEach(x -> t.add(x.asText()));
    return t;
  }

  private static String successStatus(JsonNode o) {
    for (Iterator<String> it = o.get("responses").fieldNames(); it.hasNext(); ) {
      String c = it.next();
      if (c.startsWith("2") || c.startsWith("3")) return c;
    }
    throw new AssertionError("no success response in " + o);
  }

  // ---- a structural JSON Schema check: enough of 2020-12 for this document -------------------

  static void validate(JsonNode v, JsonNode schema, String at, List<String> errors) {
    if (schema.has("$ref")) {
      String ref = schema.get("$ref").asText();
      JsonNode target = spec;
      for (String part : ref.substring(2).split("/")) target = target.get(part);
      validate(v, target, at, errors);
      return;
    }
    if (schema.has("allOf")) for (JsonNode s : schema.get("allOf")) validate(v, s, at, errors);
    if (schema.has("anyOf") && !matchesAny(v, schema.get("anyOf"), at))
      errors.add(at + ": matches none of anyOf");
    if (schema.has("oneOf")) {
      int n = 0;
      for (JsonNode s : schema.get("oneOf")) {
        List<String> e = new ArrayList<>();
        validate(v, s, at, e);
        if (e.isEmpty()) n++;
      }
      if (n != 1) errors.add(at + ": matches " + n + " of oneOf");
    }
    if (schema.has("const") && !schema.get("const").equals(v))
      errors.add(at + ": not " + schema.get("const"));
    if (schema.has("enum")) {
      boolean in = false;
      for (JsonNode e : schema.get("enum")) in |= e.equals(v);
      if (!in) errors.add(at + ": " + v + " not in " + schema.get("enum"));
    }
    if (schema.has("type")) {
      List<String> types = new ArrayList<>();
      if (schema.get("type").isArray()) schema.get("type").forEach(t -> types.add(t.asText()));
      else types.add(schema.get("type").asText());
      if (types.stream().noneMatch(t -> hasType(v, t))) {
        errors.add(at + ": " + v.getNodeType() + " is not " + types);
        return;
      }
    }
    if (v.isTextual()) {
      String s = v.asText();
      if (schema.has("minLength") && s.length() < schema.get("minLength").asInt())
        errors.add(at + ": too short");
      if (schema.has("maxLength") && s.length() > schema.get("maxLength").asInt())
        errors.add(at + ": too long");
      if (schema.has("pattern")
          && !Pattern.compile(schema.get("pattern").asText()).matcher(s).find()) {
        errors.add(at + ": '" + s + "' does not match " + schema.get("pattern"));
      }
    }
    if (v.isNumber()) {
      if (schema.has("minimum") && v.asDouble() < schema.get("minimum").asDouble())
        errors.add(at + ": below minimum");
      if (schema.has("maximum") && v.asDouble() > schema.get("maximum").asDouble())
        errors.add(at + ": above maximum");
    }
    if (v.isArray()) {
      if (schema.has("minItems") && v.size() < schema.get("minItems").asInt())
        errors.add(at + ": too few items");
      if (schema.has("maxItems") && v.size() > schema.get("maxItems").asInt())
        errors.add(at + ": too many items");
      if (schema.has("items"))
        for (int i = 0; i < v.size(); i++)
          validate(v.get(i), schema.get("items"), at + "[" + i + "]", errors);
    }
    if (v.isObject()) {
      if (schema.has("required")) {
        for (JsonNode r : schema.get("required"))
          if (!v.has(r.asText())) errors.add(at + ": missing " + r.asText());
      }
      JsonNode props = schema.path("properties");
      for (var f : v.properties()) {
        if (props.has(f.getKey())) {
          validate(f.getValue(), props.get(f.getKey()), at + "." + f.getKey(), errors);
        } else if (schema.has("additionalProperties")) {
          JsonNode ap = schema.get("additionalProperties");
          if (ap.isBoolean() && !ap.asBoolean())
            errors.add(at + ": unknown property " + f.getKey());
          else if (ap.isObject()) validate(f.getValue(), ap, at + "." + f.getKey(), errors);
        }
      }
    }
  }

  private static boolean matchesAny(JsonNode v, JsonNode schemas, String at) {
    for (JsonNode s : schemas) {
      List<String> e = new ArrayList<>();
      validate(v, s, at, e);
      if (e.isEmpty()) return true;
    }
    return false;
  }

  private static boolean hasType(JsonNode v, String t) {
    return switch (t) {
      case "object" -> v.isObject();
      case "array" -> v.isArray();
      case "string" -> v.isTextual();
      case "integer" ->
          v.isIntegralNumber() || (v.isNumber() && v.asDouble() == Math.rint(v.asDouble()));
      case "number" -> v.isNumber();
      case "boolean" -> v.isBoolean();
      case "null" -> v.isNull();
      default -> throw new AssertionError("unknown type " + t);
    };
  }
}

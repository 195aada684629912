package dev.mnemo.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mnemo.InvalidRequestException;
import dev.mnemo.InvalidRequestException.Violation;
import dev.mnemo.json.FieldReader;
import dev.mnemo.json.JsonCodec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Strict checks of a tool call's arguments against the tool's input schema, before anything runs,
 * in the words of the shared {@link FieldReader} (unknown field, required, wrong type), so a tool
 * call and a REST request name a bad field alike.
 *
 * <p>Understands the subset of JSON Schema that {@code tools.json} uses: {@code required}, {@code
 * additionalProperties: false} (or a schema for the values of free keys), and per property {@code
 * type} (string, integer, number, boolean, array of strings with {@code minItems}/{@code maxItems}
 * and a string rule for its items), {@code enum}, {@code minLength}/{@code maxLength}, {@code
 * minimum}/{@code exclusiveMinimum}/{@code maximum}. Every broken rule of a call is reported at
 * once, each naming the field and showing the value. A JSON null counts as absent; an integral
 * number written as {@code 5.0} counts as the integer 5. What needs Mnemo's own rules (dates, time
 * modes, fact-key ordering) is left to the codecs of mnemo-json and the engine, which report in the
 * same form.
 *
 * <p>The SDK can validate inputs too; its messages name JSON pointers rather than fields and fixes,
 * so the server turns it off and relies on this class alone.
 */
final class Arguments {
  private Arguments() {}

  /**
   * The arguments as a JSON object without nulls, or an {@link InvalidRequestException} listing
   * every violation.
   */
  static ObjectNode check(ObjectNode schema, Map<String, Object> arguments) {
    List<Violation> v = new ArrayList<>();
    JsonNode given = JsonCodec.tree(arguments == null ? Map.of() : arguments);
    ObjectNode args = object("", schema, given, v);
    if (!v.isEmpty()) throw new InvalidRequestException(v);
    return args;
  }

  /**
   * The fields of an object that obey the schema's properties; violations named {@code prefix +
   * field}.
   */
  private static ObjectNode object(
      String prefix, JsonNode schema, JsonNode given, List<Violation> v) {
    ObjectNode args = JsonCodec.object();
    JsonNode props = schema.get("properties");
    for (Map.Entry<String, JsonNode> e : given.properties()) {
      String field = prefix + e.getKey();
      JsonNode value = e.getValue();
      JsonNode rule = props.get(e.getKey());
      // An object of free keys (per category or fact kind) names the rule of its values.
      if (rule == null && schema.path("additionalProperties").isObject())
        rule = schema.get("additionalProperties");
      if (rule == null) {
        List<String> known = new ArrayList<>();
        props.fieldNames().forEachRemaining(known::add);
        v.add(FieldReader.unknownField(field, known));
      } else if (!value.isNull()) {
        JsonNode checked = value(field, value, rule, v);
        if (checked != null) args.set(e.getKey(), checked);
      }
    }
    for (JsonNode r : schema.path("required")) {
      String field = r.asText();
      if (!given.has(field) || given.get(field).isNull()) {
        v.add(FieldReader.missing(prefix + field));
      }
    }
    return args;
  }

  /** The value if it obeys the rule, else null with the violation added. */
  private static JsonNode value(String field, JsonNode value, JsonNode rule, List<Violation> v) {
    String type = rule.path("type").asText();
    int before = v.size();
    switch (type) {
      case "string" -> {
        if (!value.isTextual()) return wrongType(field, value, "a string", v);
        String s = value.asText();
        int min = rule.path("minLength").asInt(0);
        if (min > 0 && s.isBlank()) {
          v.add(new Violation(field, s, field + " must not be blank, was " + value));
        } else if (rule.has("maxLength") && s.length() > rule.get("maxLength").asInt()) {
          v.add(
              new Violation(
                  field,
                  s.length(),
                  field
                      + " must be at most "
                      + rule.get("maxLength").asInt()
                      + " characters, was "
                      + s.length()));
        }
        enumeration(field, value, rule, v);
      }
      case "integer" -> {
        if (!value.isNumber()) return wrongType(field, value, "an integer", v);
        double d = value.asDouble();
        if (!value.isIntegralNumber() && (d != Math.rint(d) || Double.isInfinite(d))) {
          return wrongType(field, value, "an integer", v);
        }
        if (!value.isIntegralNumber())
          value = com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.numberNode((long) d);
        range(field, value, rule, v);
      }
      case "number" -> {
        if (!value.isNumber()) return wrongType(field, value, "a number", v);
        range(field, value, rule, v);
      }
      case "boolean" -> {
        if (!value.isBoolean()) return wrongType(field, value, "true or false", v);
      }
      case "array" -> {
        if (!value.isArray()) return wrongType(field, value, "an array of strings", v);
        JsonNode items = rule.path("items");
        int minItems = rule.path("minItems").asInt(0);
        int maxItems = rule.path("maxItems").asInt(Integer.MAX_VALUE);
        if (value.size() < minItems || value.size() > maxItems) {
          v.add(
              new Violation(
                  field,
                  value.size(),
                  field
                      + " must have "
                      + (value.size() < minItems ? "at least " + minItems : "at most " + maxItems)
                      + " items, had "
                      + value.size()));
        }
        for (int i = 0; i < value.size(); i++) {
          JsonNode item = value.get(i);
          String path = field + "[" + i + "]";
          if (!item.isTextual()) wrongType(path, item, "a string", v);
          else value(path, item, items.isMissingNode() ? STRING : items, v);
        }
      }
      case "object" -> {
        if (!value.isObject()) return wrongType(field, value, "an object", v);
        value = object(field + ".", rule, value, v);
      }
      default ->
          throw new IllegalStateException(
              "tools.json: property " + field + " has unsupported type '" + type + "'");
    }
    return v.size() == before ? value : null;
  }

  private static final JsonNode STRING = JsonCodec.object().put("type", "string");

  private static JsonNode wrongType(
      String field, JsonNode value, String expected, List<Violation> v) {
    v.add(FieldReader.wrongType(field, value, expected));
    return null;
  }

  private static void enumeration(String field, JsonNode value, JsonNode rule, List<Violation> v) {
    if (!rule.has("enum")) return;
    List<String> allowed = new ArrayList<>();
    for (JsonNode a : (ArrayNode) rule.get("enum")) allowed.add(a.asText());
    if (!allowed.contains(value.asText())) {
      v.add(
          new Violation(
              field, value.asText(), field + " must be one of " + allowed + ", was " + value));
    }
  }

  private static void range(String field, JsonNode value, JsonNode rule, List<Violation> v) {
    double d = value.asDouble();
    JsonNode min = rule.get("minimum");
    JsonNode max = rule.get("maximum");
    JsonNode above = rule.get("exclusiveMinimum");
    if (above != null && !(d > above.asDouble())) {
      v.add(
          new Violation(
              field, value.numberValue(), field + " must be > " + above + ", was " + value));
      return;
    }
    if ((min != null && d < min.asDouble())
        || (max != null && d > max.asDouble())
        || Double.isNaN(d)) {
      String bounds =
          min != null && max != null
              ? "between " + min + " and " + max
              : min != null ? ">= " + min : "<= " + max;
      v.add(
          new Violation(
              field, value.numberValue(), field + " must be " + bounds + ", was " + value));
    }
  }
}

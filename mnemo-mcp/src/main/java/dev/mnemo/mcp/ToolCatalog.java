package dev.mnemo.mcp;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mnemo.json.JsonCodec;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;

/**
 * The tools as the model sees them, read from {@code tools.json}: names, descriptions, annotations
 * and input schemas, plus the server's instructions and version.
 *
 * <p>{@code {"$shared": "owner"}} in a schema stands for the one owner property defined at the top
 * of the file, so that every tool explains {@code owner} in the same words. With a default owner (a
 * single-user stdio server) {@code owner} becomes optional and its description says so. Immutable.
 */
final class ToolCatalog {
  static final String REMEMBER = "remember";
  static final String RECALL = "recall";
  static final String HISTORY = "history";
  static final String FORGET = "forget";
  static final String MARK_USED = "mark_used";

  private static final TypeReference<Map<String, Object>> MAP = new TypeReference<>() {};

  private final String instructions;
  private final String defaultOwner;
  private final Map<String, ObjectNode> schemas = new LinkedHashMap<>();
  private final Map<String, McpSchema.Tool> tools = new LinkedHashMap<>();

  /**
   * @param defaultOwner the owner used when a call names none, or null to require one
   */
  ToolCatalog(String defaultOwner) {
    if (defaultOwner != null && defaultOwner.isBlank()) {
      throw new IllegalArgumentException(
          "default owner must not be blank, was '" + defaultOwner + "'");
    }
    this.defaultOwner = defaultOwner;
    JsonNode root = read("tools.json");
    this.instructions = root.get("instructions").asText();
    ObjectNode owner = ((ObjectNode) root.get("owner")).deepCopy();
    if (defaultOwner != null) {
      owner.put(
          "description",
          owner.get("description").asText()
              + " Optional on this server: defaults to \""
              + defaultOwner
              + "\".");
    }
    for (JsonNode t : root.get("tools")) {
      String name = t.get("name").asText();
      ObjectNode schema = ((ObjectNode) t.get("inputSchema")).deepCopy();
      ObjectNode props = (ObjectNode) schema.get("properties");
      for (Map.Entry<String, JsonNode> e : props.properties()) {
        if (e.getValue().has("$shared")) e.setValue(owner.deepCopy());
      }
      if (defaultOwner != null) {
        ArrayNode required = (ArrayNode) schema.get("required");
        for (int i = required.size() - 1; i >= 0; i--) {
          if (required.get(i).asText().equals("owner")) required.remove(i);
        }
      }
      JsonNode a = t.get("annotations");
      McpSchema.ToolAnnotations annotations =
          new McpSchema.ToolAnnotations(
              t.get("title").asText(),
              a.get("readOnlyHint").asBoolean(),
              a.get("destructiveHint").asBoolean(),
              a.get("idempotentHint").asBoolean(),
              a.get("openWorldHint").asBoolean(),
              null);
      schemas.put(name, schema);
      tools.put(
          name,
          McpSchema.Tool.builder(name, JsonCodec.convert(schema, MAP))
              .title(t.get("title").asText())
              .description(t.get("description").asText())
              .annotations(annotations)
              .build());
    }
  }

  String instructions() {
    return instructions;
  }

  /** The tools in the order of the file (remember, recall, history, forget, mark_used). */
  Iterable<McpSchema.Tool> tools() {
    return tools.values();
  }

  /**
   * The arguments of a call, checked against the tool's schema (see {@link Arguments}), with the
   * default owner filled in.
   */
  ObjectNode check(String tool, Map<String, Object> arguments) {
    ObjectNode args = Arguments.check(schemas.get(tool), arguments);
    if (defaultOwner != null && !args.has("owner")) args.put("owner", defaultOwner);
    return args;
  }

  /** The version of this module, as the server reports it. */
  static String version() {
    Properties p = new Properties();
    try (InputStream in = ToolCatalog.class.getResourceAsStream("mcp-server.properties")) {
      if (in != null) p.load(in);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return p.getProperty("version", "unknown");
  }

  private static JsonNode read(String resource) {
    try (InputStream in = ToolCatalog.class.getResourceAsStream(resource)) {
      if (in == null)
        throw new IllegalStateException(resource + " is missing from the mnemo-mcp jar");
      return JsonCodec.READER.readTree(in);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + resource, e);
    }
  }
}

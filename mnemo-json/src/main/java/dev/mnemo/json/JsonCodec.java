package dev.mnemo.json;

import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Mnemo's one JSON codec: Jackson's immutable, thread-safe {@link ObjectReader} and {@link
 * ObjectWriter}, configured once, and the node factory. There is no shared {@link ObjectMapper} to
 * reconfigure: a mapper is mutable ({@code configure}, {@code registerModule}), so one change
 * anywhere would change every wire form; readers and writers are not.
 *
 * <p>The wire forms of Mnemo's values have one class each, a reader and a writer side by side:
 * {@link MemoryJson} (a memory to write), {@link TurnJson} (a turn and a turn log entry), {@link
 * RecordJson} (a stored record), {@link RequestJson} (a recall request and its weights), {@link
 * ResultJson} (a recall's answer), {@link TraceJson} (a recall's trace), {@link IngestJson} (ingest
 * receipts and progress) and {@link RecallLogJson}; all read fields with the one strict {@link
 * FieldReader}. Thread-safe.
 */
public final class JsonCodec {
  private JsonCodec() {}

  // Private and never configured after this line: only the immutable views below leave the class.
  private static final ObjectMapper MAPPER = JsonMapper.builder().build();

  /** Reads JSON (tolerant of duplicate keys and trailing tokens, as Jackson's defaults are). */
  public static final ObjectReader READER = MAPPER.reader();

  /**
   * Reads JSON strictly: a repeated key or a second value after the first is an error rather than a
   * guess (request bodies, scenario lines).
   */
  public static final ObjectReader STRICT_READER =
      READER
          .with(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
          .with(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

  /** Writes compact JSON. */
  public static final ObjectWriter WRITER = MAPPER.writer();

  /** Writes indented JSON, for people. */
  public static final ObjectWriter PRETTY = MAPPER.writerWithDefaultPrettyPrinter();

  /** A new empty object node. */
  public static ObjectNode object() {
    return JsonNodeFactory.instance.objectNode();
  }

  /** A new empty array node. */
  public static ArrayNode array() {
    return JsonNodeFactory.instance.arrayNode();
  }

  /** JSON {@code null}. */
  public static JsonNode nullNode() {
    return NullNode.getInstance();
  }

  /** A value (map, list, record, POJO) as a tree. */
  public static JsonNode tree(Object value) {
    return MAPPER.valueToTree(value);
  }

  /** A tree or value converted to {@code type}, e.g. a {@code Map<String, Object>}. */
  public static <T> T convert(Object value, TypeReference<T> type) {
    return MAPPER.convertValue(value, type);
  }

  /** The JSON document of a file. */
  public static JsonNode read(Path file) throws IOException {
    try (InputStream in = Files.newInputStream(file)) {
      return READER.readTree(in);
    }
  }
}

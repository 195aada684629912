package dev.mnemo.json;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectReader;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * Reads a request body as JSON, strictly: valid UTF-8 only (Jackson's own decoder accepts overlong
 * forms such as {@code C0 AF}, which would store a {@code /} nobody sent), no duplicate keys, no
 * trailing garbage, not empty. The one reader of the REST server and the MCP endpoint.
 *
 * <p>Stateless and thread-safe.
 */
public final class StrictJson {
  private static final ObjectReader STRICT = JsonCodec.STRICT_READER;

  private StrictJson() {}

  /** Why a body is not acceptable JSON; the message says where and what, for the caller. */
  public static final class Malformed extends Exception {
    private static final long serialVersionUID = 1L;

    Malformed(String message) {
      super(message, null, false, false);
    }
  }

  /** The body as a JSON tree. */
  public static JsonNode read(byte[] body) throws Malformed {
    if (body == null || body.length == 0)
      throw new Malformed("the request body is empty; expected a JSON object");
    checkUtf8(body);
    try {
      JsonNode n = STRICT.readTree(body);
      if (n == null || n.isMissingNode())
        throw new Malformed("the request body is empty; expected a JSON object");
      return n;
    } catch (JsonProcessingException e) {
      var loc = e.getLocation();
      String where =
          loc == null ? "" : " at line " + loc.getLineNr() + ", column " + loc.getColumnNr();
      String why =
          e.getOriginalMessage()
              .replaceAll("\\s*\\(start marker at \\[Source:[^]]*][^)]*\\)", "")
              .replaceAll("\\s+", " ");
      throw new Malformed("the request body is not valid JSON" + where + ": " + why);
    } catch (IOException e) {
      throw new Malformed("the request body could not be read: " + e.getMessage());
    }
  }

  /**
   * Refuses bytes that are not well-formed UTF-8 (overlong forms, lone surrogates, truncated
   * sequences).
   */
  static void checkUtf8(byte[] body) throws Malformed {
    try {
      StandardCharsets.UTF_8
          .newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(body));
    } catch (CharacterCodingException e) {
      int at = firstBad(body);
      throw new Malformed(
          "the request body is not valid UTF-8"
              + (at >= 0
                  ? " at byte " + at + String.format(Locale.ROOT, " (0x%02X)", body[at] & 0xFF)
                  : "")
              + "; send UTF-8 text");
    }
  }

  private static int firstBad(byte[] b) {
    var dec =
        StandardCharsets.UTF_8
            .newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT)
            .onUnmappableCharacter(CodingErrorAction.REPORT);
    ByteBuffer in = ByteBuffer.wrap(b);
    java.nio.CharBuffer out = java.nio.CharBuffer.allocate(b.length + 1);
    var r = dec.decode(in, out, true);
    return r.isError() ? in.position() : -1;
  }
}

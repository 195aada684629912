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
    // Named before the decoder runs: Jackson would detect and read UTF-16 and UTF-32 by their
    // zero bytes and skip a byte-order mark, so a body in another encoding passed as if UTF-8.
    String other = otherEncoding(body);
    if (other != null)
      throw new Malformed(
          "the request body is "
              + other
              + ", not UTF-8; send UTF-8 text without a byte-order mark");
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

  /**
   * The encoding {@code b} is in when it is recognizably not plain UTF-8 (a byte-order mark of
   * UTF-8, UTF-16 or UTF-32, or the NUL bytes of UTF-16/32 text, which JSON never holds raw), else
   * null.
   */
  static String otherEncoding(byte[] b) {
    int n = b.length;
    if (n >= 4 && b[0] == 0 && b[1] == 0 && (b[2] & 0xFF) == 0xFE && (b[3] & 0xFF) == 0xFF)
      return "UTF-32BE (it starts with a byte-order mark)";
    if (n >= 4 && (b[0] & 0xFF) == 0xFF && (b[1] & 0xFF) == 0xFE && b[2] == 0 && b[3] == 0)
      return "UTF-32LE (it starts with a byte-order mark)";
    if (n >= 3 && (b[0] & 0xFF) == 0xEF && (b[1] & 0xFF) == 0xBB && (b[2] & 0xFF) == 0xBF)
      return "UTF-8 with a byte-order mark (EF BB BF)";
    if (n >= 2 && (b[0] & 0xFF) == 0xFE && (b[1] & 0xFF) == 0xFF)
      return "UTF-16BE (it starts with a byte-order mark)";
    if (n >= 2 && (b[0] & 0xFF) == 0xFF && (b[1] & 0xFF) == 0xFE)
      return "UTF-16LE (it starts with a byte-order mark)";
    for (int i = 0; i < n; i++) {
      if (b[i] != 0) continue;
      boolean even = i % 2 == 0;
      return "UTF-16 or UTF-32 ("
          + (even ? "big" : "little")
          + "-endian by its zero bytes; the first at byte "
          + i
          + ")";
    }
    return null;
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

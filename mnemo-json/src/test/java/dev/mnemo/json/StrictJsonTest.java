package dev.mnemo.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mnemo.InvalidRequestException;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * A body in another encoding than plain UTF-8 is refused naming the encoding (Jackson alone reads
 * UTF-16 and UTF-32 by their zero bytes and skips a byte-order mark); dates a store cannot keep are
 * refused where they are parsed.
 */
class StrictJsonTest {
  private static final String BODY = "{\"owner\":\"o\",\"text\":\"caf\u00e9\"}";

  private static byte[] withBom(byte[] bom, byte[] body) {
    byte[] out = new byte[bom.length + body.length];
    System.arraycopy(bom, 0, out, 0, bom.length);
    System.arraycopy(body, 0, out, bom.length, body.length);
    return out;
  }

  private static String refusal(byte[] body) {
    try {
      StrictJson.read(body);
    } catch (StrictJson.Malformed e) {
      return e.getMessage();
    }
    throw new AssertionError("accepted " + body.length + " bytes");
  }

  @Test
  void plainUtf8_isRead() throws Exception {
    assertThat(StrictJson.read(BODY.getBytes(StandardCharsets.UTF_8)).get("text").asText())
        .isEqualTo("caf\u00e9");
  }

  @Test
  void byteOrderMarks_andUtf16or32_areRefusedNamingTheEncoding() {
    byte[] utf8 = BODY.getBytes(StandardCharsets.UTF_8);
    assertThat(refusal(withBom(new byte[] {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF}, utf8)))
        .contains("UTF-8 with a byte-order mark")
        .contains("not UTF-8");
    assertThat(refusal(BODY.getBytes(StandardCharsets.UTF_16))) // Java writes a BE mark
        .contains("UTF-16BE (it starts with a byte-order mark)");
    assertThat(
            refusal(
                withBom(
                    new byte[] {(byte) 0xFF, (byte) 0xFE},
                    BODY.getBytes(StandardCharsets.UTF_16LE))))
        .contains("UTF-16LE");
    assertThat(refusal(BODY.getBytes(StandardCharsets.UTF_16LE)))
        .contains("UTF-16 or UTF-32 (little-endian");
    assertThat(refusal(BODY.getBytes(StandardCharsets.UTF_16BE)))
        .contains("UTF-16 or UTF-32 (big-endian");
    Charset utf32le = Charset.forName("UTF-32LE");
    assertThat(
            refusal(withBom(new byte[] {(byte) 0xFF, (byte) 0xFE, 0, 0}, BODY.getBytes(utf32le))))
        .contains("UTF-32LE");
    assertThat(refusal(BODY.getBytes(Charset.forName("UTF-32BE")))).contains("UTF-16 or UTF-32");
  }

  @Test
  void invalidUtf8_isRefusedNamingTheByte() {
    assertThat(refusal(new byte[] {'{', '"', (byte) 0xC0, (byte) 0xAF, '"', ':', '1', '}'}))
        .contains("UTF-8");
    assertThat(refusal("{\"a\":\"\u00e9".getBytes(StandardCharsets.ISO_8859_1))).contains("UTF-8");
  }

  @Test
  void instants_outsideWhatAStoreKeeps_areRefusedNamingTheField_whereNoEngineChecksThem() {
    for (String far :
        new String[] {
          "-1000000000-01-01T00:00:00Z", "+1000000000-12-31T23:59:59Z", "-999999999-01-01T00:00:00Z"
        }) {
      assertThatThrownBy(() -> FieldReader.parseInstantInRange("from", far))
          .isInstanceOf(InvalidRequestException.class)
          .satisfies(e -> assertThat(((InvalidRequestException) e).field()).isEqualTo("from"));
    }
    // past what Instant holds: a parse error naming the field, not a DateTimeException (500)
    assertThatThrownBy(() -> FieldReader.parseInstant("at", "+1000000001-01-01T00:00:00Z"))
        .isInstanceOf(InvalidRequestException.class);
    // within Instant: parsed, for the engine to refuse with the record's other violations
    assertThat(FieldReader.parseInstant("at", "-999999999-01-01T00:00:00Z")).isNotNull();
    assertThat(FieldReader.parseInstantInRange("from", "9999-12-31T23:59:59Z"))
        .isEqualTo(Instant.parse("9999-12-31T23:59:59Z"));
    assertThat(FieldReader.parseInstantInRange("from", "0001-01-01"))
        .isEqualTo(Instant.parse("0001-01-01T00:00:00Z"));
  }
}

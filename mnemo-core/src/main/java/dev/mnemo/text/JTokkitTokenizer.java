package dev.mnemo.text;

import com.knuddels.jtokkit.Encodings;
import com.knuddels.jtokkit.api.Encoding;
import com.knuddels.jtokkit.api.EncodingRegistry;
import com.knuddels.jtokkit.api.EncodingType;
import com.knuddels.jtokkit.api.IntArrayList;
import dev.mnemo.InvalidRequestException;
import dev.mnemo.spi.Tokenizer;
import java.util.Arrays;
import java.util.Locale;

/**
 * The default {@link Tokenizer}: OpenAI's BPE encodings through JTokkit, {@code cl100k_base} unless
 * configured otherwise. Thread-safe.
 *
 * <p>Uses JTokkit's lazy registry: the default registry loads every encoding at start-up (~0.9 s
 * measured here), the lazy one only the encoding asked for.
 */
public final class JTokkitTokenizer implements Tokenizer {
  private static final EncodingRegistry REGISTRY = Encodings.newLazyEncodingRegistry();

  private final String name;
  private final Encoding encoding;

  private JTokkitTokenizer(String name, Encoding encoding) {
    this.name = name;
    this.encoding = encoding;
  }

  /** {@code cl100k_base}. */
  public static JTokkitTokenizer cl100k() {
    return of("cl100k_base");
  }

  /**
   * The encoding of that name ({@code cl100k_base}, {@code o200k_base}, {@code p50k_base}, ...).
   */
  public static JTokkitTokenizer of(String encodingName) {
    String n = encodingName == null ? "" : encodingName.trim().toLowerCase(Locale.ROOT);
    for (EncodingType t : EncodingType.values()) {
      if (t.getName().equals(n)) {
        return new JTokkitTokenizer(t.getName(), REGISTRY.getEncoding(t));
      }
    }
    throw new InvalidRequestException(
        "tokenizer",
        encodingName,
        "tokenizer must be one of "
            + Arrays.stream(EncodingType.values()).map(EncodingType::getName).toList()
            + ", was '"
            + encodingName
            + "'");
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public int count(String text) {
    return text == null || text.isEmpty() ? 0 : encoding.countTokensOrdinary(text);
  }

  @Override
  public String truncate(String text, int maxTokens) {
    if (maxTokens <= 0 || text == null || text.isEmpty()) return "";
    IntArrayList tokens = encoding.encodeOrdinary(text);
    if (tokens.size() <= maxTokens) return text;
    IntArrayList head = new IntArrayList(maxTokens);
    for (int i = 0; i < maxTokens; i++) head.add(tokens.get(i));
    String s = encoding.decode(head);
    // A cut inside a multi-byte character decodes to a replacement char; drop it, and re-check
    // the count (decoding and re-encoding is not always the identity at a cut).
    while (!s.isEmpty() && (s.charAt(s.length() - 1) == '\uFFFD' || count(s) > maxTokens)) {
      s = s.substring(0, s.length() - 1);
    }
    return s;
  }
}

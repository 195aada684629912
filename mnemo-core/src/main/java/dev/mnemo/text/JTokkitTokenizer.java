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
 * measured here), the lazy one only the encoding asked for. Loading that one still takes about 100
 * ms (cl100k's 100,000 ranks parsed), so it runs on a background thread from the moment the
 * tokenizer is made, and the first count waits for it: a process that makes the tokenizer first and
 * then loads its model and opens its store (the command line) loads the encoding alongside.
 */
public final class JTokkitTokenizer implements Tokenizer {
  private static final EncodingRegistry REGISTRY = Encodings.newLazyEncodingRegistry();

  private final String name;
  private final java.util.concurrent.CompletableFuture<Encoding> loading;

  private JTokkitTokenizer(String name, EncodingType type) {
    this.name = name;
    this.loading = new java.util.concurrent.CompletableFuture<>();
    // its own daemon thread, not the common pool (one thread on a 2-core machine, which a
    // parallel stream of the caller may be waiting for)
    Thread.ofPlatform()
        .daemon()
        .name("mnemo-tokenizer-load")
        .start(
            () -> {
              try {
                loading.complete(REGISTRY.getEncoding(type));
              } catch (RuntimeException | Error e) {
                loading.completeExceptionally(e);
              }
            });
  }

  /** The encoding, once loaded; a failure to load is thrown here, as it was thrown there. */
  private Encoding encoding() {
    try {
      return loading.join();
    } catch (java.util.concurrent.CompletionException e) {
      if (e.getCause() instanceof RuntimeException r) throw r;
      if (e.getCause() instanceof Error err) throw err;
      throw e;
    }
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
        return new JTokkitTokenizer(t.getName(), t);
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
    return text == null || text.isEmpty() ? 0 : encoding().countTokensOrdinary(text);
  }

  @Override
  public String truncate(String text, int maxTokens) {
    if (maxTokens <= 0 || text == null || text.isEmpty()) return "";
    IntArrayList tokens = encoding().encodeOrdinary(text);
    if (tokens.size() <= maxTokens) return text;
    IntArrayList head = new IntArrayList(maxTokens);
    for (int i = 0; i < maxTokens; i++) head.add(tokens.get(i));
    String s = encoding().decode(head);
    // A cut inside a multi-byte character decodes to a replacement char; drop it, and re-check
    // the count (decoding and re-encoding is not always the identity at a cut).
    while (!s.isEmpty() && (s.charAt(s.length() - 1) == '\uFFFD' || count(s) > maxTokens)) {
      s = s.substring(0, s.length() - 1);
    }
    return s;
  }
}

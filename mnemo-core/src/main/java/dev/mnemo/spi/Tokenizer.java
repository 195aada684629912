package dev.mnemo.spi;

/**
 * Counts tokens the way the target language model does, for the read path's token budget.
 *
 * <p>Contract: thread-safe, deterministic; {@code count("") == 0}.
 */
public interface Tokenizer {

  /** Name of the encoding, e.g. {@code cl100k_base}. */
  String name();

  /** Number of tokens of {@code text}. */
  int count(String text);

  /** The longest prefix of {@code text} of at most {@code maxTokens} tokens. */
  String truncate(String text, int maxTokens);
}

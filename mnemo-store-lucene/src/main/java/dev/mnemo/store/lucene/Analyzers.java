package dev.mnemo.store.lucene;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.CharArraySet;
import org.apache.lucene.analysis.WordlistLoader;
import org.apache.lucene.analysis.en.EnglishAnalyzer;
import org.apache.lucene.analysis.snowball.SnowballFilter;
import org.apache.lucene.util.IOUtils;

/**
 * The text analyzer: Lucene's English analyzer (possessive removal, Porter stemming) with the
 * Snowball English stop list instead of Lucene's short default. Measured on the LoCoMo dev split,
 * turn-level evidence recall@10 rose from 0.582 to 0.626 with the longer list: conversational
 * queries are full of function words ("what did she do") that the short list keeps.
 */
final class Analyzers {
  private Analyzers() {}

  static Analyzer english() {
    try {
      CharArraySet stop =
          WordlistLoader.getSnowballWordSet(
              IOUtils.getDecodingReader(
                  SnowballFilter.class.getResourceAsStream("english_stop.txt"),
                  StandardCharsets.UTF_8));
      return new EnglishAnalyzer(stop);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot load the Snowball English stop list", e);
    }
  }
}

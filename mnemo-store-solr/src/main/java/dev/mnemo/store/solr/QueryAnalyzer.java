package dev.mnemo.store.solr;

import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.CharArraySet;
import org.apache.lucene.analysis.WordlistLoader;
import org.apache.lucene.analysis.en.EnglishAnalyzer;

/**
 * The configset's {@code text_mnemo} analysis on the client: Lucene's English analyzer (standard
 * tokenizer, possessives, lower case, stop words, Porter stemming) with the stop list the configset
 * ships ({@code configset/lang/english_stop.txt}), the chain {@code schema.xml} spells out. The
 * store turns the query text into term clauses and document-frequency counts itself, so a recall
 * needs no analysis request; the schema and this class must change together.
 */
final class QueryAnalyzer {
  private QueryAnalyzer() {}

  /** Thread-safe, shared (Lucene analyzers reuse per-thread token streams). */
  static final Analyzer ENGLISH = english();

  private static Analyzer english() {
    try (InputStream in =
        SolrCollections.class.getResourceAsStream("configset/lang/english_stop.txt")) {
      if (in == null) throw new IllegalStateException("configset stop list missing from the jar");
      CharArraySet stop =
          WordlistLoader.getSnowballWordSet(new InputStreamReader(in, StandardCharsets.UTF_8));
      return new EnglishAnalyzer(stop);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot load the configset's stop list", e);
    }
  }
}

package dev.mnemo.store.lucene;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;
import org.apache.lucene.codecs.KnnVectorsFormat;
import org.apache.lucene.codecs.lucene102.Lucene102HnswBinaryQuantizedVectorsFormat;
import org.apache.lucene.codecs.lucene99.Lucene99HnswScalarQuantizedVectorsFormat;
import org.apache.lucene.codecs.lucene99.Lucene99HnswVectorsFormat;

/**
 * How an index stores the vectors its HNSW graph is built and searched on ({@link
 * LuceneMemoryStore.Layout#partitionVectors}, config key {@code partition_vectors}). Every format
 * keeps the float32 vectors as well: the exact scan, export and the rescoring read those. A
 * quantized format adds a compact copy that the graph is built and searched on; the store then asks
 * the graph for as many neighbours as it would a float32 one ({@link
 * LuceneMemoryStore#GRAPH_REACH}), and at least 6 × k, and rescores all of them with the float32
 * vectors before keeping the best k, so scores and ranks are exact cosines of the records found
 * (which records are found can differ from a float32 graph).
 *
 * <p>The format is recorded by Lucene per segment and field, so an index written with one format
 * opens with any setting: a new setting applies to what is written from then on (a move to an own
 * index, new records, segments merged), and older segments keep theirs until merged.
 */
public enum VectorFormat {
  /** Float32 vectors only (Lucene's {@code Lucene99HnswVectorsFormat}). */
  FLOAT32("float32"),
  /**
   * Plus a 7-bit scalar-quantized copy, one byte per dimension (Lucene's {@code
   * Lucene99HnswScalarQuantizedVectorsFormat}).
   */
  INT7("int7"),
  /**
   * Plus a 1-bit (binary, "BBQ") copy, one bit per dimension (Lucene's {@code
   * Lucene102HnswBinaryQuantizedVectorsFormat}).
   */
  BBQ("bbq");

  /**
   * What {@link LuceneMemoryStore.Layout#DEFAULT} uses for owners' own indexes. Measured on a
   * 200,000-record store with 384-dimension vectors (BENCHMARKS.md, "Quantized vectors in owners'
   * own indexes, and parallel signals"): at 50,000 records per owner {@link #INT7} kept dense
   * recall@50 against exact (0.959 against 0.960) but made {@code candidates()} 1.9× slower at the
   * median, and {@link #BBQ} fell to 0.915 and was 1.6× slower.
   */
  public static final VectorFormat DEFAULT = FLOAT32;

  private final String configName;

  VectorFormat(String configName) {
    this.configName = configName;
  }

  /** The name in configuration ({@code float32}, {@code int7}, {@code bbq}). */
  public String configName() {
    return configName;
  }

  /** The format named {@code name} in configuration, case-insensitive. */
  public static VectorFormat forName(String name) {
    for (VectorFormat f : values()) {
      if (f.configName.equals(name.trim().toLowerCase(Locale.ROOT))) return f;
    }
    throw new IllegalArgumentException(
        "unknown vector format '"
            + name
            + "'; available: "
            + Arrays.stream(values())
                .map(VectorFormat::configName)
                .collect(Collectors.joining(", ")));
  }

  /** A new instance of the Lucene format (Lucene's defaults: 16 connections, beam width 100). */
  KnnVectorsFormat luceneFormat() {
    return switch (this) {
      case FLOAT32 -> new Lucene99HnswVectorsFormat();
      case INT7 -> new Lucene99HnswScalarQuantizedVectorsFormat();
      case BBQ -> new Lucene102HnswBinaryQuantizedVectorsFormat();
    };
  }

  /**
   * Whether a segment's vector field written in the Lucene format named {@code luceneName} (the
   * per-field format recorded in the segment) scores with quantized vectors.
   */
  static boolean quantized(String luceneName) {
    return luceneName != null
        && !luceneName.equals(Lucene99HnswVectorsFormat.class.getSimpleName());
  }
}

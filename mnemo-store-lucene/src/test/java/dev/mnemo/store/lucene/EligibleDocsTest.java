package dev.mnemo.store.lucene;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.Authority;
import dev.mnemo.Category;
import dev.mnemo.ConflictPolicy;
import dev.mnemo.MemoryRecord;
import dev.mnemo.spi.Eligibility;
import dev.mnemo.time.TimeRange;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.NoMergePolicy;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.util.FixedBitSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The cache of open-ended records ({@link EligibleDocs.Cache}) changes only the time eligibility
 * takes: with it, every request gets exactly the documents the pass over each segment finds, for
 * requests at any instants (before, between and after the records' starts), with time-range
 * overlap, scope, categories, metadata and access rules, asked again (from the cache), and after
 * deletions and new segments.
 */
class EligibleDocsTest {
  private static final Instant T0 = Instant.parse("2025-01-01T00:00:00Z");

  @Test
  void withTheCache_everyRequestGetsWhatThePassFinds(@TempDir Path dir) throws IOException {
    Random random = new Random(11);
    TimeColumns.Cache columns = new TimeColumns.Cache();
    EligibleDocs.Cache cache = new EligibleDocs.Cache();
    IndexWriterConfig cfg = new IndexWriterConfig(Analyzers.english());
    cfg.setMergePolicy(NoMergePolicy.INSTANCE); // several segments, kept apart
    try (Directory d = FSDirectory.open(dir);
        IndexWriter w = new IndexWriter(d, cfg)) {
      int n = 0;
      for (int round = 0; round < 4; round++) {
        for (int segment = 0; segment < 2; segment++) {
          for (int i = 0; i < 150; i++) w.addDocument(Schema.checkedDocument(record(random, n++)));
          w.commit();
        }
        for (int i = 0; i < 20; i++)
          w.deleteDocuments(new Term(Schema.ID, "id-" + random.nextInt(n)));
        w.commit();
        try (DirectoryReader reader = DirectoryReader.open(w)) {
          IndexSearcher s = new IndexSearcher(reader);
          for (int q = 0; q < 80; q++) {
            Eligibility e = eligibility(random, q);
            for (int again = 0; again < 2; again++)
              assertAsThePass(s, e, columns, cache, "round " + round + ", request " + q);
          }
          assertThat(cache.size()).isEqualTo(reader.leaves().size());
        }
      }
    }
    // most requests late in the history are answered by copying, segment by segment
    assertThat(cache.copies.sum()).as("segments copied from the cache").isGreaterThan(200);
  }

  /**
   * A segment where most records are superseded or expired is not split (its cache entry would be
   * most of the segment): requests take the pass, and get the same documents.
   */
  @Test
  void aSegmentMostlyClosed_isAnsweredByThePass(@TempDir Path dir) throws IOException {
    Random random = new Random(12);
    TimeColumns.Cache columns = new TimeColumns.Cache();
    EligibleDocs.Cache cache = new EligibleDocs.Cache();
    try (Directory d = FSDirectory.open(dir);
        IndexWriter w = new IndexWriter(d, new IndexWriterConfig(Analyzers.english()))) {
      for (int i = 0; i < 300; i++) {
        MemoryRecord r = record(random, i);
        if (i % 3 != 0) r = r.withExpiredAt(r.recordedAt().plus(Duration.ofDays(1)));
        w.addDocument(Schema.checkedDocument(r));
      }
      w.commit();
      try (DirectoryReader reader = DirectoryReader.open(w)) {
        IndexSearcher s = new IndexSearcher(reader);
        for (int q = 0; q < 40; q++) {
          // the owner's records now, late or early in the history: the rules every document passes
          Instant at = T0.plus(Duration.ofDays(q % 2 == 0 ? 700 : random.nextInt(600)));
          Eligibility e = Eligibility.current("owner", at);
          assertAsThePass(s, e, columns, cache, "request " + q);
        }
      }
    }
    assertThat(cache.copies.sum()).isZero();
  }

  /**
   * With {@code cache}, {@code e} gets the documents (and count) the pass over each segment finds.
   */
  private static void assertAsThePass(
      IndexSearcher s,
      Eligibility e,
      TimeColumns.Cache columns,
      EligibleDocs.Cache cache,
      String what)
      throws IOException {
    EligibleDocs pass = EligibleDocs.compute(s, e, columns, true, null);
    EligibleDocs cached = EligibleDocs.compute(s, e, columns, true, cache);
    assertThat(cached.count()).as("%s: %s", what, e).isEqualTo(pass.count());
    for (int ord = 0; ord < s.getIndexReader().leaves().size(); ord++) {
      assertThat(bits(cached.segment(ord)))
          .as("%s, segment %d: %s", what, ord, e)
          .isEqualTo(bits(pass.segment(ord)));
    }
  }

  private static List<Integer> bits(FixedBitSet b) {
    List<Integer> out = new ArrayList<>();
    if (b == null) return out;
    for (int i = 0; i < b.length(); i++) if (b.get(i)) out.add(i);
    return out;
  }

  private static Eligibility eligibility(Random r, int q) {
    // a third of the requests after every record's start, the rest anywhere in the history
    Instant at =
        q % 3 == 0
            ? T0.plus(Duration.ofDays(700 + r.nextInt(100)))
            : T0.plus(Duration.ofDays(r.nextInt(600)));
    return switch (q % 8) {
      case 0, 1 -> Eligibility.current("owner", at);
      case 2 -> Eligibility.allOf("owner");
      case 3 -> new Eligibility("owner", "project-1", Set.of(), Map.of(), at, at, null);
      case 4 ->
          new Eligibility(
              "owner",
              null,
              Set.of(Category.EPISODIC, Category.SEMANTIC),
              Map.of("channel", "chat"),
              at,
              at,
              null);
      case 5 ->
          new Eligibility(
              "owner",
              null,
              Set.of(),
              Map.of(),
              at,
              at,
              new TimeRange(at.minus(Duration.ofDays(40)), at, "test"));
      case 6 ->
          new Eligibility(
              "owner",
              null,
              Set.of(),
              Map.of(),
              at,
              at,
              null,
              Set.of(r.nextBoolean() ? "hr" : "x"));
      default -> new Eligibility("owner", null, Set.of(), Map.of(), at, null, null);
    };
  }

  /**
   * One owner's record with varied times: most open-ended, some expired or with a closed valid
   * interval, some starting (valid or recorded) late in the history.
   */
  private static MemoryRecord record(Random r, int n) {
    Instant recorded = T0.plus(Duration.ofDays(r.nextInt(500)));
    Instant expired = r.nextInt(8) == 0 ? recorded.plus(Duration.ofDays(1 + r.nextInt(60))) : null;
    Instant validFrom =
        r.nextInt(6) == 0 ? recorded.plus(Duration.ofDays(r.nextInt(120))) : recorded;
    Instant validTo = r.nextInt(8) == 0 ? validFrom.plus(Duration.ofDays(1 + r.nextInt(90))) : null;
    return new MemoryRecord(
        "id-" + n,
        "owner",
        r.nextInt(4) == 0 ? "project-" + r.nextInt(2) : null,
        Category.values()[r.nextInt(Category.values().length)],
        "note " + n,
        null,
        List.of("turn-" + n),
        null,
        -1,
        recorded,
        expired,
        validFrom,
        validTo,
        null,
        0,
        null,
        0.5,
        Authority.EXPLICIT,
        ConflictPolicy.SUPERSEDE,
        List.of(),
        0,
        null,
        null,
        null,
        r.nextInt(3) == 0 ? Map.of("channel", r.nextBoolean() ? "chat" : "email") : Map.of(),
        r.nextInt(5) == 0 ? List.of("hr") : List.of());
  }
}

package dev.mnemo.store.lucene;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.Mnemo;
import dev.mnemo.NewMemory;
import dev.mnemo.RecallLogOptions;
import dev.mnemo.RecallLogQuery;
import dev.mnemo.RecallRequest;
import dev.mnemo.testkit.HashingEmbedder;
import dev.mnemo.testkit.MutableClock;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The retrieval log's journal: a process that only recalls appends its entries to the journal
 * (synced) without opening the log's index; the next one that reads moves them into the index.
 */
class RecallLogJournalTest {
  @TempDir Path dir;
  MutableClock clock = MutableClock.at("2026-06-01T00:00:00Z");

  private Mnemo open(RecallLogOptions options) {
    return Mnemo.builder()
        .store(LuceneMemoryStore.open(dir))
        .embedder(new HashingEmbedder())
        .clock(clock)
        .recallLogOptions(options)
        .build();
  }

  /** One process: recalls the queries, waits for the log, closes without reading it. */
  private void recallAndClose(RecallLogOptions options, String... queries) {
    try (Mnemo m = open(options)) {
      for (String q : queries) m.recall(RecallRequest.builder("maya", q).build());
      assertThat(m.diagnostics().orElseThrow().flushRecallLog(Duration.ofSeconds(10))).isTrue();
    }
  }

  private Path log() {
    return dir.resolve(LuceneMemoryStore.RECALLS_DIR);
  }

  private Path journal() {
    return log().resolve(LazyRecallLog.JOURNAL);
  }

  private boolean indexExists() throws IOException {
    if (!Files.isDirectory(log())) return false;
    try (Stream<Path> files = Files.list(log())) {
      return files.anyMatch(f -> f.getFileName().toString().startsWith("segments_"));
    }
  }

  private java.util.List<String> loggedQueries() {
    try (Mnemo m = open(RecallLogOptions.DEFAULT)) {
      return m.retrievalLog().orElseThrow().recalls(RecallLogQuery.all(100)).stream()
          .map(e -> e.request().query())
          .toList();
    }
  }

  @Test
  void recallsGoToTheJournal_andTheFirstReadMovesThemIntoTheIndex() throws IOException {
    try (Mnemo m = open(RecallLogOptions.DEFAULT)) {
      m.remember(NewMemory.builder("maya", "Maya's cat is called Pixel.").build());
    }
    recallAndClose(RecallLogOptions.DEFAULT, "cat?", "editor?");
    assertThat(Files.readAllLines(journal())).hasSize(2);
    assertThat(indexExists()).as("retention had nothing to delete: no index opened").isFalse();

    assertThat(loggedQueries()).containsExactly("editor?", "cat?");
    assertThat(journal()).doesNotExist();
    assertThat(indexExists()).isTrue();

    // the index says its oldest entry: a later process's retention still opens nothing
    clock.advance(Duration.ofMinutes(1));
    recallAndClose(RecallLogOptions.DEFAULT, "fish?");
    assertThat(Files.readAllLines(journal())).hasSize(1);
    assertThat(loggedQueries()).containsExactly("fish?", "editor?", "cat?");
  }

  @Test
  void aTornLastLine_isCutOff_andTheEntriesAroundItKept() throws IOException {
    recallAndClose(RecallLogOptions.DEFAULT, "cat?");
    // a crash in the middle of an append: the line's sync never returned, nothing acknowledged
    Files.writeString(journal(), "{\"id\":\"01", StandardCharsets.UTF_8, StandardOpenOption.APPEND);
    clock.advance(Duration.ofSeconds(1));
    recallAndClose(RecallLogOptions.DEFAULT, "editor?");
    assertThat(Files.readAllLines(journal())).hasSize(2);
    assertThat(loggedQueries()).containsExactly("editor?", "cat?");
  }

  @Test
  void aDamagedLine_isSkipped_theOthersKept() throws IOException {
    recallAndClose(RecallLogOptions.DEFAULT, "cat?");
    Files.writeString(journal(), "not json\n", StandardCharsets.UTF_8, StandardOpenOption.APPEND);
    clock.advance(Duration.ofSeconds(1));
    recallAndClose(RecallLogOptions.DEFAULT, "editor?");
    assertThat(loggedQueries()).containsExactly("editor?", "cat?");
  }

  @Test
  void retention_deletesOldEntries_inTheJournal_andInTheIndex() {
    RecallLogOptions week = new RecallLogOptions(true, 1.0, Duration.ofDays(7), 100);
    recallAndClose(week, "journaled?");
    clock.advance(Duration.ofDays(8));
    recallAndClose(week, "fresh?");
    assertThat(loggedQueries()).containsExactly("fresh?");

    clock.advance(Duration.ofDays(8)); // "fresh?" is in the index now, and old
    recallAndClose(week, "newest?");
    assertThat(loggedQueries()).containsExactly("newest?");
  }
}

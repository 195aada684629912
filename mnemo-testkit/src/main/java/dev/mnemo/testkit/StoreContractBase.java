package dev.mnemo.testkit;

import dev.mnemo.MemoryRecord;
import dev.mnemo.Mnemo;
import dev.mnemo.RecallRequest;
import dev.mnemo.RecallResult;
import dev.mnemo.TemporalMode;
import dev.mnemo.spi.CandidateSet;
import dev.mnemo.spi.MemoryStore;
import dev.mnemo.text.JTokkitTokenizer;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/**
 * The fixture every part of {@link MemoryStoreContract} shares: a store opened in a temporary
 * folder under an engine on a deterministic embedder and a clock the tests move, and the helpers
 * the parts call. Package-private: a store's test extends {@link MemoryStoreContract}, which
 * declares nothing of its own; the parts are a chain of classes (as Lucene's {@code
 * Base*FormatTestCase} hierarchy is) so that each theme is a file a reader can open, while a store
 * still has one class to extend and every part runs for it.
 */
abstract class StoreContractBase {
  /** Opens (or reopens) a store whose data lives in {@code dir}. */
  protected abstract MemoryStore openStore(Path dir);

  /** Whether data written before {@code close()} is there after {@link #openStore} again. */
  protected boolean reopenable() {
    return true;
  }

  /**
   * Whether the store returns versions with its candidates ({@link CandidateSet#versions}); false
   * by default.
   */
  protected boolean versionsWithCandidates() {
    return false;
  }

  @TempDir protected Path dir;
  protected MutableClock clock;
  protected Mnemo mnemo;

  @BeforeEach
  void openEngine() {
    clock = MutableClock.at("2026-07-01T00:00:00Z");
    mnemo = engine(openStore(dir));
  }

  @AfterEach
  void closeEngine() {
    if (mnemo != null) mnemo.close();
  }

  protected Mnemo engine(MemoryStore store) {
    return Mnemo.builder()
        .store(store)
        .embedder(new HashingEmbedder())
        .tokenizer(JTokkitTokenizer.cl100k())
        .clock(clock)
        .build();
  }

  protected static Instant t(String iso) {
    return iso.length() == 10 ? Instant.parse(iso + "T00:00:00Z") : Instant.parse(iso);
  }

  /**
   * A recall under a temporal mode with the fetch gate off: these tests are about eligibility
   * (which versions may be selected at all), which the gate must never widen and which they test
   * alone.
   */
  protected RecallResult recall(String owner, String query, TemporalMode mode) {
    return mnemo.recall(
        RecallRequest.builder(owner, query)
            .mode(mode)
            .askedAt(t("2026-07-01"))
            .minRelevance(0.0)
            .explain(true)
            .build());
  }

  protected static List<String> sources(RecallResult r) {
    return r.sourceIds();
  }

  protected MemoryStore store() {
    return mnemo.diagnostics().orElseThrow().store();
  }

  static Set<String> ids(List<MemoryRecord> records) {
    return records.stream().map(MemoryRecord::id).collect(Collectors.toCollection(TreeSet::new));
  }
}

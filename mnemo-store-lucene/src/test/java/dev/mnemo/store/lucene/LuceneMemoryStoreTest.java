package dev.mnemo.store.lucene;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.Authority;
import dev.mnemo.Category;
import dev.mnemo.ConflictPolicy;
import dev.mnemo.MemoryRecord;
import dev.mnemo.spi.MemoryStore;
import dev.mnemo.testkit.MemoryStoreContract;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LuceneMemoryStoreTest extends MemoryStoreContract {
  @Override
  protected boolean versionsWithCandidates() {
    return true;
  }

  @Override
  protected MemoryStore openStore(Path dir) {
    return LuceneMemoryStore.open(dir.resolve("index"));
  }

  @Test
  void export_ofMorePagesThanOne_deliversEveryRecordOnce_inRecordedOrder() {
    int n = RecordExport.EXPORT_PAGE * 2 + 501; // two full pages and a part, per owner and in all
    List<MemoryRecord> records = new ArrayList<>();
    for (int i = n - 1; i >= 0; i--)
      records.add(record(i, i % 2 == 0 ? "a" : "b")); // written newest first
    for (int from = 0; from < n; from += 700)
      store().apply(records.subList(from, Math.min(n, from + 700)), List.of());

    List<MemoryRecord> all = new ArrayList<>();
    store().export(null, all::add);
    assertThat(all).hasSize(n);
    assertThat(all.stream().map(MemoryRecord::id).distinct().count()).isEqualTo(n);
    assertThat(all).isSortedAccordingTo(Comparator.comparing(MemoryRecord::recordedAt));

    List<MemoryRecord> a = new ArrayList<>();
    store().export("a", a::add);
    assertThat(a).hasSize((n + 1) / 2).allSatisfy(r -> assertThat(r.owner()).isEqualTo("a"));
    assertThat(a).isSortedAccordingTo(Comparator.comparing(MemoryRecord::recordedAt));
  }

  private static MemoryRecord record(int i, String owner) {
    Instant t = Instant.parse("2026-01-01T00:00:00Z").plusSeconds(i);
    return new MemoryRecord(
        "r" + i,
        owner,
        null,
        Category.SEMANTIC,
        "fact number " + i + " about gardens",
        null,
        List.of(),
        null,
        -1,
        t,
        null,
        t,
        null,
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
        Map.of(),
        List.of());
  }
}

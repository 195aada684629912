package dev.mnemo.write;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.Authority;
import dev.mnemo.Category;
import dev.mnemo.ConflictPolicy;
import dev.mnemo.MemoryRecord;
import dev.mnemo.NewMemory;
import dev.mnemo.spi.Consolidator.Action;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RuleConsolidatorTest {
  private final RuleConsolidator rules = new RuleConsolidator();
  private static final Instant T = Instant.parse("2026-04-01T10:00:00Z");

  static MemoryRecord record(String id, String text, String factKey) {
    return new MemoryRecord(
        id,
        "u",
        null,
        Category.SEMANTIC,
        text,
        null,
        List.of("s-" + id),
        null,
        -1,
        T,
        null,
        T,
        null,
        factKey,
        factKey == null ? 0 : 1,
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
        java.util.List.of());
  }

  private static NewMemory candidate(String text, String factKey, Instant at) {
    NewMemory.Builder b = NewMemory.builder("u", text).source("new").recordedAt(at).validFrom(at);
    if (factKey != null) b.factKey(factKey);
    return b.build();
  }

  @Test
  void exactAndNearDuplicates_areNoop() {
    assertThat(
            rules
                .decide(
                    candidate("Maya loves hiking!", null, T),
                    List.of(record("a", "maya loves hiking", null)))
                .action())
        .isEqualTo(Action.NOOP);
    assertThat(
            rules
                .decide(
                    candidate("Maya really loves hiking in the Alps", null, T),
                    List.of(record("a", "Maya loves hiking in the Alps", null)))
                .target())
        .isEqualTo("a");
  }

  @Test
  void sameFactKey_isAnUpdate_differentFactsAreAdded() {
    assertThat(
            rules
                .decide(
                    candidate("Maya lives in Porto", "residence", T.plusSeconds(60)),
                    List.of(record("a", "Maya lives in Lisbon", "residence")))
                .action())
        .isEqualTo(Action.UPDATE);
    assertThat(
            rules
                .decide(
                    candidate("Maya bought a bicycle", null, T),
                    List.of(record("a", "Maya lives in Lisbon", null)))
                .action())
        .isEqualTo(Action.ADD);
    assertThat(rules.decide(candidate("anything", null, T), List.of()).action())
        .isEqualTo(Action.ADD);
  }

  @Test
  void aNegation_saidLater_isAnUpdate_ofUnclearOrder_aConflict() {
    MemoryRecord likes = record("a", "Maya eats meat on weekends", null);
    assertThat(
            rules
                .decide(
                    candidate("Maya doesn't eat meat on weekends", null, T.plusSeconds(3600)),
                    List.of(likes))
                .action())
        .isEqualTo(Action.UPDATE);
    assertThat(
            rules
                .decide(candidate("Maya doesn't eat meat on weekends", null, T), List.of(likes))
                .action())
        .isEqualTo(Action.CONFLICT);
    assertThat(
            rules
                .decide(
                    candidate("Maya never eats meat on weekends", null, T.minusSeconds(3600)),
                    List.of(likes))
                .action())
        .isEqualTo(Action.CONFLICT);
  }

  @Test
  void expiredRecordsAndOtherOwners_areIgnored() {
    MemoryRecord expired = record("a", "Maya loves hiking", null).withExpiredAt(T);
    assertThat(rules.decide(candidate("Maya loves hiking", null, T), List.of(expired)).action())
        .isEqualTo(Action.ADD);
  }
}

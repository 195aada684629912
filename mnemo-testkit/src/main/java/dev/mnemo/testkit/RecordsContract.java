package dev.mnemo.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mnemo.Category;
import dev.mnemo.InvalidRequestException;
import dev.mnemo.MemoryRecord;
import dev.mnemo.NewMemory;
import dev.mnemo.RecallRequest;
import dev.mnemo.RecallResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The records part of {@link MemoryStoreContract}: round trips of every field, owner isolation,
 * forgetting, usage marks, deletes, bad input, restarts and determinism. Apart because it is what a
 * store must do before anything else is worth testing.
 */
abstract class RecordsContract extends RecallContract {
  @Test
  void remember_thenGet_roundTripsEveryField() {
    MemoryRecord written =
        mnemo.remember(
            NewMemory.builder("u1", "Maya moved to Lisbon with her partner Joao.")
                .scope("home")
                .category(Category.EPISODIC)
                .context("session 3, May 2026")
                .sources(List.of("turn-7", "doc-2"))
                .episode("s3", 7)
                .recordedAt(t("2026-05-02T10:15:30.123Z"))
                .validFrom(t("2026-05-01"))
                .validTo(t("2027-05-01"))
                .factKey("home_city")
                .importance(0.8)
                .authority(dev.mnemo.Authority.VERIFIED)
                .entities(List.of("Lisbon Portugal"))
                .metadata(Map.of("lang", "en"))
                .access(List.of("team:family", "person:maya", "team:family"))
                .build());

    MemoryRecord read = mnemo.get("u1", written.id()).orElseThrow();

    assertThat(read).isEqualTo(written);
    assertThat(read.entities()).contains("maya", "lisbon", "joao", "lisbon portugal");
    assertThat(read.embedding()).hasSize(64);
    assertThat(read.embeddingModel()).isEqualTo("hashing-64");
    assertThat(read.version()).isEqualTo(1);
    assertThat(read.recordedAt()).isEqualTo(t("2026-05-02T10:15:30.123Z"));
    assertThat(read.access()).containsExactly("person:maya", "team:family");
  }

  @Test
  void get_anotherOwnersId_isNotFound() {
    MemoryRecord r =
        mnemo.remember(NewMemory.builder("u1", "Alex is allergic to peanuts.").build());
    assertThat(mnemo.get("u2", r.id())).isEmpty();
  }

  @Test
  void recall_otherOwnersRecord_isNeverACandidate() {
    mnemo.remember(
        NewMemory.builder("u-1001", "Alex is allergic to peanuts.")
            .factKey("allergy")
            .source("a1")
            .recordedAt(t("2026-02-10"))
            .build());
    mnemo.remember(
        NewMemory.builder("u-2002", "Alex is allergic to shellfish.")
            .factKey("allergy")
            .source("b1")
            .recordedAt(t("2026-02-11"))
            .build());

    RecallResult r =
        mnemo.recall(
            RecallRequest.builder("u-2002", "Alex is allergic to peanuts.")
                .threshold(0)
                .relativeThreshold(0)
                .minRelevance(0.0)
                .askedAt(t("2026-03-01"))
                .explain(true)
                .build());

    assertThat(sources(r)).containsExactly("b1");
    assertThat(r.trace().candidates())
        .allSatisfy(c -> assertThat(c.sources()).containsExactly("b1"));
  }

  @Test
  void forgetOwner_removesEveryVersion_andOnlyThatOwner() {
    mnemo.remember(
        NewMemory.builder("u1", "Lives in Porto.")
            .factKey("city")
            .recordedAt(t("2026-01-01"))
            .build());
    mnemo.remember(
        NewMemory.builder("u1", "Lives in Lisbon.")
            .factKey("city")
            .recordedAt(t("2026-02-01"))
            .build());
    MemoryRecord other =
        mnemo.remember(NewMemory.builder("u2", "Lives in Lisbon.").factKey("city").build());

    assertThat(mnemo.forget("u1")).isEqualTo(3);

    assertThat(mnemo.history("u1", "city")).isEmpty();
    assertThat(mnemo.get("u2", other.id())).isPresent();
  }

  @Test
  void forgetOneRecord_removesItWithItsClippedCopies() {
    MemoryRecord first =
        mnemo.remember(
            NewMemory.builder("u", "Lives in Porto.")
                .factKey("city")
                .recordedAt(t("2026-01-01"))
                .build());
    mnemo.remember(
        NewMemory.builder("u", "Lives in Lisbon.")
            .factKey("city")
            .recordedAt(t("2026-02-01"))
            .build());

    assertThat(mnemo.forget("u", first.id())).isEqualTo(2);
    assertThat(mnemo.history("u", "city"))
        .extracting(MemoryRecord::text)
        .containsExactly("Lives in Lisbon.");
    assertThat(mnemo.forget("someone-else", first.id())).isZero();
  }

  @Test
  void markUsed_countsUses_withoutANewVersion() {
    MemoryRecord r =
        mnemo.remember(NewMemory.builder("u", "Prefers aisle seats.").factKey("seat").build());
    assertThat(mnemo.markUsed("u", List.of(r.id(), r.id(), "unknown"))).isEqualTo(1);
    mnemo.markUsed("u", List.of(r.id()));
    assertThat(mnemo.markUsed("other-owner", List.of(r.id()))).isZero();

    MemoryRecord after = mnemo.get("u", r.id()).orElseThrow();
    assertThat(after.accessCount()).isEqualTo(2);
    assertThat(after.lastAccessedAt()).isEqualTo(clock.instant());
    assertThat(mnemo.history("u", "seat")).hasSize(1);
  }

  @Test
  void badInput_isRefusedWithFieldAndValue_andNothingIsWritten() {
    List<NewMemory> batch =
        List.of(
            NewMemory.builder("u", "A fine memory.").build(),
            NewMemory.builder("u", "").build(),
            NewMemory.builder("u", "x".repeat(8_001)).build(),
            NewMemory.builder("u", "Bad interval.")
                .validFrom(t("2026-05-01"))
                .validTo(t("2026-04-01"))
                .build(),
            NewMemory.builder("u", "Too important.").importance(1.5).build());

    assertThatThrownBy(() -> mnemo.rememberAll(batch))
        .isInstanceOfSatisfying(
            InvalidRequestException.class,
            e ->
                assertThat(e.violations())
                    .extracting(InvalidRequestException.Violation::field)
                    .containsExactly(
                        "memories[1].text",
                        "memories[2].text",
                        "memories[3].valid_to",
                        "memories[4].importance"))
        .hasMessageContaining("importance must be between 0 and 1, was 1.5")
        .hasMessageContaining("text must be at most 8000 characters, was 8001");
    assertThat(
            mnemo
                .recall(
                    RecallRequest.builder("u", "fine memory")
                        .threshold(0)
                        .relativeThreshold(0)
                        .minRelevance(0.0)
                        .build())
                .selected())
        .isEmpty();

    assertThatThrownBy(() -> RecallRequest.builder("u", "q").k(0).build())
        .hasMessage("k must be between 1 and 1000, was 0");
    assertThatThrownBy(() -> RecallRequest.builder("u", "q").budgetTokens(-1).build())
        .hasMessage("budget_tokens must be between 0 and 1000000, was -1");
    assertThatThrownBy(() -> Category.fromCode("category", "gossip"))
        .hasMessage("category must be one of [episodic, semantic, procedural, task], was 'gossip'");
  }

  @Test
  void recordedAtBeforeTheLatestVersion_isRefused() {
    mnemo.remember(NewMemory.builder("u", "v1").factKey("k").recordedAt(t("2026-03-01")).build());
    assertThatThrownBy(
            () ->
                mnemo.remember(
                    NewMemory.builder("u", "v0").factKey("k").recordedAt(t("2026-02-01")).build()))
        .isInstanceOf(InvalidRequestException.class)
        .hasMessageContaining("recorded_at must not precede");
    assertThat(mnemo.history("u", "k")).hasSize(1);
  }

  @Test
  void sameRequestSameStoreSameClock_givesTheSameResultAndTrace() {
    for (int i = 0; i < 12; i++) {
      mnemo.remember(
          NewMemory.builder("u", "Fact " + i + ": the project uses tool " + (i % 3))
              .source("f" + i)
              .recordedAt(t("2026-01-01").plusSeconds(86_400L * i))
              .build());
    }
    RecallRequest q =
        RecallRequest.builder("u", "which tool does the project use")
            .threshold(0)
            .relativeThreshold(0)
            .minRelevance(0.0)
            .k(4)
            .explain(true)
            .askedAt(t("2026-06-01"))
            .build();
    RecallResult a = mnemo.recall(q);
    RecallResult b = mnemo.recall(q);
    assertThat(b.ids()).isEqualTo(a.ids());
    assertThat(b.rendered()).isEqualTo(a.rendered());
    assertThat(b.trace().withoutTimings()).isEqualTo(a.trace().withoutTimings());
  }

  @Test
  void restart_keepsEverythingAcknowledged() {
    if (!reopenable()) return;
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      ids.add(
          mnemo
              .remember(
                  NewMemory.builder("u", "Memory " + i).factKey(i % 2 == 0 ? "even" : null).build())
              .id());
    }
    mnemo.close();
    mnemo = engine(openStore(dir));
    for (String id : ids) assertThat(mnemo.get("u", id)).isPresent();
    // all written at the same instant with the same valid start: each replaces the last whole
    assertThat(mnemo.history("u", "even")).hasSize(10);
  }

  @Test
  void applyDeletes_removeOnlyTheNamedRecords_andCountAndExportSeeIt() {
    MemoryRecord keep = mnemo.remember(NewMemory.builder("u", "keep me").build());
    MemoryRecord drop = mnemo.remember(NewMemory.builder("u", "drop me").build());
    MemoryRecord other = mnemo.remember(NewMemory.builder("v", "someone else's").build());
    long before = store().count();

    store().apply(List.of(), List.of(drop.id()));

    assertThat(store().count()).isEqualTo(before - 1);
    assertThat(store().get("u", drop.id())).isEmpty();
    assertThat(store().get("u", keep.id())).contains(keep);
    List<MemoryRecord> exported = new ArrayList<>();
    store().export("u", exported::add);
    assertThat(exported).containsExactly(keep);
    List<MemoryRecord> everyone = new ArrayList<>();
    store().export(null, everyone::add);
    assertThat(everyone).containsExactlyInAnyOrder(keep, other);
  }
}

package dev.mnemo.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mnemo.Category;
import dev.mnemo.InvalidRequestException;
import dev.mnemo.MemoryRecord;
import dev.mnemo.Mnemo;
import dev.mnemo.NewMemory;
import dev.mnemo.RecallRequest;
import dev.mnemo.RecallResult;
import dev.mnemo.spi.Candidate;
import dev.mnemo.spi.CandidateQuery;
import dev.mnemo.spi.CandidateSet;
import dev.mnemo.spi.Eligibility;
import dev.mnemo.spi.MemoryStore;
import dev.mnemo.time.TimeRange;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The eligibility part of {@link MemoryStoreContract}: scopes, access labels, hard filters and
 * every search of the store returning exactly what {@link Eligibility#admits} admits. Apart because
 * eligibility is enforced inside each store's own queries, the place a store can leak another
 * caller's records.
 */
abstract class EligibilityContract extends VersionsContract {
  @Test
  void scope_query_seesItsScopeAndUnscopedOnly() {
    mnemo.remember(
        NewMemory.builder("ops", "To roll back billing, redeploy the previous tag.")
            .scope("billing")
            .category(Category.PROCEDURAL)
            .source("p1")
            .build());
    mnemo.remember(
        NewMemory.builder("ops", "To roll back search, flip the traffic switch.")
            .scope("search")
            .category(Category.PROCEDURAL)
            .source("p2")
            .build());
    mnemo.remember(
        NewMemory.builder("ops", "Always announce a roll back in the ops channel.")
            .source("p3")
            .build());

    RecallResult r =
        mnemo.recall(
            RecallRequest.builder("ops", "how do I roll back")
                .scope("search")
                .threshold(0)
                .relativeThreshold(0)
                .minRelevance(0.0)
                .build());

    assertThat(sources(r)).containsExactlyInAnyOrder("p2", "p3");
  }

  /**
   * Access inside an owner: a record with labels is a candidate only for a caller holding one of
   * them; a record without labels is every caller's; a caller without principals sees only those.
   */
  @Test
  void accessLabels_aRecordIsEligibleOnlyForACallerHoldingOneOfItsLabels() {
    mnemo.remember(
        NewMemory.builder("acme", "The payroll run is on the 25th.")
            .source("pay")
            .access(List.of("team:payments", "role:cfo"))
            .build());
    mnemo.remember(
        NewMemory.builder("acme", "The payroll bank is Banco Azul.")
            .source("bank")
            .access(List.of("person:ana"))
            .build());
    mnemo.remember(
        NewMemory.builder("acme", "Payroll questions go to the finance desk.")
            .source("desk")
            .build());

    java.util.function.Function<Set<String>, RecallResult> as =
        principals ->
            mnemo.recall(
                RecallRequest.builder("acme", "payroll")
                    .principals(principals)
                    .threshold(0)
                    .relativeThreshold(0)
                    .minRelevance(0.0)
                    .explain(true)
                    .build());

    assertThat(sources(as.apply(Set.of()))).containsExactly("desk");
    assertThat(sources(as.apply(Set.of("team:payments")))).containsExactlyInAnyOrder("pay", "desk");
    assertThat(sources(as.apply(Set.of("role:cfo", "person:ana"))))
        .containsExactlyInAnyOrder("pay", "bank", "desk");
    assertThat(sources(as.apply(Set.of("team:sales", "person:bo")))).containsExactly("desk");
    // Not a candidate at all (never scored, never in the trace), and the label is matched exactly.
    RecallResult other = as.apply(Set.of("team:Payments"));
    assertThat(other.trace().candidates())
        .allSatisfy(c -> assertThat(c.sources()).containsExactly("desk"));
    assertThat(other.rendered()).doesNotContain("25th").doesNotContain("Banco");
  }

  /**
   * A version under other access labels is another audience's: it neither supersedes nor is
   * superseded by this one, so each audience keeps a current answer.
   */
  @Test
  void accessLabels_versionsOfAFactUnderOtherLabels_areIndependent() {
    mnemo.remember(
        NewMemory.builder("acme", "The launch is in March.")
            .factKey("launch")
            .source("public")
            .recordedAt(t("2026-02-01"))
            .build());
    MemoryRecord internal =
        mnemo.remember(
            NewMemory.builder("acme", "The launch slipped to May.")
                .factKey("launch")
                .source("internal")
                .access(List.of("team:launch"))
                .recordedAt(t("2026-03-01"))
                .build());

    assertThat(internal.version()).isEqualTo(2);
    assertThat(mnemo.history("acme", "launch")).allSatisfy(r -> assertThat(r.expiredAt()).isNull());
    RecallRequest.Builder q =
        RecallRequest.builder("acme", "when is the launch")
            .askedAt(t("2026-04-01"))
            .threshold(0)
            .relativeThreshold(0)
            .minRelevance(0.0);
    assertThat(sources(mnemo.recall(q.build()))).containsExactly("public");
    assertThat(sources(mnemo.recall(q.principals(Set.of("team:launch")).build())))
        .containsExactlyInAnyOrder("public", "internal");
  }

  @Test
  void accessLabels_malformed_areRefusedNamingTheField_andNothingIsWritten() {
    assertThatThrownBy(
            () ->
                mnemo.remember(
                    NewMemory.builder("acme", "Secret plan.")
                        .access(List.of("team:ok", "payments", "group:x", "role: "))
                        .build()))
        .isInstanceOf(InvalidRequestException.class)
        .satisfies(
            e ->
                assertThat(((InvalidRequestException) e).violations())
                    .extracting(v -> v.field())
                    .containsExactly("access[1]", "access[2]", "access[3]"));
    assertThat(store().latest(Eligibility.allOf("acme"), 10)).isEmpty();
    assertThatThrownBy(
            () -> RecallRequest.builder("acme", "plan").principals(Set.of("admin")).build())
        .isInstanceOf(InvalidRequestException.class)
        .hasMessageContaining("principals[0]");
  }

  /**
   * A summary shows no caller what they could not see line by line: it carries the labels all its
   * labelled sources share.
   */
  @Test
  void summary_carriesTheAccessLabelsItsSourcesShare() {
    mnemo.remember(
        NewMemory.builder("acme", "The launch slipped to May.")
            .episode("w1", 1)
            .access(List.of("team:launch", "role:cfo"))
            .build());
    mnemo.remember(
        NewMemory.builder("acme", "The launch budget is 2M.")
            .episode("w1", 2)
            .access(List.of("team:launch"))
            .build());
    mnemo.remember(
        NewMemory.builder("acme", "The launch party is at the office.").episode("w1", 3).build());
    assertThat(mnemo.summarize("acme", "w1").orElseThrow().access()).containsExactly("team:launch");

    mnemo.remember(
        NewMemory.builder("acme", "Sales target is 10M.")
            .episode("w2", 1)
            .access(List.of("team:sales"))
            .build());
    mnemo.remember(
        NewMemory.builder("acme", "Hiring is frozen.")
            .episode("w2", 2)
            .access(List.of("team:hr"))
            .build());
    mnemo.remember(NewMemory.builder("acme", "Friday is a holiday.").episode("w2", 3).build());
    MemoryRecord w2 = mnemo.summarize("acme", "w2").orElseThrow();
    assertThat(w2.access()).isEmpty();
    assertThat(w2.text()).contains("holiday").doesNotContain("Sales", "Hiring");
  }

  @Test
  void categoryAndMetadataFilters_areHardFilters() {
    mnemo.remember(
        NewMemory.builder("u", "Deploy with the blue pipeline.")
            .category(Category.PROCEDURAL)
            .metadata(Map.of("team", "a"))
            .source("x1")
            .build());
    mnemo.remember(
        NewMemory.builder("u", "Deploy happened on Friday.")
            .category(Category.EPISODIC)
            .metadata(Map.of("team", "b"))
            .source("x2")
            .build());

    assertThat(
            sources(
                mnemo.recall(
                    RecallRequest.builder("u", "deploy")
                        .threshold(0)
                        .relativeThreshold(0)
                        .minRelevance(0.0)
                        .categories(Set.of(Category.EPISODIC))
                        .build())))
        .containsExactly("x2");
    assertThat(
            sources(
                mnemo.recall(
                    RecallRequest.builder("u", "deploy")
                        .threshold(0)
                        .relativeThreshold(0)
                        .minRelevance(0.0)
                        .metadata(Map.of("team", "a"))
                        .build())))
        .containsExactly("x1");
  }

  @Test
  void latest_isEligibleOnly_newestFirst() {
    Mnemo m = mnemo;
    m.remember(NewMemory.builder("u", "old").recordedAt(t("2026-01-01")).build());
    m.remember(NewMemory.builder("u", "new").recordedAt(t("2026-02-01")).build());
    m.remember(NewMemory.builder("v", "other owner").recordedAt(t("2026-03-01")).build());
    MemoryStore store = m.diagnostics().orElseThrow().store();
    assertThat(store.latest(Eligibility.current("u", t("2026-06-01")), 10))
        .extracting(MemoryRecord::text)
        .containsExactly("new", "old");
  }

  /**
   * The store's searches agree with the reference semantics ({@link Eligibility#admits}) for every
   * kind of filter: {@code latest} returns exactly the admitted records, and every signal of {@code
   * candidates} (dense, BM25, entity, time range; each asked for more than there are) returns
   * admitted records only and, together, all of them.
   */
  @Test
  void everySearch_returnsExactlyTheEligibleRecords_forEveryKindOfFilter() {
    String[] owners = {"ann", "bob", "cy"};
    String[] scopes = {null, "work", "home"};
    Category[] cats = {Category.SEMANTIC, Category.EPISODIC, Category.PROCEDURAL};
    for (int i = 0; i < 36; i++) {
      NewMemory.Builder b =
          NewMemory.builder(owners[i % 3], "Garden note " + i + " about roses and the shed")
              .scope(scopes[(i / 3) % 3])
              .category(cats[(i / 9) % 3])
              .metadata(Map.of("team", i % 2 == 0 ? "a" : "b"))
              .entities(List.of("garden shed"))
              .recordedAt(t("2026-01-01").plusSeconds(86_400L * i))
              .validFrom(t("2025-12-01").plusSeconds(86_400L * 2 * i));
      if (i % 4 == 0) b.validTo(t("2026-03-01"));
      if (i % 5 == 0)
        b.factKey("fact-" + (i % 3)); // corrections: expired versions and clipped copies
      // Versions of a fact under the same labels, so the corrections still expire and clip.
      b.access(
          i % 5 == 0
              ? List.of("team:a")
              : switch (i % 4) {
                case 0 -> List.of();
                case 1 -> List.of("team:a");
                case 2 -> List.of("role:lead", "person:pia");
                default -> List.of("team:b");
              });
      mnemo.remember(b.build());
    }
    List<MemoryRecord> all = new ArrayList<>();
    store().export(null, all::add);
    assertThat(all.size()).isGreaterThan(36);

    List<Eligibility> filters =
        List.of(
            Eligibility.current("ann", t("2026-06-01")),
            Eligibility.current("bob", t("2026-02-01")),
            Eligibility.allOf("cy"),
            new Eligibility(
                "ann", null, Set.of(), Map.of(), t("2026-01-15"), t("2026-06-01"), null),
            new Eligibility("bob", null, Set.of(), Map.of(), null, t("2026-01-20"), null),
            new Eligibility("ann", "work", Set.of(), Map.of(), null, null, null),
            new Eligibility(
                "bob",
                null,
                Set.of(Category.EPISODIC, Category.PROCEDURAL),
                Map.of(),
                null,
                null,
                null),
            new Eligibility("cy", null, Set.of(), Map.of("team", "a"), null, null, null),
            new Eligibility(
                "ann",
                null,
                Set.of(),
                Map.of(),
                null,
                null,
                new TimeRange(t("2026-01-10"), t("2026-02-10"), "test")),
            Eligibility.current("ann", t("2026-06-01")).withPrincipals(Set.of()),
            Eligibility.allOf("ann").withPrincipals(Set.of("team:a")),
            Eligibility.allOf("bob").withPrincipals(Set.of("person:pia", "team:b")),
            Eligibility.allOf("cy").withPrincipals(Set.of("role:nobody")),
            new Eligibility(
                "cy",
                "home",
                Set.of(),
                Map.of("team", "a"),
                null,
                null,
                null,
                Set.of("team:a", "team:b")),
            Eligibility.unrestrictedForEvaluation());
    float[] vector = new HashingEmbedder().embedQuery("garden roses");
    for (Eligibility el : filters) {
      Set<String> admitted = ids(all.stream().filter(el::admits).toList());
      assertThat(ids(store().latest(el, 1_000))).as("latest under %s", el).isEqualTo(admitted);
      CandidateSet found =
          store()
              .candidates(
                  new CandidateQuery(
                      el,
                      vector,
                      "garden roses shed",
                      Set.of("garden shed"),
                      new TimeRange(t("2025-01-01"), t("2027-01-01"), "test"),
                      1_000));
      Set<String> candidates = ids(found.candidates().stream().map(Candidate::record).toList());
      assertThat(candidates).as("candidates under %s", el).isEqualTo(admitted);
      assertThat(found.candidates())
          .allSatisfy(
              c -> {
                assertThat(c.denseRank()).isPositive();
                assertThat(c.bm25Rank()).isPositive();
                assertThat(c.entityRank()).isPositive();
                assertThat(c.timeRank()).isPositive();
              });
    }
  }
}

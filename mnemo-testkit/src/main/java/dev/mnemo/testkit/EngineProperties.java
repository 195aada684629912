package dev.mnemo.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.Fusion;
import dev.mnemo.MemoryRecord;
import dev.mnemo.Mnemo;
import dev.mnemo.NewMemory;
import dev.mnemo.Packing;
import dev.mnemo.RecallRequest;
import dev.mnemo.RecallResult;
import dev.mnemo.Recalled;
import dev.mnemo.TemporalMode;
import dev.mnemo.spi.Eligibility;
import dev.mnemo.spi.MemoryStore;
import dev.mnemo.text.JTokkitTokenizer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/**
 * Seeded property tests of the engine's invariants on a store: owner isolation, access inside an
 * owner (eligibility), bitemporal correctness against a reference model, and budget respect. A
 * store runs them by extending this class: the reference store in the fast tier ({@code
 * InMemoryEngineProperties}), the Lucene store in the integration tier ({@code
 * EnginePropertiesIT}). jqwik prints the seed of a failing run; re-run with {@code @Property(seed =
 * "...")}.
 */
public abstract class EngineProperties {
  /** A new, empty store in {@code dir} (a fresh temporary directory, deleted after the try). */
  protected abstract MemoryStore openStore(Path dir);

  private static final Instant BASE = Instant.parse("2026-01-01T00:00:00Z");
  private static final long DAY = 86_400L;
  private static final List<String> WORDS =
      List.of(
          "alex",
          "peanuts",
          "editor",
          "vim",
          "emacs",
          "lisbon",
          "porto",
          "coffee",
          "tea",
          "hiking",
          "jazz",
          "release",
          "thursday",
          "budget",
          "report",
          "garden");

  record Write(String owner, String text, String factKey, int day, int validOffset) {}

  record Query(
      String owner,
      String text,
      String mode,
      int atDay,
      String fusion,
      String packing,
      int k,
      int budget,
      double threshold) {}

  // ---- owner isolation ----------------------------------------------------------------------

  @Provide
  Arbitrary<List<Write>> multiOwnerWrites() {
    Arbitrary<String> owner = Arbitraries.of("o1", "o2", "o3");
    Arbitrary<String> text =
        Arbitraries.of(WORDS).list().ofMinSize(1).ofMaxSize(6).map(l -> String.join(" ", l));
    Arbitrary<String> key = Arbitraries.of("k1", "k2").injectNull(0.5);
    return Combinators.combine(
            owner,
            text,
            key,
            Arbitraries.integers().between(0, 100),
            Arbitraries.integers().between(-30, 30))
        .as(Write::new)
        .list()
        .ofMinSize(1)
        .ofMaxSize(30);
  }

  @Provide
  Arbitrary<List<Query>> queries() {
    return Combinators.combine(
            Arbitraries.of("o1", "o2", "o3", "o4"),
            Arbitraries.of(WORDS).list().ofMinSize(1).ofMaxSize(4).map(l -> String.join(" ", l)),
            Arbitraries.of("current", "valid_at", "known_at"),
            Arbitraries.integers().between(0, 120),
            Arbitraries.of("weighted", "rrf"),
            Arbitraries.of("greedy", "coverage"),
            Arbitraries.integers().between(1, 8),
            Arbitraries.integers().between(0, 60))
        .as((o, t, m, d, f, p, k, b) -> new Query(o, t, m, d, f, p, k, b, 0.0))
        .list()
        .ofMinSize(1)
        .ofMaxSize(8);
  }

  @Property(tries = 40)
  void recall_neverReturnsAnotherOwnersRecord(
      @ForAll("multiOwnerWrites") List<Write> writes, @ForAll("queries") List<Query> queries) {
    try (Store s = new Store()) {
      List<MemoryRecord> all = new ArrayList<>();
      for (Write w : sortedByDay(writes)) all.add(s.mnemo.remember(toMemory(w)));
      // identical texts across owners are the interesting case: make sure there are some
      for (Write w : writes.subList(0, Math.min(3, writes.size()))) {
        String other = w.owner().equals("o1") ? "o2" : "o1";
        all.add(s.mnemo.remember(toMemory(new Write(other, w.text(), null, 101, 0))));
      }
      for (Query q : queries) {
        RecallResult r = s.mnemo.recall(request(q));
        for (Recalled sel : r.selected()) assertThat(sel.record().owner()).isEqualTo(q.owner());
        for (var c : r.trace().candidates()) assertThat(s.mnemo.get(q.owner(), c.id())).isPresent();
        assertThat(r.rendered()).doesNotContain("other-owner-marker");
      }
    }
  }

  // ---- access inside an owner
  // --------------------------------------------------------------------

  private static final List<String> LABELS =
      List.of("team:a", "team:b", "role:lead", "person:p", "person:q");

  record LabelledWrite(Write write, List<String> access, boolean keepBoth) {}

  @Provide
  Arbitrary<List<LabelledWrite>> labelledWrites() {
    Arbitrary<List<String>> labels =
        Arbitraries.of(LABELS)
            .list()
            .ofMinSize(0)
            .ofMaxSize(3)
            .injectDuplicates(0.2)
            .map(l -> l.isEmpty() ? List.<String>of() : l);
    return Combinators.combine(
            multiOwnerWrites(),
            labels.list().ofSize(30),
            Arbitraries.of(true, false).list().ofSize(30))
        .as(
            (writes, access, keep) -> {
              List<LabelledWrite> out = new ArrayList<>();
              for (int i = 0; i < writes.size(); i++)
                out.add(new LabelledWrite(writes.get(i), access.get(i), keep.get(i)));
              return out;
            });
  }

  @Provide
  Arbitrary<Set<String>> principals() {
    return Arbitraries.of(LABELS).set().ofMinSize(0).ofMaxSize(3);
  }

  /**
   * No record is ever selected, scored or rendered for a caller who may not see it: whatever the
   * labels, owners, fact keys (supersession, keep_both conflicts surfaced together), temporal mode,
   * fusion and packing, every candidate of the trace has no labels or one of the caller's
   * principals, and the block holds no invisible record's text. And nothing visible is lost: every
   * record the reference semantics admits with the caller's principals is a candidate.
   */
  @Property(tries = 40)
  void recall_neverSelectsARecordTheCallerMayNotSee(
      @ForAll("labelledWrites") List<LabelledWrite> writes,
      @ForAll("queries") List<Query> queries,
      @ForAll("principals") Set<String> principals) {
    try (Store s = new Store()) {
      List<LabelledWrite> sorted =
          writes.stream().sorted(Comparator.comparingInt(w -> w.write().day())).toList();
      for (int i = 0; i < sorted.size(); i++) {
        LabelledWrite w = sorted.get(i);
        // each text unique (w<i>), so the block can be searched for an invisible record's text
        NewMemory m =
            NewMemory.builder(w.write().owner(), w.write().text() + " w" + i)
                .factKey(w.write().factKey())
                .source("w" + i)
                .recordedAt(day(w.write().day()))
                .validFrom(day(w.write().day() + w.write().validOffset()))
                .conflictPolicy(w.keepBoth() ? dev.mnemo.ConflictPolicy.KEEP_BOTH : null)
                .access(w.access())
                .build();
        s.mnemo.remember(m);
      }
      List<MemoryRecord> all = new ArrayList<>();
      s.mnemo.diagnostics().orElseThrow().store().export(null, all::add);
      for (Query q : queries) {
        RecallRequest req =
            request(q).toBuilder()
                .principals(principals)
                .k(Math.max(q.k(), 20))
                .budgetTokens(2_000)
                .build();
        RecallResult r = s.mnemo.recall(req);
        for (var c : r.trace().candidates()) {
          MemoryRecord rec = s.mnemo.get(q.owner(), c.id()).orElseThrow();
          assertThat(dev.mnemo.Access.visible(rec.access(), principals))
              .as(
                  "candidate %s labelled %s for principals %s",
                  rec.text(), rec.access(), principals)
              .isTrue();
        }
        for (Recalled sel : r.selected()) {
          assertThat(dev.mnemo.Access.visible(sel.record().access(), principals)).isTrue();
          for (String id : sel.conflictsWith()) {
            assertThat(
                    dev.mnemo.Access.visible(
                        s.mnemo.get(q.owner(), id).orElseThrow().access(), principals))
                .isTrue();
          }
        }
        for (MemoryRecord rec : all) {
          if (!dev.mnemo.Access.visible(rec.access(), principals)) {
            // not followed by a digit: "alex w1" is a prefix of a visible "alex w14"
            assertThat(r.rendered())
                .doesNotContainPattern(java.util.regex.Pattern.quote(rec.text()) + "(?!\\d)");
          }
        }
        // completeness: every admitted record containing a query word is a candidate
        var t = r.trace(); // the read path's resolved instants
        Eligibility admitted =
            new Eligibility(
                q.owner(), null, null, null, t.validTime(), t.knownTime(), null, principals);
        Set<String> candidates = new java.util.HashSet<>();
        t.candidates().forEach(c -> candidates.add(c.id()));
        for (MemoryRecord rec : all) {
          List<String> words = List.of(rec.text().split(" "));
          boolean shares = java.util.Arrays.stream(q.text().split(" ")).anyMatch(words::contains);
          if (admitted.admits(rec)
              && shares
              && all.stream().filter(admitted::admits).count() <= req.candidates()) {
            assertThat(candidates)
                .as("admitted record %s is a candidate", rec.text())
                .contains(rec.id());
          }
        }
      }
    }
  }

  // ---- bitemporal correctness -----------------------------------------------------------------

  /**
   * One write of the fact: recorded on {@code recordedDay}, valid from {@code validFromDay} to
   * {@code validToDay} (null: open), with an authority rank (0 derived, 1 explicit, 2 verified),
   * policy {@code correct} instead of {@code supersede}, and lower_authority {@code refuse}.
   */
  record FactWrite(
      int recordedDay,
      int validFromDay,
      Integer validToDay,
      int authority,
      boolean correct,
      boolean refuse) {}

  @Provide
  Arbitrary<List<FactWrite>> factWrites() {
    Arbitrary<Integer> authority =
        Arbitraries.frequency(
            net.jqwik.api.Tuple.of(1, 0),
            net.jqwik.api.Tuple.of(4, 1),
            net.jqwik.api.Tuple.of(1, 2));
    return Combinators.combine(
            Arbitraries.integers().between(1, 10),
            Arbitraries.integers().between(-40, 20),
            Arbitraries.integers().between(1, 60).injectNull(0.6),
            authority,
            Arbitraries.integers().between(0, 3),
            Arbitraries.integers().between(0, 3))
        .as(
            (gap, validOffset, length, auth, correct, refuse) ->
                new int[] {
                  gap,
                  validOffset,
                  length == null ? -1 : length,
                  auth,
                  correct == 0 ? 1 : 0,
                  refuse == 0 ? 1 : 0
                })
        .list()
        .ofMinSize(1)
        .ofMaxSize(10)
        .map(
            raw -> {
              List<FactWrite> out = new ArrayList<>();
              int day = 0;
              for (int[] r : raw) {
                day += r[0];
                int from = day + r[1];
                out.add(
                    new FactWrite(
                        day, from, r[2] < 0 ? null : from + r[2], r[3], r[4] == 1, r[5] == 1));
              }
              return out;
            });
  }

  private static final dev.mnemo.Authority[] AUTHORITY = {
    dev.mnemo.Authority.DERIVED, dev.mnemo.Authority.EXPLICIT, dev.mnemo.Authority.VERIFIED
  };

  @Property(tries = 60)
  void everyMode_returnsExactlyTheVersionsTheReferenceModelSays(
      @ForAll("factWrites") List<FactWrite> writes,
      @ForAll @Size(min = 1, max = 12) List<@IntRange(min = -50, max = 120) Integer> validDays,
      @ForAll @Size(min = 1, max = 6) List<@IntRange(min = 0, max = 120) Integer> knownDays) {
    Reference model = new Reference(writes);
    try (Store s = new Store()) {
      for (int i = 0; i < writes.size(); i++) {
        FactWrite w = writes.get(i);
        NewMemory m =
            NewMemory.builder("owner", "fact version " + i)
                .factKey("key")
                .source("w" + i)
                .recordedAt(day(w.recordedDay()))
                .validFrom(day(w.validFromDay()))
                .validTo(w.validToDay() == null ? null : day(w.validToDay()))
                .authority(AUTHORITY[w.authority()])
                .conflictPolicy(
                    w.correct()
                        ? dev.mnemo.ConflictPolicy.CORRECT
                        : dev.mnemo.ConflictPolicy.SUPERSEDE)
                .lowerAuthority(
                    w.refuse()
                        ? dev.mnemo.LowerAuthority.REFUSE
                        : dev.mnemo.LowerAuthority.KEEP_BOTH)
                .build();
        if (model.refused.get(i)) {
          org.assertj.core.api.Assertions.assertThatThrownBy(() -> s.mnemo.remember(m))
              .as("write %d is refused", i)
              .isInstanceOf(dev.mnemo.InvalidRequestException.class);
        } else {
          s.mnemo.remember(m);
        }
      }
      MemoryStoreAccess store = new MemoryStoreAccess(s.mnemo);
      for (int known : knownDays) {
        for (int valid : validDays) {
          List<String> actual = store.eligibleSources("owner", day(valid), day(known));
          assertThat(actual)
              .as("valid day %d known day %d", valid, known)
              .containsExactlyInAnyOrderElementsOf(model.at(valid, known));
        }
        // the same through the read path: current, valid_at and known_at
        int valid = validDays.get(0);
        RecallResult r =
            s.mnemo.recall(
                RecallRequest.builder("owner", "fact version")
                    .threshold(0)
                    .relativeThreshold(0)
                    .minRelevance(0.0)
                    .k(20)
                    .packing(Packing.GREEDY)
                    .askedAt(day(200))
                    .mode(TemporalMode.knownAt(day(known)))
                    .build());
        assertThat(r.sourceIds()).containsExactlyInAnyOrderElementsOf(model.at(known, known));
        RecallResult h =
            s.mnemo.recall(
                RecallRequest.builder("owner", "fact version")
                    .threshold(0)
                    .relativeThreshold(0)
                    .minRelevance(0.0)
                    .k(20)
                    .packing(Packing.GREEDY)
                    .askedAt(day(200))
                    .mode(TemporalMode.validAt(day(valid)))
                    .build());
        assertThat(h.sourceIds()).containsExactlyInAnyOrderElementsOf(model.at(valid, 200));
      }
    }
  }

  /**
   * The reference model of the write rules (docs/write-path.md), written as a person would apply
   * them to a timeline: after each write, the believed pieces of valid time and whose they are. A
   * write open-ended with policy supersede ends where the earliest believed piece starting after it
   * begins (back-fill); then each believed piece it overlaps is replaced for the overlap, unless
   * the piece has higher authority: then the write is refused (refuse) or both stay (keep_both).
   */
  static final class Reference {
    record Piece(String source, int from, Integer to, int authority) {
      boolean covers(int day) {
        return from <= day && (to == null || day < to);
      }

      boolean overlaps(int f, Integer t) {
        return (t == null || from < t) && (to == null || to > f);
      }
    }

    final List<Integer> recordedDays = new ArrayList<>();
    final List<List<Piece>> states = new ArrayList<>();
    final List<Boolean> refused = new ArrayList<>();

    Reference(List<FactWrite> writes) {
      List<Piece> believed = new ArrayList<>();
      for (int i = 0; i < writes.size(); i++) {
        FactWrite w = writes.get(i);
        Integer to = w.validToDay();
        if (!w.correct() && to == null) {
          for (Piece p : believed)
            if (p.from() > w.validFromDay() && (to == null || p.from() < to)) to = p.from();
        }
        List<Piece> replaced = new ArrayList<>();
        boolean refuse = false;
        for (Piece p : believed) {
          if (!p.overlaps(w.validFromDay(), to)) continue;
          if (w.authority() < p.authority()) refuse |= w.refuse();
          else replaced.add(p);
        }
        refused.add(refuse);
        if (!refuse) {
          List<Piece> next = new ArrayList<>(believed);
          next.removeAll(replaced);
          for (Piece p : replaced) {
            if (p.from() < w.validFromDay())
              next.add(new Piece(p.source(), p.from(), w.validFromDay(), p.authority()));
            if (to != null && (p.to() == null || p.to() > to))
              next.add(new Piece(p.source(), to, p.to(), p.authority()));
          }
          next.add(new Piece("w" + i, w.validFromDay(), to, w.authority()));
          believed = next;
        }
        recordedDays.add(w.recordedDay());
        states.add(List.copyOf(believed));
      }
    }

    /** The sources believed on {@code known} to hold on {@code valid}. */
    List<String> at(int valid, int known) {
      List<Piece> state = List.of();
      for (int i = 0; i < states.size() && recordedDays.get(i) <= known; i++) state = states.get(i);
      return state.stream().filter(p -> p.covers(valid)).map(Piece::source).toList();
    }
  }

  // ---- budget -----------------------------------------------------------------------------------

  @Property(tries = 40)
  void renderedBlock_neverExceedsTheBudget(
      @ForAll("multiOwnerWrites") List<Write> writes,
      @ForAll @IntRange(min = 0, max = 80) int budget,
      @ForAll @IntRange(min = 1, max = 10) int k,
      @ForAll boolean coverage,
      @ForAll boolean relevance,
      @ForAll boolean note) {
    JTokkitTokenizer tok = JTokkitTokenizer.cl100k();
    try (Store s = new Store()) {
      for (Write w : sortedByDay(writes)) s.mnemo.remember(toMemory(w));
      for (String owner : List.of("o1", "o2", "o3")) {
        RecallResult r =
            s.mnemo.recall(
                RecallRequest.builder(owner, String.join(" ", WORDS))
                    .threshold(0)
                    .relativeThreshold(0)
                    .minRelevance(0.0)
                    .budgetTokens(budget)
                    .k(k)
                    .packing(coverage ? Packing.COVERAGE : Packing.GREEDY)
                    .askedAt(day(150))
                    .blockRelevance(relevance)
                    .usageNote(note ? RecallRequest.USAGE_NOTE : null)
                    .build());
        int sum = r.selected().stream().mapToInt(x -> tok.count(x.record().text())).sum();
        assertThat(r.renderedTokens())
            .isEqualTo(r.rendered().isEmpty() ? 0 : tok.count(r.rendered()));
        assertThat(r.renderedTokens()).isLessThanOrEqualTo(budget);
        assertThat(sum).isLessThanOrEqualTo(budget);
        assertThat(r.tokensUsed()).isEqualTo(sum);
        assertThat(r.rendered().isEmpty()).isEqualTo(r.selected().isEmpty());
        for (Recalled x : r.selected()) assertThat(r.rendered()).contains(x.record().text());
        if (!r.selected().isEmpty()) {
          assertThat(r.rendered().contains(RecallRequest.USAGE_NOTE)).isEqualTo(note);
          assertThat(r.rendered().split("\\(relevance ", -1).length - 1)
              .isEqualTo(relevance ? r.selected().size() : 0);
        }
        assertThat(r.selected().size()).isLessThanOrEqualTo(k);
      }
    }
  }

  // ---- helpers ----------------------------------------------------------------------------------

  private static List<Write> sortedByDay(List<Write> writes) {
    return writes.stream().sorted(Comparator.comparingInt(Write::day)).toList();
  }

  private static NewMemory toMemory(Write w) {
    return NewMemory.builder(w.owner(), w.text())
        .factKey(w.factKey())
        .source(w.owner() + "-" + w.day())
        .recordedAt(day(w.day()))
        .validFrom(day(w.day() + w.validOffset()))
        .build();
  }

  private static RecallRequest request(Query q) {
    TemporalMode mode =
        switch (q.mode()) {
          case "valid_at" -> TemporalMode.validAt(day(q.atDay()));
          case "known_at" -> TemporalMode.knownAt(day(q.atDay()));
          default -> TemporalMode.current();
        };
    return RecallRequest.builder(q.owner(), q.text())
        .mode(mode)
        .askedAt(day(120))
        .fusion(Fusion.of(q.fusion()))
        .packing(Packing.fromCode(q.packing()))
        .k(q.k())
        .budgetTokens(q.budget())
        .threshold(q.threshold())
        .relativeThreshold(0)
        .minRelevance(0.0)
        .explain(true)
        .build();
  }

  private static Instant day(int d) {
    return BASE.plusSeconds(DAY * d);
  }

  /** Direct eligibility queries against the engine's store. */
  private record MemoryStoreAccess(Mnemo mnemo) {
    List<String> eligibleSources(String owner, Instant valid, Instant known) {
      var store = mnemo.diagnostics().orElseThrow().store();
      Eligibility e = new Eligibility(owner, null, null, null, valid, known, null);
      return store.latest(e, 100).stream().flatMap(r -> r.sources().stream()).toList();
    }
  }

  /** A fresh store in a temporary directory, deleted on close. */
  private final class Store implements AutoCloseable {
    final Path dir;
    final Mnemo mnemo;

    Store() {
      try {
        dir = Files.createTempDirectory("mnemo-prop");
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      mnemo =
          Mnemo.builder()
              .store(openStore(dir))
              .embedder(new HashingEmbedder())
              .clock(MutableClock.at("2026-06-01T00:00:00Z"))
              // the invariants here are the read path's; the retrieval log has its own tests
              // (RecallLogTest)
              .recallLogOptions(dev.mnemo.RecallLogOptions.OFF)
              .build();
    }

    @Override
    public void close() {
      mnemo.close();
      try (Stream<Path> files = Files.walk(dir)) {
        files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }
}

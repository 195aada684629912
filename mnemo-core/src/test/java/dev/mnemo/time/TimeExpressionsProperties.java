package dev.mnemo.time;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.time.ZoneId;
import java.util.List;
import java.util.Optional;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/** Whatever the query, the parser answers without throwing and its answers are well formed. */
class TimeExpressionsProperties {

  /** Words and fragments the rules react to, so random queries reach deep into the rules. */
  private static final List<String> VOCABULARY =
      List.of(
          "today",
          "yesterday",
          "tomorrow",
          "tonight",
          "the",
          "day",
          "before",
          "after",
          "last",
          "this",
          "next",
          "past",
          "previous",
          "coming",
          "week",
          "weeks",
          "weekend",
          "month",
          "months",
          "year",
          "years",
          "hours",
          "days",
          "ago",
          "in",
          "on",
          "during",
          "over",
          "since",
          "until",
          "till",
          "prior",
          "to",
          "from",
          "between",
          "and",
          "or",
          "-",
          ",",
          "early",
          "mid",
          "mid-",
          "late",
          "beginning",
          "end",
          "of",
          "at",
          "recently",
          "may",
          "May",
          "march",
          "June",
          "Feb",
          "sept",
          "Monday",
          "Saturday",
          "summer",
          "fall",
          "winter",
          "spring",
          "boot",
          "a",
          "an",
          "couple",
          "few",
          "one",
          "twelve",
          "0",
          "1",
          "5th",
          "29",
          "30",
          "31",
          "99",
          "1899",
          "1900",
          "2023",
          "2100",
          "2101",
          "9999",
          "2023-05-05",
          "2023-02-30",
          "2023/05",
          "2023-13",
          "users",
          "be",
          "I",
          "?",
          "$",
          "1.5",
          "5:30",
          "ever",
          "very");

  @Property(tries = 2000)
  void parse_neverThrows_onArbitraryText(
      @ForAll String query, @ForAll("askedAt") Instant askedAt, @ForAll("zones") ZoneId zone) {
    check(query, askedAt, zone);
  }

  @Property(tries = 3000)
  void parse_neverThrows_onRandomTimeWords(
      @ForAll("timeWords") String query,
      @ForAll("askedAt") Instant askedAt,
      @ForAll("zones") ZoneId zone) {
    check(query, askedAt, zone);
  }

  @Property(tries = 200)
  void parse_neverThrows_atTheEdgesOfTime(
      @ForAll("timeWords") String query, @ForAll("extremeInstants") Instant askedAt) {
    check(query, askedAt, ZoneId.of("UTC"));
  }

  private static void check(String query, Instant askedAt, ZoneId zone) {
    List<TimeRange> all = TimeExpressions.findAll(query, askedAt, zone);
    Optional<TimeRange> best = TimeExpressions.parse(query, askedAt, zone);

    assertThat(best.isPresent()).isEqualTo(!all.isEmpty());
    best.ifPresent(b -> assertThat(all).contains(b));
    int end = 0;
    for (TimeRange r : all) {
      assertThat(r.to()).isAfter(r.from());
      int start = query.indexOf(r.expression(), end);
      assertThat(start).as("'%s' appears in order in '%s'", r.expression(), query).isNotNegative();
      end = start + r.expression().length();
    }
  }

  @Provide
  Arbitrary<String> timeWords() {
    return Arbitraries.of(VOCABULARY)
        .list()
        .ofMinSize(1)
        .ofMaxSize(8)
        .flatMap(
            words ->
                Arbitraries.of(" ", "  ", "\t", "")
                    .list()
                    .ofSize(words.size())
                    .map(
                        gaps -> {
                          StringBuilder sb = new StringBuilder();
                          for (int i = 0; i < words.size(); i++) {
                            sb.append(words.get(i)).append(gaps.get(i));
                          }
                          return sb.toString();
                        }));
  }

  @Provide
  Arbitrary<Instant> askedAt() {
    // 1900..2100, where memories and queries live.
    return Arbitraries.longs().between(-2_208_988_800L, 4_102_444_800L).map(Instant::ofEpochSecond);
  }

  @Provide
  Arbitrary<Instant> extremeInstants() {
    return Arbitraries.of(
        Instant.MIN,
        Instant.MAX,
        Instant.EPOCH,
        TimeExpressions.DISTANT_PAST,
        TimeExpressions.DISTANT_FUTURE,
        Instant.parse("-999999999-01-01T00:00:00Z"),
        Instant.parse("+999999999-12-31T00:00:00Z"));
  }

  @Provide
  Arbitrary<ZoneId> zones() {
    return Arbitraries.of(ZoneId.getAvailableZoneIds()).map(ZoneId::of);
  }
}

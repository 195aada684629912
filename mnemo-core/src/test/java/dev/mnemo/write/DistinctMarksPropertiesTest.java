package dev.mnemo.write;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.NewMemory;
import dev.mnemo.spi.Consolidator.Action;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Property tests of issue 37, item 5, over generated statements: two statements that differ only in
 * a number, a date, an amount, an identifier or a version (or in the order of two of them) are two
 * facts, however alike the words: {@link SameFact} finds no match and the {@link RuleConsolidator}
 * neither drops the newer one as a duplicate nor lets it supersede the older one. The converse: a
 * variant in case and punctuation only, with the same marks, is still a duplicate.
 *
 * <p>Sentences come from templates with typed holes, filled by a seeded {@link Random} (the seed is
 * in each failure's message), so a failure replays exactly. A template a slot rule reads ({@link
 * Slots}: "lives in", "works at"...) would be an update of its slot by design, so the templates are
 * checked to be none.
 */
class DistinctMarksPropertiesTest {
  private static final long SEED = 0x5EED_3715L;
  private static final int PAIRS_PER_TEMPLATE = 12;

  /** Typed holes: {n} a count, {date}, {amount}, {id}, {ver}, {time}, {word} a number word. */
  private static final List<String> TEMPLATES =
      List.of(
          "The build of part {n} passed on the night runner with marker {id} and no flaky tests.",
          "Invoice {id} for the office chairs was paid on {date} by bank transfer.",
          "Flight {id} to Lisbon departs at {time} from gate B on {date}.",
          "We ordered {word} boxes of printer paper for the Berlin office last week.",
          "The staging cluster was upgraded to version {ver} during the maintenance window.",
          "Release {ver} of the mobile app fixed the login crash reported by customers.",
          "The quarterly hosting bill came to {amount} after the discount was applied.",
          "Maria paid {amount} for the concert tickets at the Coliseu box office.",
          "The team retrospective is scheduled for {date} at {time} in the big meeting room.",
          "Ticket {id} about the broken export button was closed on {date}.",
          "The warehouse in Porto holds {n} pallets of spare parts for the pumps.",
          "Our monthly cloud budget for the analytics project is {amount} this year.",
          "The database migration {id} ran for {n} minutes on the production replica.",
          "The library dependency was pinned to {ver} because of the serialization bug.",
          "The dentist appointment for the kids was moved to {date} at {time}.",
          "The load test reached {n} requests per second before the gateway saturated.",
          "The rental contract for the flat starts on {date} and costs {amount} each month.",
          "Order {id} with the replacement keyboard was shipped on {date} by courier.",
          "The firmware of the office router was flashed to version {ver} yesterday evening.",
          "The marathon training plan adds {n} kilometres to the long run every weekend.",
          "The server room thermostat alarm fired {word} times during the heat wave.",
          "Grant application {id} asks for {amount} to fund the field research trip.",
          "The nightly backup job of the wiki finished at {time} with {n} files copied.",
          "The parking permit for the company van expires on {date} unless renewed.",
          "The conference keynote about distributed tracing starts at {time} on {date}.",
          "Pull request {id} bumps the parser from {ver} to {ver} and updates the changelog.",
          "The score of the company football match was {n} to {n} after extra time.",
          "The shipment of {n} laptops for the new hires arrives on {date} at the front desk.",
          "The insurance claim {id} for the water damage was settled for {amount}.",
          "The support hotline took {n} calls on {date} during the outage of the billing system.",
          "The booking code for the hotel in Madrid is {id} for the stay from {date}.",
          "The sprint review of the payments squad happens every {word} weeks on Thursday.",
          "The transfer of {amount} from the savings account was booked on {date}.",
          "The CI pipeline of the monorepo takes {n} minutes since the cache was enabled.",
          "The security patch {id} was rolled out to {n} servers before the audit.",
          "The lab measured a sample temperature of {n} degrees at {time} this morning.",
          "The weekly planning meeting was moved from {time} to {time} because of the fire drill.",
          "The train to the Porto office leaves on {date} and comes back on {date}.",
          "The price of the annual team plan went from {amount} to {amount} in the spring.",
          "Meeting room {n} was swapped with meeting room {n} for the design workshop.",
          "The payment connector supports versions {ver} through {ver} of the banking protocol.",
          "Flight {id} connects with flight {id} in Frankfurt on the way to the customer.");

  private static final String[] WORDS = {
    "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "twelve"
  };
  private static final String[] MONTHS = {
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December"
  };
  private static final String[] CURRENCY_SIGNS = {"$", "€", "£", "¥"};
  private static final String[] CURRENCY_CODES = {"USD", "EUR", "GBP", "CHF", "JPY"};
  private static final Pattern HOLE = Pattern.compile("\\{(n|date|amount|id|ver|time|word)}");

  @Test
  void statementsWhoseMarksDiffer_areNeverTheSameFact_norADuplicateOrAnUpdate() {
    Random random = new Random(SEED);
    List<String> failures = new ArrayList<>();
    int pairs = 0;
    int swaps = 0;
    for (String template : TEMPLATES) {
      for (int i = 0; i < PAIRS_PER_TEMPLATE; i++) {
        long seed = random.nextLong();
        Random r = new Random(seed);
        List<String> holes = holes(template);
        List<String> older = new ArrayList<>();
        for (String h : holes) older.add(value(h, r));
        List<String> newer = new ArrayList<>(older);
        boolean swap = i % 3 == 2 && swappable(holes, older);
        if (swap) { // the same marks in another order: "3 to 1" is not "1 to 3"
          int[] two = sameKindPair(holes, older);
          newer.set(two[0], older.get(two[1]));
          newer.set(two[1], older.get(two[0]));
          swaps++;
        } else {
          int k = r.nextInt(holes.size());
          newer.set(k, otherValue(holes.get(k), older.get(k), r));
        }
        String a = fill(template, older);
        String b = fill(template, newer);
        if (a.equals(b)) continue;
        pairs++;
        assertThat(Slots.of(a)).as("a slot template: %s", a).isNull();
        var match = SameFact.match(b, a);
        if (match.isPresent()) failures.add("SameFact " + match.get() + ": " + b + " / " + a);
        var decision =
            new RuleConsolidator()
                .decide(
                    NewMemory.builder("u", b).build(),
                    List.of(RuleConsolidatorTest.record("r1", a, null)));
        if (decision.action() != Action.ADD)
          failures.add(
              decision.action()
                  + " ("
                  + decision.reason()
                  + ", seed "
                  + seed
                  + "): "
                  + b
                  + " / "
                  + a);
      }
    }
    assertThat(pairs).as("pairs tried").isGreaterThanOrEqualTo(400);
    assertThat(swaps).as("pairs with swapped marks").isGreaterThanOrEqualTo(30);
    assertThat(failures).as("of %d pairs (%d swaps)", pairs, swaps).isEmpty();
  }

  @Test
  void aVariantInCaseAndPunctuationOnly_withTheSameMarks_isStillADuplicate() {
    Random random = new Random(SEED + 1);
    List<Function<String, String>> variants =
        List.of(
            s -> s.toLowerCase(Locale.ROOT),
            s -> s.substring(0, s.length() - 1) + "!",
            s -> s.substring(0, s.length() - 1),
            s -> s.replaceFirst(" (\\p{L}+) ", " $1, ").toUpperCase(Locale.ROOT),
            s -> "  " + s.replace(" ", "  ") + " ",
            s -> s.replace(".", ";").replaceFirst("^(\\p{L}+)", "$1:"));
    List<String> failures = new ArrayList<>();
    int pairs = 0;
    for (String template : TEMPLATES) {
      for (int i = 0; i < 6; i++) {
        long seed = random.nextLong();
        Random r = new Random(seed);
        List<String> values = new ArrayList<>();
        for (String h : holes(template)) values.add(value(h, r));
        String a = fill(template, values);
        String b = variants.get(i % variants.size()).apply(a);
        pairs++;
        if (!SameFact.marks(a).equals(SameFact.marks(b)))
          failures.add("marks " + SameFact.marks(b) + " vs " + SameFact.marks(a) + ": " + b);
        var decision =
            new RuleConsolidator()
                .decide(
                    NewMemory.builder("u", b).build(),
                    List.of(RuleConsolidatorTest.record("r1", a, null)));
        if (decision.action() != Action.NOOP)
          failures.add(decision.action() + " (seed " + seed + "): " + b + " / " + a);
      }
    }
    assertThat(pairs).isGreaterThanOrEqualTo(200);
    assertThat(failures).as("of %d pairs", pairs).isEmpty();
  }

  private static List<String> holes(String template) {
    List<String> out = new ArrayList<>();
    Matcher m = HOLE.matcher(template);
    while (m.find()) out.add(m.group(1));
    return out;
  }

  private static String fill(String template, List<String> values) {
    Matcher m = HOLE.matcher(template);
    StringBuilder sb = new StringBuilder();
    int i = 0;
    while (m.find()) m.appendReplacement(sb, Matcher.quoteReplacement(values.get(i++)));
    m.appendTail(sb);
    return sb.toString();
  }

  private static boolean swappable(List<String> holes, List<String> values) {
    return sameKindPair(holes, values) != null;
  }

  /** Two holes of one kind holding different values, or null. */
  private static int[] sameKindPair(List<String> holes, List<String> values) {
    for (int i = 0; i < holes.size(); i++)
      for (int j = i + 1; j < holes.size(); j++)
        if (holes.get(i).equals(holes.get(j)) && !values.get(i).equals(values.get(j)))
          return new int[] {i, j};
    return null;
  }

  private static String otherValue(String hole, String old, Random r) {
    for (int tries = 0; tries < 100; tries++) {
      String v =
          hole.equals("date") || hole.equals("amount") ? variant(hole, old, r) : value(hole, r);
      if (!v.equals(old)) return v;
    }
    throw new IllegalStateException("no other value for " + hole + " than " + old);
  }

  /**
   * A date or an amount changed in one part, its format kept: the day, the month or the year; the
   * figure or the currency. (A fresh value would often change the format too, an easier case.)
   */
  private static String variant(String hole, String old, Random r) {
    Matcher digits = Pattern.compile("\\d+").matcher(old);
    List<int[]> runs = new ArrayList<>();
    while (digits.find()) runs.add(new int[] {digits.start(), digits.end()});
    for (String month : MONTHS) {
      for (String form : new String[] {month, month.substring(0, 3)}) {
        int at = old.indexOf(form);
        if (at >= 0 && r.nextInt(3) == 0) {
          String other = MONTHS[r.nextInt(MONTHS.length)];
          other = form.length() == 3 ? other.substring(0, 3) : other;
          return old.substring(0, at) + other + old.substring(at + form.length());
        }
      }
    }
    if (hole.equals("amount") && r.nextInt(3) == 0) {
      for (String[] set : new String[][] {CURRENCY_SIGNS, CURRENCY_CODES}) {
        for (String c : set) {
          if (old.contains(c)) return old.replace(c, set[r.nextInt(set.length)]);
        }
      }
    }
    int[] run = runs.get(r.nextInt(runs.size()));
    String part = old.substring(run[0], run[1]);
    int n = Integer.parseInt(part) + 1 + r.nextInt(3);
    String next = String.format(Locale.ROOT, "%0" + part.length() + "d", n);
    if (next.length() > part.length()) next = String.valueOf(Integer.parseInt(part) - 1);
    return old.substring(0, run[0]) + next + old.substring(run[1]);
  }

  private static String value(String hole, Random r) {
    return switch (hole) {
      case "n" -> String.valueOf(r.nextInt(r.nextBoolean() ? 20 : 5000));
      case "word" -> WORDS[r.nextInt(WORDS.length)];
      case "time" ->
          switch (r.nextInt(3)) {
            case 0 -> String.format(Locale.ROOT, "%d:%02d", 1 + r.nextInt(23), 5 * r.nextInt(12));
            case 1 -> (1 + r.nextInt(12)) + (r.nextBoolean() ? " am" : " pm");
            default -> (1 + r.nextInt(12)) + (r.nextBoolean() ? "am" : "pm");
          };
      case "ver" ->
          switch (r.nextInt(3)) {
            case 0 -> r.nextInt(5) + "." + r.nextInt(20) + "." + r.nextInt(10);
            case 1 -> "v" + r.nextInt(5) + "." + r.nextInt(20);
            default ->
                r.nextInt(5) + "." + r.nextInt(20) + "." + r.nextInt(10) + "-rc" + r.nextInt(4);
          };
      case "id" ->
          switch (r.nextInt(4)) {
            case 0 -> "LH" + (1000 + r.nextInt(9000));
            case 1 -> "r" + r.nextInt(10) + "w" + r.nextInt(10) + "i" + r.nextInt(10);
            case 2 -> "INV-" + (2020 + r.nextInt(7)) + "-" + (100 + r.nextInt(900));
            default -> "#" + (10_000 + r.nextInt(90_000));
          };
      case "amount" -> {
        int whole = 5 + r.nextInt(5000);
        String figure =
            r.nextBoolean()
                ? String.format(Locale.ROOT, "%,d", whole)
                : String.format(Locale.ROOT, "%d.%02d", whole, r.nextInt(100));
        yield switch (r.nextInt(3)) {
          case 0 -> CURRENCY_SIGNS[r.nextInt(CURRENCY_SIGNS.length)] + figure;
          case 1 -> figure + " " + CURRENCY_CODES[r.nextInt(CURRENCY_CODES.length)];
          default -> CURRENCY_CODES[r.nextInt(CURRENCY_CODES.length)] + " " + figure;
        };
      }
      case "date" -> {
        int y = 2019 + r.nextInt(9);
        int m = 1 + r.nextInt(12);
        int d = 1 + r.nextInt(28);
        String month = MONTHS[m - 1];
        yield switch (r.nextInt(6)) {
          case 0 -> String.format(Locale.ROOT, "%d-%02d-%02d", y, m, d);
          case 1 -> String.format(Locale.ROOT, "%02d/%02d/%d", d, m, y);
          case 2 -> d + " " + month + " " + y;
          case 3 -> month + " " + d + ", " + y;
          case 4 -> d + " " + month.substring(0, 3) + " " + y;
          default -> month.substring(0, 3) + " " + d;
        };
      }
      default -> throw new IllegalArgumentException(hole);
    };
  }
}

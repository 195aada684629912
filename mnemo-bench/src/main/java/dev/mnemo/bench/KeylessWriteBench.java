package dev.mnemo.bench;

import dev.mnemo.MemoryRecord;
import dev.mnemo.Mnemo;
import dev.mnemo.NewMemory;
import dev.mnemo.embed.E5SmallEmbedder;
import dev.mnemo.store.lucene.LuceneMemoryStore;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * What the same-fact rules for writes without a fact key cost a {@code remember} (issue 32): one
 * writer, the real e5 embedder, the default store (write-ahead log), in one JVM with the series
 * alternating round by round. Every timed write is to an owner who said "I live in A." before
 * (untimed); then:
 *
 * <ul>
 *   <li><b>keyed</b>: "I moved to B last month." with a fact key of its own: the write path skips
 *       the same-fact search (the cost of a write before the rules, plus one versions look-up);
 *   <li><b>keyless, no match</b>: "I adopted a cat called C." without a key: the same-fact search
 *       (BM25 and dense over the owner's current records) finds no match;
 *   <li><b>keyless, update</b>: "I moved to B last month." without a key: the search finds "I live
 *       in A.", the slot rule matches, both versions are embedded again after the key's words (one
 *       embedder call of two texts) and the older one is superseded.
 * </ul>
 *
 * <p>{@code java ... dev.mnemo.bench.KeylessWriteBench [--dir DIR] [--fill N] [--writes N]
 * [--rounds R] [--seed S]}: {@code --fill} records of other owners first (the store's size), then
 * {@code --writes} timed writes per series and round.
 */
public final class KeylessWriteBench {
  private KeylessWriteBench() {}

  private static final String[] CITIES = {
    "Lisbon", "Porto", "Berlin", "Hamburg", "Vienna", "Graz", "Madrid", "Seville", "Oslo", "Bergen",
    "Lyon", "Nantes", "Turin", "Milan", "Ghent", "Leiden"
  };
  private static final String[] PETS = {
    "Mango", "Pixel", "Biscuit", "Juniper", "Olive", "Pepper", "Clover", "Maple"
  };
  private static final String[] NOTES = {
    "I play the piano on Sundays.",
    "My sister works as a dentist.",
    "I am reading a novel about sailors.",
    "I booked a flight for the conference.",
    "I ride my bike to the office.",
    "I like jazz concerts.",
    "I keep a recipe book for soups.",
    "I have a meeting with the tax advisor."
  };

  public static void main(String[] args) throws Exception {
    Map<String, String> o = BenchStore.options(args);
    Path dir = Path.of(o.getOrDefault("dir", ".mnemo/keylessbench"));
    int fill = Integer.parseInt(o.getOrDefault("fill", "2000"));
    int writes = Integer.parseInt(o.getOrDefault("writes", "60"));
    int rounds = Integer.parseInt(o.getOrDefault("rounds", "4"));
    long seed = Long.parseLong(o.getOrDefault("seed", "42"));
    PrintStream out = System.out;
    BenchStore.deleteRecursively(dir);
    SplittableRandom random = new SplittableRandom(seed);
    String[] names = {"keyed", "keyless, no match", "keyless, update"};
    List<List<Long>> samples = List.of(new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
    int updates = 0;
    try (E5SmallEmbedder embedder = new E5SmallEmbedder();
        LuceneMemoryStore store = LuceneMemoryStore.open(dir);
        Mnemo m = Mnemo.builder().store(new WriteBench.View(store)).embedder(embedder).build()) {
      List<NewMemory> filling = new ArrayList<>();
      for (int i = 0; i < fill; i++) {
        filling.add(
            NewMemory.builder("fill-" + (i % 50), NOTES[random.nextInt(NOTES.length)] + " " + i)
                .build());
        if (filling.size() == 256 || i == fill - 1) {
          m.rememberAll(filling);
          filling.clear();
        }
      }
      out.printf(
          Locale.ROOT,
          "keyless write bench: %,d records, %d timed writes per series and round, %d rounds, e5,"
              + " one writer%n",
          store.count(),
          writes,
          rounds);
      int owner = 0;
      for (int w = 0; w < 5; w++)
        for (int s = 0; s < 3; s++) write(m, s, "warm-" + owner++, random, null);
      for (int r = 0; r < rounds; r++) {
        for (int k = 0; k < 3; k++) {
          int series = (k + r) % 3;
          for (int i = 0; i < writes; i++) {
            MemoryRecord rec = write(m, series, "o-" + owner++, random, samples.get(series));
            if (series == 2
                && rec.resolution() != null
                && rec.resolution().startsWith("same fact: updates")) updates++;
          }
        }
      }
    }
    out.println(Stats.header());
    Stats base = null;
    for (int s = 0; s < 3; s++) {
      Stats st = Stats.of(names[s], samples.get(s).stream().mapToLong(Long::longValue).toArray());
      if (s == 0) base = st;
      out.println(st.line());
      if (s > 0)
        out.printf(
            Locale.ROOT,
            "  / keyed: p50 %.2f, p99 %.2f%n",
            st.p50Millis() / base.p50Millis(),
            st.p99Millis() / base.p99Millis());
    }
    out.printf(
        Locale.ROOT, "keyless updates that superseded: %d of %d%n", updates, samples.get(2).size());
  }

  /** One owner's untimed "I live in A." then the series' timed write; returns the timed record. */
  private static MemoryRecord write(
      Mnemo m, int series, String owner, SplittableRandom random, List<Long> samples) {
    String from = CITIES[random.nextInt(CITIES.length)];
    String to =
        CITIES[
            (java.util.Arrays.asList(CITIES).indexOf(from) + 1 + random.nextInt(CITIES.length - 1))
                % CITIES.length];
    Instant said = Instant.parse("2026-01-05T10:00:00Z");
    m.remember(NewMemory.builder(owner, "I live in " + from + ".").recordedAt(said).build());
    NewMemory.Builder b =
        switch (series) {
          case 0 ->
              NewMemory.builder(owner, "I moved to " + to + " last month.")
                  .factKey("bench-" + owner);
          case 1 ->
              NewMemory.builder(
                  owner, "I adopted a cat called " + PETS[random.nextInt(PETS.length)] + ".");
          default -> NewMemory.builder(owner, "I moved to " + to + " last month.");
        };
    NewMemory memory = b.recordedAt(Instant.parse("2026-05-04T10:00:00Z")).build();
    long start = System.nanoTime();
    MemoryRecord rec = m.remember(memory);
    long t = System.nanoTime() - start;
    if (samples != null) samples.add(t);
    return rec;
  }
}

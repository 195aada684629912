package dev.mnemo.bench;

import dev.mnemo.MemoryRecord;
import dev.mnemo.spi.Embedder;
import dev.mnemo.store.lucene.LuceneMemoryStore;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.SplittableRandom;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * A Lucene store filled with synthetic records for benchmarks: {@code total} records, of which each
 * hot owner ({@code hot-<H>}) holds H and the rest are spread evenly over {@code owners} other
 * owners ({@code user-000042}), interleaved in a seeded random order so that no owner's records sit
 * together in the index. Records are written in time order (each one recorded after the previous,
 * evenly over the corpus's three years), as a real store receives them: index order is time order,
 * which is what makes a newest-first sort expensive when it breaks ties badly.
 *
 * <p>Filled through {@link dev.mnemo.spi.MemoryStore#apply} in batches (one commit each), with
 * records built by {@link SyntheticCorpus}. The store lives in {@code <dir>/store}; a manifest
 * ({@code <dir>/bench.properties}) written only after the last batch lets a later run reuse it when
 * the layout matches and the record count agrees; otherwise the directory's store is deleted and
 * rebuilt.
 */
public final class BenchStore {
  private static final String MANIFEST = "bench.properties";

  /** Bump when the corpus or layout changes, so that old stores are rebuilt. */
  private static final String CORPUS_VERSION = "2";

  /** A bench command's {@code --name value} pairs; anything else is refused. */
  public static java.util.Map<String, String> options(String[] args) {
    java.util.Map<String, String> o = new java.util.HashMap<>();
    for (int i = 0; i + 1 < args.length; i += 2) {
      if (!args[i].startsWith("--"))
        throw new IllegalArgumentException("unknown argument: " + args[i]);
      o.put(args[i].substring(2), args[i + 1]);
    }
    return o;
  }

  /**
   * The store a bench command asks for: {@code --total} (200,000), {@code --hot} owners' sizes
   * (comma-separated; 5 % and 25 % of the total), {@code --owners} (1 % of the total), {@code
   * --seed} (42).
   */
  public static Layout layout(java.util.Map<String, String> o) {
    int total = Integer.parseInt(o.getOrDefault("total", "200000"));
    List<Integer> hot =
        o.containsKey("hot")
            ? java.util.Arrays.stream(o.get("hot").split(","))
                .map(String::trim)
                .map(Integer::valueOf)
                .toList()
            : List.of(total / 20, total / 4);
    int owners =
        Integer.parseInt(o.getOrDefault("owners", Integer.toString(Math.max(1, total / 100))));
    return new Layout(total, hot, owners, Long.parseLong(o.getOrDefault("seed", "42")));
  }

  /**
   * The shape of a benchmark store.
   *
   * @param total records in the store
   * @param hot the hot owners' record counts (one owner per entry)
   * @param owners number of other owners sharing the remaining records
   * @param seed corpus seed
   */
  public record Layout(int total, List<Integer> hot, int owners, long seed) {
    public Layout {
      hot = List.copyOf(hot);
      long hotSum = hot.stream().mapToLong(Integer::longValue).sum();
      if (total < 1) throw new IllegalArgumentException("total must be >= 1, was " + total);
      if (hot.stream().anyMatch(h -> h < 1))
        throw new IllegalArgumentException("every hot size must be >= 1, was " + hot);
      if (hotSum > total) {
        throw new IllegalArgumentException(
            "the hot owners' records (" + hotSum + ") must fit in total (" + total + ")");
      }
      if (owners < 1) throw new IllegalArgumentException("owners must be >= 1, was " + owners);
    }

    /** Records of the non-hot owners. */
    public int rest() {
      return total - hot.stream().mapToInt(Integer::intValue).sum();
    }
  }

  /**
   * An open store and how it came to be.
   *
   * @param store the open store (the caller closes it)
   * @param reused whether an existing store was reused
   * @param fillNanos wall time of the fill (of the run that built it, when reused)
   * @param batchP50Nanos median time of one apply() batch during the fill
   */
  public record Opened(
      LuceneMemoryStore store, boolean reused, long fillNanos, long batchP50Nanos) {}

  private BenchStore() {}

  /** The hot owner holding {@code records} records. */
  public static String hotOwner(int records) {
    return "hot-" + records;
  }

  /**
   * Opens the store in {@code dir/store} if its manifest matches {@code layout}, else builds it.
   */
  public static Opened openOrBuild(
      Path dir, Layout layout, Embedder embedder, int batch, PrintStream log) {
    return openOrBuild(dir, layout, embedder, batch, log, LuceneMemoryStore.Layout.DEFAULT);
  }

  /**
   * The same, the store opened (and built) with its owners laid out as {@code storeLayout} says.
   */
  public static Opened openOrBuild(
      Path dir,
      Layout layout,
      Embedder embedder,
      int batch,
      PrintStream log,
      LuceneMemoryStore.Layout storeLayout) {
    Path storeDir = dir.resolve("store");
    Properties wanted = manifest(layout);
    Properties found = readManifest(dir);
    if (found != null && matches(found, wanted) && Files.isDirectory(storeDir)) {
      LuceneMemoryStore store = LuceneMemoryStore.open(storeDir, storeLayout);
      if (store.count() == layout.total()) {
        log.printf(Locale.ROOT, "reusing the store in %s (%,d records)%n", storeDir, store.count());
        awaitMoves(store, log);
        return new Opened(
            store,
            true,
            Long.parseLong(found.getProperty("fill_nanos", "0")),
            Long.parseLong(found.getProperty("batch_p50_nanos", "0")));
      }
      log.printf(
          Locale.ROOT,
          "the store in %s holds %,d records, not %,d: rebuilding%n",
          storeDir,
          store.count(),
          layout.total());
      store.close();
    }
    deleteRecursively(storeDir);
    try {
      Files.deleteIfExists(dir.resolve(MANIFEST));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return build(dir, storeDir, layout, wanted, embedder, batch, log, storeLayout);
  }

  /**
   * Waits for the owners' moves the open or the fill scheduled (an owner above the layout's limit,
   * for instance after the default limit changed), so that nothing is timed while one runs.
   */
  private static void awaitMoves(LuceneMemoryStore store, PrintStream log) {
    long t = System.nanoTime();
    store.awaitMoves();
    long ms = (System.nanoTime() - t) / 1_000_000;
    if (ms >= 100)
      log.printf(Locale.ROOT, "waited %,d ms for owners' moves to their own index%n", ms);
  }

  private static Opened build(
      Path dir,
      Path storeDir,
      Layout layout,
      Properties manifest,
      Embedder embedder,
      int batch,
      PrintStream log,
      LuceneMemoryStore.Layout storeLayout) {
    LuceneMemoryStore store = LuceneMemoryStore.open(storeDir, storeLayout);
    try {
      String[] ownerOf = owners(layout);
      SyntheticCorpus corpus = new SyntheticCorpus(layout.seed(), embedder);
      log.printf(
          Locale.ROOT,
          "filling %s: %,d records (hot owners %s, %,d other owners) in batches of %,d%n",
          storeDir,
          layout.total(),
          layout.hot(),
          layout.owners(),
          batch);
      long start = System.nanoTime();
      long lastLog = start;
      long[] batchNanos = new long[(layout.total() + batch - 1) / batch];
      int batches = 0;
      List<MemoryRecord> pending = new ArrayList<>(batch);
      for (int i = 0; i < layout.total(); i++) {
        pending.add(corpus.record(ownerOf[i], SyntheticCorpus.inTimeOrder(i, layout.total())));
        if (pending.size() == batch || i == layout.total() - 1) {
          long t = System.nanoTime();
          store.apply(pending, List.of());
          batchNanos[batches++] = System.nanoTime() - t;
          pending.clear();
          long now = System.nanoTime();
          if (now - lastLog > 30_000_000_000L || i == layout.total() - 1) {
            double secs = (now - start) / 1e9;
            double rate = (i + 1) / secs;
            log.printf(
                Locale.ROOT,
                "  %,d / %,d records, %.0f s, %,.0f records/s, ~%.0f s left%n",
                i + 1,
                layout.total(),
                secs,
                rate,
                (layout.total() - i - 1) / rate);
            lastLog = now;
          }
        }
      }
      long fill = System.nanoTime() - start;
      long p50 = Stats.of("apply batch", java.util.Arrays.copyOf(batchNanos, batches)).p50Nanos();
      manifest.setProperty("fill_nanos", Long.toString(fill));
      manifest.setProperty("batch_p50_nanos", Long.toString(p50));
      manifest.setProperty("batch", Integer.toString(batch));
      writeManifest(dir, manifest);
      awaitMoves(store, log);
      return new Opened(store, false, fill, p50);
    } catch (RuntimeException e) {
      store.close();
      throw e;
    }
  }

  /** Which owner each record index belongs to: exact counts per owner, in a seeded random order. */
  static String[] owners(Layout layout) {
    String[] out = new String[layout.total()];
    int i = 0;
    for (int h : layout.hot()) {
      String owner = hotOwner(h);
      for (int n = 0; n < h; n++) out[i++] = owner;
    }
    String[] names = new String[layout.owners()];
    for (int o = 0; o < names.length; o++) names[o] = String.format(Locale.ROOT, "user-%06d", o);
    for (int n = 0; i < out.length; n++) out[i++] = names[n % names.length];
    SplittableRandom r = new SplittableRandom(layout.seed() * 31 + 7);
    for (int j = out.length - 1; j > 0; j--) {
      int k = r.nextInt(j + 1);
      String t = out[j];
      out[j] = out[k];
      out[k] = t;
    }
    return out;
  }

  private static Properties manifest(Layout layout) {
    Properties p = new Properties();
    p.setProperty("corpus_version", CORPUS_VERSION);
    p.setProperty("total", Integer.toString(layout.total()));
    p.setProperty(
        "hot", layout.hot().stream().map(String::valueOf).collect(Collectors.joining(",")));
    p.setProperty("owners", Integer.toString(layout.owners()));
    p.setProperty("seed", Long.toString(layout.seed()));
    return p;
  }

  private static boolean matches(Properties found, Properties wanted) {
    for (String k : wanted.stringPropertyNames()) {
      if (!wanted.getProperty(k).equals(found.getProperty(k))) return false;
    }
    return true;
  }

  private static Properties readManifest(Path dir) {
    Path f = dir.resolve(MANIFEST);
    if (!Files.isRegularFile(f)) return null;
    Properties p = new Properties();
    try (InputStream in = Files.newInputStream(f)) {
      p.load(in);
      return p;
    } catch (IOException e) {
      return null;
    }
  }

  private static void writeManifest(Path dir, Properties p) {
    try (OutputStream out = Files.newOutputStream(dir.resolve(MANIFEST))) {
      p.store(out, "mnemo-bench store layout; the store in ./store is reused while this matches");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Bytes per index file kind (Lucene file extension: vec raw vectors, vex graph, fdt stored
   * fields...), largest first.
   */
  public static java.util.Map<String, Long> sizeByKind(Path storeDir) {
    java.util.Map<String, Long> out = new java.util.TreeMap<>();
    try (Stream<Path> files = Files.list(storeDir)) {
      for (Path f : (Iterable<Path>) files::iterator) {
        String name = f.getFileName().toString();
        int dot = name.lastIndexOf('.');
        String kind = dot < 0 ? name.replaceAll("_\\d+$", "") : name.substring(dot + 1);
        out.merge(kind, Files.size(f), Long::sum);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    java.util.Map<String, Long> sorted = new java.util.LinkedHashMap<>();
    out.entrySet().stream()
        .sorted(java.util.Map.Entry.<String, Long>comparingByValue().reversed())
        .forEach(e -> sorted.put(e.getKey(), e.getValue()));
    return sorted;
  }

  static void deleteRecursively(Path p) {
    if (!Files.exists(p)) return;
    try (Stream<Path> all = Files.walk(p)) {
      for (Path f : all.sorted(Comparator.reverseOrder()).toList()) Files.delete(f);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}

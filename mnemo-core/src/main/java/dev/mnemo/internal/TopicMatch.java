package dev.mnemo.internal;

import dev.mnemo.internal.ReadPath.Scored;
import dev.mnemo.spi.Embedder;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The fetch gate's name-free comparison, the relevance model's {@code tcos}: the embedder's {@link
 * Embedder#companion() companion} (a sentence-pair model) compares the message and a record with
 * the owner's background names (the names most of their records mention) replaced by "someone".
 *
 * <p>Every record of an owner names the owner, and a retrieval model reads that shared name as a
 * match: "How tall is Ines?" meets "Ines goes climbing on Thursdays" about as closely as "What
 * music does Ines like?" meets "Ines listens mostly to jazz". Without the name, "How tall is
 * someone?" and "someone goes climbing" have only their topics left to compare. Measured on the
 * gate's dev set (docs/evaluation.md): at the cosine that keeps 90 % of the answers, MiniLM on
 * name-free texts holds back 0.89 of the messages that need nothing, e5 on the texts as written
 * 0.24.
 *
 * <p>Only the first candidates by rank are compared (the gate decides on those; the others keep
 * {@code NaN}, a missing value the trees have a branch for): one message and at most {@link
 * #compared} records a recall, each record's vector cached by id and by the names taken out of it.
 * Thread-safe.
 */
final class TopicMatch {
  /** Candidates compared beyond the request's k. */
  static final int EXTRA = 3;

  /** What replaces a background name. */
  static final String SOMEONE = "someone";

  /** Record vectors kept: 10,000 of 384 floats is about 15 MB; when full, the cache starts over. */
  private static final int MAX_CACHED = 10_000;

  /** The companion, asked for on first use (a command that never recalls never loads it). */
  private final java.util.function.Supplier<Embedder> companion;

  private final ConcurrentHashMap<String, float[]> records = new ConcurrentHashMap<>();

  TopicMatch(java.util.function.Supplier<Embedder> companion) {
    this.companion = companion;
  }

  /** How many candidates a recall of {@code k} compares. */
  static int compared(int k) {
    return Math.max(k, 5) + EXTRA;
  }

  /**
   * Sets {@code s.topic} of the first {@code n} candidates still in the running (no outcome), in
   * the list's (rank) order.
   */
  void fill(List<Scored> scored, String message, Set<String> background, int n) {
    List<Scored> todo = new ArrayList<>();
    for (Scored s : scored) {
      if (todo.size() >= n) break;
      if (s.outcome == null && s.r.text() != null) todo.add(s);
    }
    Embedder model = todo.isEmpty() ? null : companion.get();
    if (model == null) return;
    float[] q = model.embedQuery(nameFree(message, background));
    List<String> keys = new ArrayList<>(todo.size());
    List<String> missingTexts = new ArrayList<>();
    List<String> missingKeys = new ArrayList<>();
    for (Scored s : todo) {
      Set<String> taken = present(s.r.text(), background);
      String key = s.r.id() + '\u0000' + String.join("\u0001", taken);
      keys.add(key);
      if (!records.containsKey(key) && !missingKeys.contains(key)) {
        missingKeys.add(key);
        missingTexts.add(nameFree(s.r.text(), taken));
      }
    }
    if (!missingTexts.isEmpty()) {
      List<float[]> vectors = model.embedPassages(missingTexts);
      if (records.size() + vectors.size() > MAX_CACHED) records.clear();
      for (int i = 0; i < vectors.size(); i++) records.put(missingKeys.get(i), vectors.get(i));
    }
    for (int i = 0; i < todo.size(); i++) {
      float[] r = records.get(keys.get(i));
      if (r != null) todo.get(i).topic = dot(q, r);
    }
  }

  /** The background names that occur in {@code text}, sorted. */
  private static Set<String> present(String text, Set<String> background) {
    Set<String> out = new TreeSet<>();
    for (String name : background) if (pattern(name).matcher(text).find()) out.add(name);
    return out;
  }

  /**
   * {@code text} with each of {@code names} (normalized keys, {@link
   * dev.mnemo.text.Entities#normalize}) replaced by {@value #SOMEONE}, whatever its case; a
   * possessive stays ("Ines's trip" becomes "someone's trip").
   */
  static String nameFree(String text, Set<String> names) {
    String out = text;
    for (String name : names) {
      Matcher m = pattern(name).matcher(out);
      if (m.find()) out = m.replaceAll(SOMEONE);
    }
    return out;
  }

  private static final ConcurrentHashMap<String, Pattern> PATTERNS = new ConcurrentHashMap<>();

  private static Pattern pattern(String name) {
    return PATTERNS.computeIfAbsent(
        name,
        n -> {
          if (PATTERNS.size() > 10_000) PATTERNS.clear();
          StringBuilder re = new StringBuilder("(?<![\\p{L}\\p{N}])");
          String[] words = n.toLowerCase(Locale.ROOT).split(" ");
          for (int i = 0; i < words.length; i++) {
            if (i > 0) re.append("\\s+");
            re.append(Pattern.quote(words[i]));
          }
          re.append("(?![\\p{L}\\p{N}])");
          return Pattern.compile(re.toString(), Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE);
        });
  }

  private static double dot(float[] a, float[] b) {
    int n = Math.min(a.length, b.length);
    double s = 0;
    for (int i = 0; i < n; i++) s += a[i] * b[i];
    return s;
  }
}

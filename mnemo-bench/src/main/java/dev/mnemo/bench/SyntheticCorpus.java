package dev.mnemo.bench;

import dev.mnemo.Authority;
import dev.mnemo.Category;
import dev.mnemo.ConflictPolicy;
import dev.mnemo.MemoryRecord;
import dev.mnemo.NewMemory;
import dev.mnemo.spi.Embedder;
import dev.mnemo.text.Entities;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.UUID;

/**
 * A seeded generator of memory texts, their vectors and questions about them, for filling a store
 * with a realistic shape without embedding a million texts.
 *
 * <p>Texts are short statements about people, places and things ("Maya is allergic to peanuts,
 * according to the call with Omar in Lisbon."), built from a fixed vocabulary so that BM25 sees
 * common and rare terms and the entity rule finds names. Each text belongs to one of {@link
 * #TOPICS} topics (a predicate and an object); only the topics' short phrases are embedded with the
 * real model, and a record's vector is its topic's vector plus seeded noise, renormalized (cosine
 * to its topic about {@value #TOPIC_COSINE}), so the vectors sit in the region of the space e5 uses
 * and cluster the way real memories do, and query vectors from the real model find near neighbours.
 * Same seed, same embedder ⇒ same records. Not thread-safe (one {@link SplittableRandom} per
 * instance).
 */
public final class SyntheticCorpus {

  /** Number of topics whose phrase is embedded with the real model. */
  public static final int TOPICS = 256;

  /** Target cosine between a record's vector and its topic's vector. */
  static final double TOPIC_COSINE = 0.9;

  /** The corpus's "now": records are dated before it, questions are asked at it. */
  public static final Instant NOW = Instant.parse("2026-03-01T12:00:00Z");

  private static final Duration SPAN = Duration.ofDays(3 * 365);
  private static final int NOISE_POOL = 1 << 14;

  static final String[] NAMES = {
    "Maya", "Omar", "Sofia", "Liam", "Aisha", "Noah", "Elena", "Lucas", "Priya", "Mateo", "Hana",
        "Jonas",
    "Chloe", "Ravi", "Ingrid", "Diego", "Amara", "Felix", "Yuki", "Tomas", "Leila", "Hugo", "Zara",
        "Emil",
    "Nadia", "Oscar", "Mei", "Pablo", "Freya", "Kofi", "Alma", "Sven", "Ines", "Arjun", "Clara",
        "Idris",
    "Lena", "Marco", "Noor", "Rafael", "Sara", "Theo", "Vera", "Yusuf", "Anya", "Bruno", "Dalia",
        "Erik",
    "Farah", "Gustav", "Helga", "Ivan", "Jana", "Karim", "Lotte", "Milan", "Nina", "Otto", "Petra",
        "Quentin",
    "Rosa", "Samir", "Tara", "Ugo", "Vivian", "Wanda", "Xavier", "Yara", "Zoltan", "Beatriz",
        "Cyrus", "Dora",
    "Enzo", "Fatima", "Gemma", "Hassan", "Iris", "Joel", "Kira", "Luca", "Mira", "Nils", "Olga",
        "Pedro",
  };

  static final String[] PLACES = {
    "Lisbon",
    "Berlin",
    "Kyoto",
    "Toronto",
    "Nairobi",
    "Oslo",
    "Madrid",
    "Seoul",
    "Dublin",
    "Lima",
    "Prague",
    "Cairo",
    "Vienna",
    "Austin",
    "Porto",
    "Hanoi",
    "Zurich",
    "Bogota",
    "Helsinki",
    "Marseille",
    "Krakow",
    "Istanbul",
    "Melbourne",
    "Denver",
    "Bristol",
    "Lyon",
    "Tallinn",
    "Accra",
    "Osaka",
    "Valencia",
    "Montreal",
    "Edinburgh",
    "Munich",
    "Athens",
    "Tbilisi",
    "Reykjavik",
    "Seville",
    "Ghent",
    "Bergen",
    "Trieste",
  };

  static final String[] PREDICATES = {
    "prefers",
    "is allergic to",
    "is working on",
    "bought",
    "wants to learn about",
    "cancelled",
    "scheduled a meeting about",
    "asked for a reminder about",
    "recommended",
    "dislikes",
    "is training for",
    "reads books about",
    "is saving money for",
    "complained about",
    "borrowed",
    "sold",
    "is worried about",
    "volunteered for",
    "signed up for",
    "forgot about",
    "ordered",
    "repaired",
    "returned",
    "is excited about",
    "needs help with",
    "gave a talk on",
    "is researching",
    "renewed",
    "lost",
    "booked",
  };

  static final String[] OBJECTS = {
    "window seats on long flights",
    "peanuts",
    "the quarterly budget report",
    "a used electric bike",
    "Spanish grammar",
    "jazz records",
    "a half marathon in the spring",
    "oat milk in coffee",
    "the garden shed",
    "a sourdough starter",
    "the kitchen renovation",
    "vegan restaurants",
    "a vintage camera",
    "the tax return",
    "a standing desk",
    "climbing shoes",
    "the wedding playlist",
    "a new laptop",
    "the dentist appointment",
    "noise cancelling headphones",
    "shellfish",
    "the team offsite",
    "a rescue dog",
    "the car insurance",
    "a pottery class",
    "black tea without sugar",
    "the mortgage application",
    "train travel over flying",
    "a chess tournament",
    "the database migration",
    "a birthday present for their sister",
    "strawberries",
    "the apartment lease",
    "a watercolor set",
    "the product launch",
    "early morning runs",
    "the piano lessons",
    "a hiking trip in the mountains",
    "the code review backlog",
    "gluten",
    "a secondhand sofa",
    "the conference in the autumn",
    "dark chocolate",
    "the kids' school fees",
    "a language exchange",
    "the broken dishwasher",
    "a vegetable garden",
    "the photography exhibition",
    "cold brew coffee",
    "the annual performance review",
    "a sailing course",
    "the moving boxes",
    "spicy food",
    "the library books",
    "a podcast about history",
    "the quarterly sales numbers",
    "a yoga retreat",
    "the bicycle helmet",
    "the hospital visit",
    "a board game night",
    "the insurance claim",
    "the holiday cottage",
    "cashews",
    "the client presentation",
    "a guitar amplifier",
    "the flu vaccine",
    "the recycling schedule",
    "a cookbook of Thai recipes",
    "the broken phone screen",
    "the neighbourhood association",
    "aisle seats",
    "the hiring plan",
    "a robot vacuum",
    "the swimming pool pass",
    "the security audit",
    "a winter coat",
    "lactose",
    "the research grant",
    "the family reunion",
    "a ceramic teapot",
    "the server outage",
  };

  private static final String[] DETAILS = {
    " in %P", " since %M %Y", ", according to the call with %N", " for the %A project",
        " before the trip to %P",
    " after talking to %N", " last %M", ", which %N mentioned twice", " (ticket %D)",
        " while staying in %P",
    " with %N and %N", ", order number %D", "",
  };

  private static final String[] ADJECTIVES = {
    "blue",
    "northern",
    "quiet",
    "urgent",
    "internal",
    "summer",
    "legacy",
    "shared",
    "mobile",
    "archive",
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
    "December",
  };

  private static final String[] QUESTIONS = {
    "what does %N prefer",
    "is %N allergic to anything",
    "what is %N working on",
    "what did %N buy recently",
    "what did %N say about %O",
    "remind me about %O",
    "%O",
    "anything about %O last week",
    "what happened with %O in %Y",
    "where did %N go last summer",
    "what does %N think of %O",
    "who mentioned %O",
    "plans for %O next month",
    "what did we decide about %O yesterday",
    "which restaurants does %N like in %P",
    "what should I remember about %N",
  };

  private final long seed;
  private final SplittableRandom random;
  private final Embedder embedder;
  private float[][] topicVectors;
  private float[][] noise;

  /**
   * A corpus with this seed. The {@link #TOPICS} topic phrases are embedded once with {@code
   * embedder} (a second or two with e5-small-v2-q) when the first record is asked for.
   */
  public SyntheticCorpus(long seed, Embedder embedder) {
    this.seed = seed;
    this.random = new SplittableRandom(seed);
    this.embedder = embedder;
  }

  /**
   * {@code n} questions as users ask them, from their own seeded stream (independent of the
   * records).
   */
  public static List<String> questions(int n, long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    List<String> out = new ArrayList<>(n);
    for (int i = 0; i < n; i++)
      out.add(fill(QUESTIONS[r.nextInt(QUESTIONS.length)], r.nextInt(TOPICS), r));
    return out;
  }

  private void embedTopics() {
    List<String> phrases = new ArrayList<>(TOPICS);
    for (int t = 0; t < TOPICS; t++) phrases.add(topicPhrase(t));
    this.topicVectors = embedder.embedPassages(phrases).toArray(new float[0][]);
    int dim = topicVectors[0].length;
    // cos(v, topic) = 1 / sqrt(1 + |noise|^2) and |noise|^2 = dim * 2 sigma^2 (two pool vectors per
    // record).
    double total = 1 / (TOPIC_COSINE * TOPIC_COSINE) - 1;
    double sigma = Math.sqrt(total / dim / 2);
    SplittableRandom noiseRandom = new SplittableRandom(seed ^ 0x5DEECE66DL);
    this.noise = new float[NOISE_POOL][dim];
    for (float[] n : noise) {
      for (int i = 0; i < dim; i++) n[i] = (float) (noiseRandom.nextGaussian() * sigma);
    }
  }

  /** The phrase of topic {@code t}: a predicate and an object, fixed by {@code t} alone. */
  static String topicPhrase(int t) {
    return PREDICATES[t % PREDICATES.length]
        + " "
        + OBJECTS[(t * 7 + t / PREDICATES.length) % OBJECTS.length];
  }

  /**
   * One stored record of {@code owner}, recorded at a random time of the corpus's span (not in time
   * order).
   */
  public MemoryRecord record(String owner) {
    return record(owner, NOW.minusMillis((long) (random.nextDouble() * SPAN.toMillis())));
  }

  /**
   * The time of the {@code i}-th of {@code n} records written in time order: spread evenly over the
   * corpus's span, strictly increasing with {@code i} (to the millisecond), the last just before
   * {@link #NOW}. Real stores receive their records as time passes, so index order is time order.
   */
  public static Instant inTimeOrder(long i, long n) {
    long span = SPAN.toMillis();
    return NOW.minusMillis(span - (long) ((i + 1) * (double) span / (n + 1)));
  }

  /**
   * One stored record of {@code owner} recorded at {@code recordedAt}, with a synthetic vector;
   * fields vary as real memories do.
   */
  public MemoryRecord record(String owner, Instant recordedAt) {
    int topic = random.nextInt(TOPICS);
    String text = text(topic);
    Instant recorded = recordedAt.truncatedTo(java.time.temporal.ChronoUnit.MILLIS);
    double c = random.nextDouble();
    Category category =
        c < 0.5
            ? Category.EPISODIC
            : c < 0.85 ? Category.SEMANTIC : c < 0.9 ? Category.PROCEDURAL : Category.TASK;
    String factKey = random.nextDouble() < 0.2 ? "fk-" + topic + "-" + random.nextInt(50) : null;
    // About 5% are superseded versions: expired some days after they were recorded.
    Instant expired = null;
    if (factKey != null && random.nextDouble() < 0.25) {
      Instant e = recorded.plus(Duration.ofDays(1 + random.nextInt(120)));
      if (e.isBefore(NOW)) expired = e;
    }
    String episode =
        category == Category.EPISODIC ? "ep-" + Integer.toHexString(random.nextInt(1 << 20)) : null;
    int seq = episode == null ? -1 : random.nextInt(40);
    String context =
        episode != null && random.nextDouble() < 0.2
            ? "Session on " + recorded.toString().substring(0, 10)
            : null;
    double a = random.nextDouble();
    Authority authority =
        a < 0.7 ? Authority.EXPLICIT : a < 0.95 ? Authority.DERIVED : Authority.VERIFIED;
    Map<String, String> meta =
        random.nextDouble() < 0.3
            ? Map.of("channel", random.nextBoolean() ? "chat" : "email")
            : Map.of();
    String scope = random.nextDouble() < 0.2 ? "project-" + random.nextInt(5) : null;
    return new MemoryRecord(
        id(),
        owner,
        scope,
        category,
        text,
        context,
        List.of("turn-" + Long.toHexString(random.nextLong() >>> 20)),
        episode,
        seq,
        recorded,
        expired,
        recorded,
        null,
        factKey,
        factKey == null ? 0 : 1,
        null,
        0.2 + 0.7 * random.nextDouble(),
        authority,
        ConflictPolicy.SUPERSEDE,
        Entities.extract(text),
        random.nextDouble() < 0.1 ? random.nextInt(5) : 0,
        null,
        vector(topic),
        embedder.modelId(),
        meta,
        java.util.List.of());
  }

  /** A memory to write through the engine (for ingest), of a random topic. */
  public NewMemory newMemory(String owner) {
    int topic = random.nextInt(TOPICS);
    NewMemory.Builder b =
        NewMemory.builder(owner, text(topic))
            .category(random.nextBoolean() ? Category.EPISODIC : Category.SEMANTIC)
            .importance(0.2 + 0.7 * random.nextDouble())
            .source("turn-" + Long.toHexString(random.nextLong() >>> 20));
    if (random.nextDouble() < 0.2) b.factKey("fk-" + topic + "-" + random.nextInt(50));
    return b.build();
  }

  private String text(int topic) {
    StringBuilder s = new StringBuilder();
    s.append(pick(NAMES, random)).append(' ').append(topicPhrase(topic));
    int details = random.nextInt(3);
    for (int i = 0; i < details; i++)
      s.append(fill(DETAILS[random.nextInt(DETAILS.length)], topic, random));
    s.append('.');
    return s.toString();
  }

  private static String fill(String template, int topic, SplittableRandom random) {
    StringBuilder out = new StringBuilder(template.length() + 32);
    for (int i = 0; i < template.length(); i++) {
      char ch = template.charAt(i);
      if (ch != '%' || i + 1 == template.length()) {
        out.append(ch);
        continue;
      }
      char k = template.charAt(++i);
      switch (k) {
        case 'N' -> out.append(pick(NAMES, random));
        case 'P' -> out.append(pick(PLACES, random));
        case 'M' -> out.append(pick(MONTHS, random));
        case 'Y' -> out.append(2023 + random.nextInt(3));
        case 'A' -> out.append(pick(ADJECTIVES, random));
        case 'D' -> out.append(10_000 + random.nextInt(90_000));
        case 'O' -> out.append(OBJECTS[(topic * 7 + topic / PREDICATES.length) % OBJECTS.length]);
        default -> out.append('%').append(k);
      }
    }
    return out.toString();
  }

  private float[] vector(int topic) {
    if (topicVectors == null) embedTopics();
    float[] base = topicVectors[topic];
    float[] n1 = noise[random.nextInt(NOISE_POOL)];
    float[] n2 = noise[random.nextInt(NOISE_POOL)];
    float[] v = new float[base.length];
    double norm = 0;
    for (int i = 0; i < v.length; i++) {
      v[i] = base[i] + n1[i] - n2[i];
      norm += (double) v[i] * v[i];
    }
    float inv = (float) (1 / Math.sqrt(norm));
    for (int i = 0; i < v.length; i++) v[i] *= inv;
    return v;
  }

  private String id() {
    // Shaped like the engine's random UUIDs (version 4), so the id terms look like production ones.
    long msb = (random.nextLong() & 0xFFFFFFFFFFFF0FFFL) | 0x0000000000004000L;
    long lsb = (random.nextLong() & 0x3FFFFFFFFFFFFFFFL) | 0x8000000000000000L;
    return new UUID(msb, lsb).toString();
  }

  private static String pick(String[] from, SplittableRandom random) {
    return from[random.nextInt(from.length)];
  }
}

package dev.mnemo.json;

import static dev.mnemo.json.Nodes.putIfSet;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mnemo.Category;
import dev.mnemo.Focus;
import dev.mnemo.Freshness;
import dev.mnemo.Fusion;
import dev.mnemo.InvalidRequestException;
import dev.mnemo.InvalidRequestException.Violation;
import dev.mnemo.Packing;
import dev.mnemo.RecallRequest;
import dev.mnemo.TemporalMode;
import dev.mnemo.TimeFilter;
import dev.mnemo.Weights;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The wire form of a recall request ({@link RecallRequest}) and of its {@link Weights}: the body of
 * {@code POST /v1/recall}, an MCP {@code recall}, a logged request. Reading is strict (unknown
 * fields refused, types checked, every problem at once as an {@link InvalidRequestException});
 * absent options keep {@link RecallRequest}'s defaults. The question is {@code query} or {@code
 * text}. Stateless, thread-safe.
 */
public final class RequestJson {
  private RequestJson() {}

  private static final Set<String> REQUEST_FIELDS =
      Set.of(
          "owner",
          "query",
          "text",
          "asked_at",
          "mode",
          "at",
          "scope",
          "categories",
          "metadata",
          "k",
          "budget_tokens",
          "threshold",
          "relative_threshold",
          "fusion",
          "packing",
          "time_filter",
          "weights",
          "mmr_lambda",
          "duplicate_similarity",
          "candidates",
          "explain",
          "half_lives",
          "max_ages",
          "focus",
          "min_relevance",
          "exhaustive",
          "principals",
          "block_relevance",
          "usage_note");
  private static final Set<String> FOCUS_FIELDS =
      Set.of("question", "task", "artifact", "entities");

  /**
   * A request's fields and {@code log}, the retrieval log's switch ({@code log: false} keeps a
   * recall out of it).
   */
  public static final Set<String> FIELDS = union(REQUEST_FIELDS, "log");

  /** The weights' fields, in their wire order. */
  private static final List<String> WEIGHTS =
      List.of(
          "dense",
          "bm25",
          "entity",
          "recency",
          "importance",
          "frequency",
          "authority",
          "time_match",
          "window",
          "speaker",
          "context",
          "bm25_scale");

  private static Set<String> union(Set<String> a, String b) {
    Set<String> out = new HashSet<>(a);
    out.add(b);
    return Set.copyOf(out);
  }

  /** A recall request from its JSON form ({@code query} or {@code text} holds the question). */
  public static RecallRequest read(JsonNode n, String path) {
    if (n == null || !n.isObject()) {
      throw new InvalidRequestException(
          path + "request", null, path + "request must be a JSON object");
    }
    FieldReader x = FieldReader.of(n, path, "request").only(FIELDS);
    List<Violation> v = x.violations();
    String query = n.has("query") ? x.text("query") : x.text("text");
    RecallRequest.Builder b = RecallRequest.builder(x.text("owner"), query);
    b.askedAt(x.instant("asked_at")).scope(x.text("scope")).metadata(x.stringMap("metadata"));
    if (x.has("principals")) b.principals(new LinkedHashSet<>(x.strings("principals")));
    String mode = x.text("mode");
    Instant at = x.instant("at");
    x.guard(() -> b.mode(TemporalMode.of(mode, at)));
    List<String> cats = x.strings("categories");
    if (!cats.isEmpty()) {
      Set<Category> set = EnumSet.noneOf(Category.class);
      for (String c : cats) {
        Category cat = x.guard(() -> Category.fromCode(path + "categories", c));
        if (cat != null) set.add(cat);
      }
      b.categories(set);
    }
    Integer i;
    if ((i = x.integer("k")) != null) b.k(i);
    if ((i = x.integer("budget_tokens")) != null) b.budgetTokens(i);
    if ((i = x.integer("candidates")) != null) b.candidates(i);
    Double d;
    if ((d = x.number("threshold")) != null) b.threshold(d);
    if ((d = x.number("relative_threshold")) != null) b.relativeThreshold(d);
    if ((d = x.number("min_relevance")) != null) b.minRelevance(d);
    if ((d = x.number("mmr_lambda")) != null) b.mmrLambda(d);
    if ((d = x.number("duplicate_similarity")) != null) b.duplicateSimilarity(d);
    String s;
    if ((s = x.text("fusion")) != null) {
      String f = s;
      x.guard(() -> b.fusion(Fusion.of(f)));
    }
    if ((s = x.text("packing")) != null) {
      String f = s;
      x.guard(() -> b.packing(Packing.fromCode(f)));
    }
    if ((s = x.text("time_filter")) != null) {
      String f = s;
      x.guard(() -> b.timeFilter(TimeFilter.fromCode(f)));
    }
    Boolean flag;
    if ((flag = x.bool("explain")) != null) b.explain(flag);
    if ((flag = x.bool("block_relevance")) != null) b.blockRelevance(flag);
    JsonNode note = x.get("usage_note");
    if (note != null) {
      if (note.isBoolean()) b.usageNote(note.asBoolean() ? RecallRequest.USAGE_NOTE : null);
      else if (note.isTextual()) b.usageNote(note.asText());
      else
        v.add(
            FieldReader.wrongType(
                path + "usage_note", note, "a line of text, or true for the default note"));
    }
    JsonNode exhaustive = x.get("exhaustive");
    if (exhaustive != null) {
      if (exhaustive.isBoolean()) b.exhaustive(exhaustive.asBoolean());
      else
        v.add(
            FieldReader.wrongType(
                path + "exhaustive",
                exhaustive,
                "true or false (or absent: on for questions that count or list)"));
    }
    JsonNode hl = x.get("half_lives");
    Map<String, Duration> kindHalfLives = new TreeMap<>();
    if (hl != null) b.halfLives(halfLives(hl, path + "half_lives", v, kindHalfLives));
    JsonNode max = x.get("max_ages");
    Map<String, Duration> maxAges = new TreeMap<>();
    if (max != null) durations(max, path + "max_ages", v, maxAges);
    if (!kindHalfLives.isEmpty() || !maxAges.isEmpty())
      x.guard(() -> b.freshness(new Freshness(kindHalfLives, maxAges)));
    if (n.has("weights")) x.guard(() -> b.weights(weights(n.get("weights"), path + "weights.")));
    FieldReader focus = x.object("focus", "an object {question, task, artifact, entities}");
    if (focus != null) {
      focus.only(FOCUS_FIELDS);
      b.focus(
          new Focus(
              focus.text("question"),
              focus.text("task"),
              focus.text("artifact"),
              focus.strings("entities")));
    }
    Boolean log = x.bool("log");
    if (log != null) b.log(log);
    x.throwIfAny();
    try {
      return b.build();
    } catch (InvalidRequestException e) {
      throw prefixed(e, path);
    }
  }

  /**
   * Half-lives per category (a category code) or per fact kind (any other key, into {@code kinds}):
   * a number of days, or an ISO-8601 duration such as {@code "P30D"}.
   */
  private static Map<Category, Duration> halfLives(
      JsonNode n, String path, List<Violation> v, Map<String, Duration> kinds) {
    Map<Category, Duration> out = new EnumMap<>(Category.class);
    Map<String, Duration> all = new LinkedHashMap<>();
    durations(n, path, v, all);
    for (var e : all.entrySet()) {
      Category c = null;
      for (Category x : Category.values()) if (x.code().equals(e.getKey())) c = x;
      if (c != null) out.put(c, e.getValue());
      else kinds.put(e.getKey(), e.getValue());
    }
    return out;
  }

  /** An object of key -> a number of days or an ISO-8601 duration, into {@code out}. */
  private static void durations(
      JsonNode n, String path, List<Violation> v, Map<String, Duration> out) {
    if (!n.isObject()) {
      v.add(FieldReader.wrongType(path, n, "an object of category or fact kind -> days"));
      return;
    }
    for (var e : n.properties()) {
      String f = path + "." + e.getKey();
      JsonNode x = e.getValue();
      try {
        if (x.isNumber()) {
          out.put(e.getKey(), Duration.ofMillis(Math.round(x.asDouble() * 86_400_000L)));
        } else if (x.isTextual()) {
          out.put(e.getKey(), Duration.parse(x.asText()));
        } else {
          v.add(FieldReader.wrongType(f, x, "a number of days or an ISO-8601 duration"));
        }
      } catch (DateTimeParseException | ArithmeticException ex) {
        v.add(
            new Violation(
                f,
                x.asText(),
                f
                    + " must be a number of days or an ISO-8601 duration (P30D), was '"
                    + x.asText()
                    + "'"));
      }
    }
  }

  /** Weights from JSON; absent fields keep their defaults. The first bad field is the exception. */
  public static Weights weights(JsonNode n, String path) {
    Weights w = Weights.DEFAULT;
    if (n == null || !n.isObject())
      throw new InvalidRequestException(path, null, path + " must be an object");
    for (var e : n.properties()) {
      if (!e.getValue().isNumber()) {
        throw new InvalidRequestException(
            List.of(FieldReader.wrongType(path + e.getKey(), e.getValue(), "a number")));
      }
      double x = e.getValue().asDouble();
      w =
          switch (e.getKey()) {
            case "dense" -> w.withDense(x);
            case "bm25" -> w.withBm25(x);
            case "entity" -> w.withEntity(x);
            case "recency" -> w.withRecency(x);
            case "importance" -> w.withImportance(x);
            case "frequency" -> w.withFrequency(x);
            case "authority" -> w.withAuthority(x);
            case "time_match" -> w.withTimeMatch(x);
            case "window" -> w.withWindow(x);
            case "speaker" -> w.withSpeaker(x);
            case "context" -> w.withContext(x);
            case "bm25_scale" -> w.withBm25Scale(x);
            default ->
                throw new InvalidRequestException(
                    List.of(FieldReader.unknownField(path + e.getKey(), WEIGHTS)));
          };
    }
    return w;
  }

  /** The weights' JSON form (the inverse of {@link #weights(JsonNode, String)}). */
  public static ObjectNode weights(Weights w) {
    ObjectNode o = JsonCodec.object();
    double[] values = {
      w.dense(),
      w.bm25(),
      w.entity(),
      w.recency(),
      w.importance(),
      w.frequency(),
      w.authority(),
      w.timeMatch(),
      w.window(),
      w.speaker(),
      w.context(),
      w.bm25Scale()
    };
    for (int i = 0; i < values.length; i++) o.put(WEIGHTS.get(i), values[i]);
    return o;
  }

  /**
   * A recall request's JSON form (the inverse of {@link #read}): every option, so the server
   * resolves exactly the request the caller built. RRF is sent by its code, so a constant other
   * than the default 60 does not travel.
   */
  public static ObjectNode write(RecallRequest r) {
    ObjectNode o = JsonCodec.object();
    o.put("owner", r.owner());
    o.put("query", r.query());
    putIfSet(o, "asked_at", r.askedAt());
    o.put("mode", r.mode().code());
    if (r.mode() instanceof TemporalMode.ValidAt(Instant at)) o.put("at", at.toString());
    if (r.mode() instanceof TemporalMode.KnownAt(Instant at)) o.put("at", at.toString());
    putIfSet(o, "scope", r.scope());
    if (!r.categories().isEmpty())
      r.categories().stream().map(Category::code).sorted().forEach(o.putArray("categories")::add);
    if (!r.metadata().isEmpty()) new TreeMap<>(r.metadata()).forEach(o.putObject("metadata")::put);
    if (!r.principals().isEmpty())
      new TreeSet<>(r.principals()).forEach(o.putArray("principals")::add);
    if (r.blockRelevance()) o.put("block_relevance", true);
    putIfSet(o, "usage_note", r.usageNote());
    o.put("k", r.k());
    o.put("budget_tokens", r.budgetTokens());
    o.put("threshold", r.threshold());
    o.put("relative_threshold", r.relativeThreshold());
    if (r.minRelevance() != null) o.put("min_relevance", r.minRelevance());
    if (r.exhaustive() != null) o.put("exhaustive", r.exhaustive());
    o.put("fusion", r.fusion().code());
    o.put("packing", r.packing().code());
    o.put("time_filter", r.timeFilter().code());
    o.set("weights", weights(r.weights()));
    ObjectNode hl = o.putObject("half_lives");
    new TreeMap<>(r.halfLives()).forEach((c, d) -> hl.put(c.code(), d.toString()));
    if (r.freshness() != null) {
      r.freshness().halfLives().forEach((k, d) -> hl.put(k, d.toString()));
      if (!r.freshness().maxAges().isEmpty()) {
        ObjectNode max = o.putObject("max_ages");
        r.freshness().maxAges().forEach((k, d) -> max.put(k, d.toString()));
      }
    }
    o.put("mmr_lambda", r.mmrLambda());
    o.put("duplicate_similarity", r.duplicateSimilarity());
    o.put("candidates", r.candidates());
    o.put("explain", r.explain());
    if (!r.log()) o.put("log", false);
    if (!r.focus().isEmpty()) {
      ObjectNode f = o.putObject("focus");
      putIfSet(f, "question", r.focus().question());
      putIfSet(f, "task", r.focus().task());
      putIfSet(f, "artifact", r.focus().artifact());
      if (!r.focus().entities().isEmpty())
        r.focus().entities().forEach(f.putArray("entities")::add);
    }
    return o;
  }

  private static InvalidRequestException prefixed(InvalidRequestException e, String path) {
    if (path.isEmpty()) return e;
    List<Violation> out = new ArrayList<>();
    for (Violation x : e.violations())
      out.add(new Violation(path + x.field(), x.value(), path + x.message()));
    return new InvalidRequestException(out);
  }
}

package dev.mnemo.llm;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.mnemo.Authority;
import dev.mnemo.Category;
import dev.mnemo.InvalidRequestException;
import dev.mnemo.NewMemory;
import dev.mnemo.Turn;
import dev.mnemo.spi.Extractor;
import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The LLM extractor: asks a chat model which decisions, preferences, goals, recurring difficulties
 * and lasting facts a batch of turns holds, as JSON records, and turns them into candidate
 * memories.
 *
 * <p>One call serves up to {@code maxTurnsPerCall} turns (default {@value
 * #DEFAULT_TURNS_PER_CALL}); a longer batch is cut into consecutive chunks, each with the turns
 * before it as read-only context. The prompt ({@link #SYSTEM_PROMPT}) excludes small talk, one-day
 * details and personal data the owner did not volunteer. The reply is checked strictly ({@link
 * JsonChat}): every field present, no unknown field, {@code importance} in [0, 1], {@code category}
 * one of Mnemo's, {@code kind} one of decision, preference, goal, difficulty, fact, {@code
 * fact_key} a lower-case key, {@code valid_from} a date or instant, every {@code sources} id a turn
 * of the chunk (not of its context) and at least one of them not the assistant's (a memory rests on
 * what the person said). An invalid reply is asked again once; then the whole batch fails with an
 * {@link ExtractionException} (retriable when the provider, not the reply, failed) and nothing of
 * it is returned, so nothing is half-written.
 *
 * <p>Candidates: {@code valid_from} as the model resolved it against the turn's time (a date is the
 * start of that day in the batch's zone), else the latest source turn's time; recorded at the
 * latest source turn's time; authority {@code derived}; metadata {@code kind} and {@code
 * extractor=llm}. Thread-safe.
 */
public final class LlmExtractor implements Extractor {

  public static final int DEFAULT_TURNS_PER_CALL = 30;

  /** The fixed instructions; the turns go in the user message. */
  public static final String SYSTEM_PROMPT =
      """
      You maintain the long-term memory of an assistant about the people it talks with. From the \
      conversation turns you are given, extract only what will still matter weeks or months from now:
      - decisions the person made ("decided to move to Berlin", "chose PostgreSQL for the project"),
      - lasting preferences ("prefers tea to coffee", "likes concise answers"),
      - goals and plans ("wants to run a marathon in 2027"),
      - recurring difficulties (problems that keep coming back: "often struggles with Gradle builds"),
      - lasting facts the person volunteered about their own life (job, home, family, pets, skills).
      Do NOT extract:
      - small talk, greetings, thanks, jokes, filler,
      - one-day details (today's lunch, the weather, a passing mood, a one-off errand),
      - personal data the person did not volunteer themselves (what the assistant or others guessed \
      about their health, religion, politics, finances, sexuality), and no contact or account data,
      - what the assistant said, unless the person accepted it as their decision,
      - anything from the "context" turns: they are shown only so that you understand the others.
      Write each memory as one self-contained sentence in the third person that names the person \
      ("Maya prefers Vim for editing."). Give each one:
      - "text": the sentence,
      - "kind": "decision", "preference", "goal", "difficulty" or "fact",
      - "category": "semantic" (facts, preferences, decisions), "episodic" (a dated event), \
      "procedural" (how the person wants something done) or "task" (a goal or task in progress),
      - "importance": 0.0 to 1.0 (0.9 life decisions and strong preferences, 0.5 ordinary facts, 0.2 minor),
      - "fact_key": a short lower-case snake_case key naming the fact, shared by every statement of the \
      same fact so that a later change replaces it ("home_city", "editor", "diet"), or null,
      - "valid_from": when it became true, resolved against the time of the turn it comes from \
      ("since last May" said on 2026-03-10 is "2025-05-01"), as YYYY-MM-DD or an ISO-8601 instant; \
      null when the turn does not say (the turn's time is used),
      - "entities": the names of people, places, products and organisations it mentions ([] if none),
      - "sources": the ids of the turns it comes from (at least one, only ids of turns to extract from).
      Reply with one JSON object and nothing else: {"memories": [...]}. An empty list is a valid answer.""";

  private static final Set<String> KINDS =
      Set.of("decision", "preference", "goal", "difficulty", "fact");
  private static final Pattern FACT_KEY = Pattern.compile("[a-z0-9][a-z0-9_.:-]{0,63}");
  static final int MAX_TEXT = 1_000;

  /** The reply's shape. */
  record Reply(@JsonProperty("memories") List<Item> memories) {}

  /** One extracted memory as the model gives it. */
  record Item(
      @JsonProperty("text") String text,
      @JsonProperty("kind") String kind,
      @JsonProperty("category") String category,
      @JsonProperty("importance") double importance,
      @JsonProperty("fact_key") String factKey,
      @JsonProperty("valid_from") String validFrom,
      @JsonProperty("entities") List<String> entities,
      @JsonProperty("sources") List<String> sources) {}

  private final JsonChat chat;
  private final int maxTurnsPerCall;

  public LlmExtractor(JsonChat chat, int maxTurnsPerCall) {
    this.chat = Objects.requireNonNull(chat, "chat");
    if (maxTurnsPerCall < 1)
      throw new IllegalArgumentException("maxTurnsPerCall must be >= 1, was " + maxTurnsPerCall);
    this.maxTurnsPerCall = maxTurnsPerCall;
  }

  public LlmExtractor(JsonChat chat) {
    this(chat, DEFAULT_TURNS_PER_CALL);
  }

  @Override
  public String id() {
    return "llm";
  }

  @Override
  public List<NewMemory> extract(Batch batch) {
    Objects.requireNonNull(batch, "batch");
    List<NewMemory> out = new ArrayList<>();
    List<Turn> turns = batch.turns();
    for (int from = 0; from < turns.size(); from += maxTurnsPerCall) {
      List<Turn> chunk = turns.subList(from, Math.min(turns.size(), from + maxTurnsPerCall));
      List<Turn> context = new ArrayList<>(batch.context());
      context.addAll(turns.subList(Math.max(0, from - maxTurnsPerCall), from));
      out.addAll(extractChunk(batch.owner(), context, chunk, batch.zone()));
    }
    return out;
  }

  private List<NewMemory> extractChunk(
      String owner, List<Turn> context, List<Turn> chunk, ZoneId zone) {
    Map<String, Turn> byId = new HashMap<>();
    for (Turn t : chunk) byId.put(t.id(), t);
    Reply reply;
    try {
      reply =
          chat.ask(
              SYSTEM_PROMPT, userMessage(owner, context, chunk), Reply.class, r -> check(r, byId));
    } catch (LlmException e) {
      throw new ExtractionException(
          "LLM extraction of "
              + chunk.size()
              + " turns of owner '"
              + owner
              + "' (first "
              + chunk.get(0).id()
              + ") failed: "
              + e.getMessage(),
          e.retriable(),
          e);
    }
    List<NewMemory> out = new ArrayList<>();
    for (Item it : reply.memories()) out.add(toMemory(owner, it, byId, zone));
    return out;
  }

  static String userMessage(String owner, List<Turn> context, List<Turn> chunk) {
    StringBuilder b =
        new StringBuilder("The person whose memory this is: ").append(owner).append('\n');
    if (!context.isEmpty()) {
      b.append("\nContext turns (for understanding only; extract nothing from them):\n");
      for (Turn t : context) line(b, t);
    }
    b.append("\nTurns to extract from:\n");
    for (Turn t : chunk) line(b, t);
    return b.toString();
  }

  private static void line(StringBuilder b, Turn t) {
    b.append('[').append(t.id()).append("] ");
    if (t.at() != null) b.append('(').append(t.at()).append(") ");
    b.append(t.role().code());
    if (t.speaker() != null && !t.speaker().isBlank()) b.append(' ').append(t.speaker());
    b.append(": ").append(t.text().replace('\n', ' ')).append('\n');
  }

  static void check(Reply r, Map<String, Turn> turns) {
    if (r.memories() == null) throw new JsonChat.InvalidReply("memories must be a list, was null");
    for (int i = 0; i < r.memories().size(); i++) {
      Item it = r.memories().get(i);
      String at = "memories[" + i + "].";
      if (it == null)
        throw new JsonChat.InvalidReply("memories[" + i + "] must be an object, was null");
      if (it.text() == null || it.text().isBlank())
        throw new JsonChat.InvalidReply(at + "text must not be empty");
      if (it.text().length() > MAX_TEXT) {
        throw new JsonChat.InvalidReply(
            at + "text must be at most " + MAX_TEXT + " characters, was " + it.text().length());
      }
      if (!KINDS.contains(it.kind())) {
        throw new JsonChat.InvalidReply(
            at + "kind must be one of " + KINDS + ", was '" + it.kind() + "'");
      }
      try {
        Category.fromCode(at + "category", it.category());
      } catch (InvalidRequestException e) {
        throw new JsonChat.InvalidReply(e.getMessage());
      }
      if (!(it.importance() >= 0 && it.importance() <= 1)) {
        throw new JsonChat.InvalidReply(
            at + "importance must be in [0, 1], was " + it.importance());
      }
      if (it.factKey() != null && !FACT_KEY.matcher(it.factKey()).matches()) {
        throw new JsonChat.InvalidReply(
            at
                + "fact_key must be lower-case letters, digits and _.:- (at most 64), or null, "
                + "was '"
                + it.factKey()
                + "'");
      }
      if (it.validFrom() != null) parseTime(at + "valid_from", it.validFrom(), ZoneId.of("UTC"));
      if (it.entities() == null)
        throw new JsonChat.InvalidReply(at + "entities must be a list (maybe empty), was null");
      for (String e : it.entities()) {
        if (e == null || e.isBlank())
          throw new JsonChat.InvalidReply(at + "entities must not hold an empty name");
      }
      if (it.sources() == null || it.sources().isEmpty()) {
        throw new JsonChat.InvalidReply(at + "sources must name at least one turn id");
      }
      for (String s : it.sources()) {
        if (!turns.containsKey(s)) {
          throw new JsonChat.InvalidReply(
              at
                  + "sources must be ids of the turns to extract from "
                  + turns.keySet()
                  + ", was '"
                  + s
                  + "'");
        }
      }
      // What the person volunteered: a memory resting only on what the assistant said is not
      // theirs.
      if (it.sources().stream().allMatch(s -> turns.get(s).role() == Turn.Role.ASSISTANT)) {
        throw new JsonChat.InvalidReply(
            at
                + "sources must include a turn of the person, not only the assistant's "
                + it.sources());
      }
    }
  }

  /** A date (the start of that day in {@code zone}) or an instant with an offset. */
  static Instant parseTime(String field, String v, ZoneId zone) {
    try {
      if (v.length() == 10) return LocalDate.parse(v).atStartOfDay(zone).toInstant();
      return OffsetDateTime.parse(v).toInstant();
    } catch (DateTimeParseException e) {
      throw new JsonChat.InvalidReply(
          field + " must be YYYY-MM-DD or an ISO-8601 instant, was '" + v + "'");
    }
  }

  private static NewMemory toMemory(String owner, Item it, Map<String, Turn> turns, ZoneId zone) {
    List<String> sources = it.sources().stream().distinct().toList();
    Instant latest = null;
    for (String s : sources) {
      Instant at = turns.get(s).at();
      if (at != null && (latest == null || at.isAfter(latest))) latest = at;
    }
    Instant validFrom =
        it.validFrom() == null ? latest : parseTime("valid_from", it.validFrom(), zone);
    NewMemory.Builder b =
        NewMemory.builder(owner, it.text().strip())
            .category(Category.fromCode("category", it.category()))
            .importance(it.importance())
            .factKey(it.factKey())
            .entities(it.entities().stream().map(String::strip).distinct().toList())
            .sources(sources)
            .authority(Authority.DERIVED)
            .recordedAt(latest)
            .validFrom(validFrom)
            .metadata(metadata(it, sources, turns));
    return b.build();
  }

  /**
   * {@code kind}, {@code extractor=llm}, and for the read path's speaker signal {@code role=user}
   * (every memory rests on a turn of the person: {@link #check}) and {@code speaker} when the
   * person's source turns name one speaker.
   */
  private static Map<String, String> metadata(
      Item it, List<String> sources, Map<String, Turn> turns) {
    Map<String, String> m = new LinkedHashMap<>();
    m.put("kind", it.kind());
    m.put("extractor", "llm");
    m.put("role", Turn.Role.USER.code());
    List<String> speakers =
        sources.stream()
            .map(turns::get)
            .filter(t -> t.role() == Turn.Role.USER)
            .map(Turn::speaker)
            .distinct()
            .toList();
    if (speakers.size() == 1 && speakers.get(0) != null && !speakers.get(0).isBlank())
      m.put("speaker", speakers.get(0));
    return m;
  }
}

package dev.mnemo.eval;

import com.fasterxml.jackson.databind.JsonNode;
import dev.mnemo.eval.LongMemEvalQuestion.Session;
import dev.mnemo.eval.LongMemEvalQuestion.Turn;
import dev.mnemo.json.JsonCodec;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.GZIPInputStream;

/**
 * Reads LongMemEval files: a JSON list of questions, each with its own haystack ({@code
 * question_id}, {@code question_type}, {@code question}, {@code answer}, {@code question_date},
 * {@code haystack_sessions}, {@code haystack_session_ids}, {@code haystack_dates}, {@code
 * answer_session_ids}), plain or gzip-compressed (recognised by its first bytes, not its name).
 *
 * <p>Dates ({@code "2023/05/20 (Sat) 02:21"}) are read as UTC. A session id that repeats in a
 * haystack (the cleaned release has a few sessions twice, on two dates) is kept, each copy with its
 * own {@link Session#key()}. A missing field, a haystack whose three lists differ in length, a bad
 * date or an evidence session that is not in the haystack is an {@link IllegalArgumentException}
 * naming the file, the question and the field. Stateless, thread-safe.
 */
public final class LongMemEvalLoader {
  private LongMemEvalLoader() {}

  private static final Pattern DATE =
      Pattern.compile("(\\d{4})/(\\d{1,2})/(\\d{1,2})(?:\\s*\\(\\w+\\))?\\s+(\\d{1,2}):(\\d{2})");

  /** Every question of a file. */
  public static List<LongMemEvalQuestion> load(Path file) {
    if (!Files.isRegularFile(file)) throw new IllegalArgumentException("not a file: " + file);
    JsonNode root;
    try (InputStream in = open(file)) {
      root = JsonCodec.READER.readTree(in);
    } catch (IOException e) {
      throw new IllegalArgumentException(file + ": not readable as JSON: " + e.getMessage(), e);
    }
    return parse(root, file.toString());
  }

  /**
   * The first {@code limit} questions in {@link #interleaveByType} order (all of them when {@code
   * limit} is null): a subset that keeps every type.
   */
  public static List<LongMemEvalQuestion> firstByType(
      List<LongMemEvalQuestion> questions, Integer limit) {
    List<LongMemEvalQuestion> all = interleaveByType(questions);
    return limit == null ? all : all.subList(0, Math.min(Math.max(limit, 0), all.size()));
  }

  /**
   * The questions in round-robin order over their types (each type in file order, types in order of
   * first appearance), so that the first n of them cover every type about evenly: files like the
   * dev split are sorted by type, and a run cut short (or {@code --limit}) should not measure one
   * type alone.
   */
  public static List<LongMemEvalQuestion> interleaveByType(List<LongMemEvalQuestion> questions) {
    Map<String, java.util.ArrayDeque<LongMemEvalQuestion>> byType = new java.util.LinkedHashMap<>();
    for (LongMemEvalQuestion q : questions)
      byType.computeIfAbsent(q.type(), t -> new java.util.ArrayDeque<>()).add(q);
    List<LongMemEvalQuestion> out = new ArrayList<>(questions.size());
    while (out.size() < questions.size()) {
      for (java.util.ArrayDeque<LongMemEvalQuestion> d : byType.values())
        if (!d.isEmpty()) out.add(d.poll());
    }
    return out;
  }

  private static InputStream open(Path file) throws IOException {
    BufferedInputStream in = new BufferedInputStream(Files.newInputStream(file));
    in.mark(2);
    int b0 = in.read();
    int b1 = in.read();
    in.reset();
    return b0 == 0x1f && b1 == 0x8b ? new GZIPInputStream(in, 1 << 16) : in;
  }

  /**
   * The questions of a parsed file.
   *
   * @param origin what to name in messages (the file)
   */
  public static List<LongMemEvalQuestion> parse(JsonNode root, String origin) {
    if (root == null || !root.isArray())
      throw new IllegalArgumentException(origin + ": must be a JSON list of questions");
    List<LongMemEvalQuestion> out = new ArrayList<>(root.size());
    Set<String> ids = new HashSet<>();
    for (int i = 0; i < root.size(); i++) {
      LongMemEvalQuestion q = question(root.get(i), origin + ": [" + i + "]");
      if (!ids.add(q.id()))
        throw new IllegalArgumentException(
            origin + ": [" + i + "]: question_id '" + q.id() + "' repeats");
      out.add(q);
    }
    if (out.isEmpty()) throw new IllegalArgumentException(origin + ": has no questions");
    return out;
  }

  private static LongMemEvalQuestion question(JsonNode q, String where) {
    if (q == null || !q.isObject())
      throw new IllegalArgumentException(where + ": must be a JSON object");
    String id = LocomoLoader.text(q, "question_id", where);
    where = where + " (" + id + ")";
    JsonNode sessions = array(q, "haystack_sessions", where);
    JsonNode sessionIds = array(q, "haystack_session_ids", where);
    JsonNode dates = array(q, "haystack_dates", where);
    if (sessions.size() != sessionIds.size() || sessions.size() != dates.size()) {
      throw new IllegalArgumentException(
          where
              + ": haystack_sessions, haystack_session_ids and haystack_dates must "
              + "have the same length, were "
              + sessions.size()
              + ", "
              + sessionIds.size()
              + " and "
              + dates.size());
    }
    List<Session> haystack = new ArrayList<>(sessions.size());
    Map<String, Integer> seen = new HashMap<>();
    for (int s = 0; s < sessions.size(); s++) {
      String sw = where + ": haystack_sessions[" + s + "]";
      String sid = sessionIds.get(s).asText();
      if (sid.isBlank())
        throw new IllegalArgumentException(
            where + ": haystack_session_ids[" + s + "] must not be empty");
      int n = seen.merge(sid, 1, Integer::sum);
      JsonNode ts = sessions.get(s);
      if (!ts.isArray()) throw new IllegalArgumentException(sw + " must be a list of turns");
      List<Turn> turns = new ArrayList<>(ts.size());
      for (int t = 0; t < ts.size(); t++) {
        JsonNode turn = ts.get(t);
        String tw = sw + "[" + t + "]";
        if (!turn.isObject()) throw new IllegalArgumentException(tw + " must be a JSON object");
        turns.add(
            new Turn(
                LocomoLoader.text(turn, "role", tw),
                LocomoLoader.textAllowEmpty(turn, "content", tw),
                turn.path("has_answer").asBoolean(false)));
      }
      haystack.add(
          new Session(
              sid,
              n == 1 ? sid : sid + "#" + n,
              date(dates.get(s).asText(), where + ": haystack_dates[" + s + "]"),
              turns));
    }
    Set<String> answers = new LinkedHashSet<>();
    for (JsonNode a : array(q, "answer_session_ids", where)) {
      if (!seen.containsKey(a.asText())) {
        throw new IllegalArgumentException(
            where + ": answer_session_ids names '" + a.asText() + "', not a haystack session");
      }
      answers.add(a.asText());
    }
    return new LongMemEvalQuestion(
        id,
        LocomoLoader.text(q, "question_type", where),
        LocomoLoader.text(q, "question", where),
        LocomoLoader.textAllowEmpty(q, "answer", where),
        date(LocomoLoader.text(q, "question_date", where), where + ": question_date"),
        haystack,
        answers);
  }

  /** A LongMemEval date like {@code "2023/05/20 (Sat) 02:21"}, as UTC. */
  static Instant date(String s, String where) {
    Matcher m = DATE.matcher(s.trim());
    try {
      if (m.matches()) {
        return LocalDateTime.of(
                Integer.parseInt(m.group(1)),
                Integer.parseInt(m.group(2)),
                Integer.parseInt(m.group(3)),
                Integer.parseInt(m.group(4)),
                Integer.parseInt(m.group(5)))
            .toInstant(ZoneOffset.UTC);
      }
    } catch (java.time.DateTimeException e) {
      // falls through to the message below
    }
    throw new IllegalArgumentException(
        where + " must look like '2023/05/20 (Sat) 02:21', was '" + s + "'");
  }

  private static JsonNode array(JsonNode n, String f, String where) {
    JsonNode x = n.get(f);
    if (x == null || !x.isArray())
      throw new IllegalArgumentException(where + ": " + f + " is required (a list)");
    return x;
  }
}

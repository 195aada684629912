package dev.mnemo.eval;

import com.fasterxml.jackson.databind.JsonNode;
import dev.mnemo.eval.LocomoConversation.Question;
import dev.mnemo.eval.LocomoConversation.Session;
import dev.mnemo.eval.LocomoConversation.Turn;
import dev.mnemo.json.JsonCodec;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Reads LoCoMo conversation files (the {@code locomo10} format: {@code speaker_a}, {@code
 * speaker_b}, {@code session_N_date_time}, {@code session_N} turns, {@code qa}).
 *
 * <p>Only the conversation itself is read: {@code session_N_observation}, {@code session_N_summary}
 * and {@code events_session_N} are the dataset authors' annotations and are ignored, as are a
 * turn's {@code img_url} and {@code query} (its caption, {@code blip_caption}, is kept). A missing
 * required field or an unreadable date is an {@link IllegalArgumentException} naming the file and
 * field. Evidence ids are normalized ({@link #normalizeEvidence}); ids that still name no turn are
 * kept apart in {@link Question#skippedEvidence()}. Session dates ({@code "1:56 pm on 8 May,
 * 2023"}) are read as UTC. Stateless, thread-safe.
 */
public final class LocomoLoader {
  private LocomoLoader() {}

  private static final Pattern SESSION = Pattern.compile("session_(\\d+)");
  private static final Pattern DIA_ID = Pattern.compile("D:?(\\d+):(\\d+)");
  private static final DateTimeFormatter SESSION_TIME =
      new DateTimeFormatterBuilder()
          .parseCaseInsensitive()
          .appendPattern("h:mm a 'on' d MMMM, yyyy")
          .toFormatter(Locale.ENGLISH);

  /** Every {@code *.json} file of {@code dir}, by file name. */
  public static List<LocomoConversation> loadDir(Path dir) {
    if (!Files.isDirectory(dir)) throw new IllegalArgumentException("not a directory: " + dir);
    List<Path> files;
    try (Stream<Path> list = Files.list(dir)) {
      files =
          list.filter(p -> p.getFileName().toString().endsWith(".json") && Files.isRegularFile(p))
              .sorted(Comparator.comparing(p -> p.getFileName().toString()))
              .toList();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list " + dir, e);
    }
    if (files.isEmpty()) throw new IllegalArgumentException("no *.json LoCoMo files in " + dir);
    return files.stream().map(LocomoLoader::load).toList();
  }

  /** One conversation file; its name (without {@code .json}) names the conversation. */
  public static LocomoConversation load(Path file) {
    JsonNode root;
    try {
      root = JsonCodec.read(file);
    } catch (IOException e) {
      throw new IllegalArgumentException(file + ": not readable as JSON: " + e.getMessage(), e);
    }
    String fileName = file.getFileName().toString();
    String name =
        fileName.endsWith(".json") ? fileName.substring(0, fileName.length() - 5) : fileName;
    return parse(name, root, file.toString());
  }

  /**
   * One conversation from its JSON tree.
   *
   * @param origin what to name in messages (the file)
   */
  public static LocomoConversation parse(String name, JsonNode root, String origin) {
    if (root == null || !root.isObject())
      throw new IllegalArgumentException(origin + ": must be a JSON object");
    String a = text(root, "speaker_a", origin);
    String b = text(root, "speaker_b", origin);
    List<Session> sessions = new ArrayList<>();
    for (Iterator<String> it = root.fieldNames(); it.hasNext(); ) {
      String key = it.next();
      Matcher m = SESSION.matcher(key);
      if (!m.matches() || !root.get(key).isArray()) continue;
      int n = Integer.parseInt(m.group(1));
      List<Turn> turns = new ArrayList<>();
      JsonNode ts = root.get(key);
      for (int i = 0; i < ts.size(); i++) {
        JsonNode t = ts.get(i);
        String where = key + "[" + i + "]";
        JsonNode caption = t.get("blip_caption");
        turns.add(
            new Turn(
                text(t, "dia_id", origin + ": " + where),
                text(t, "speaker", origin + ": " + where),
                textAllowEmpty(t, "text", origin + ": " + where),
                caption != null && caption.isTextual() ? caption.asText() : null));
      }
      if (turns.isEmpty()) continue;
      String dateKey = key + "_date_time";
      sessions.add(
          new Session(n, sessionTime(text(root, dateKey, origin), origin + ": " + dateKey), turns));
    }
    sessions.sort(Comparator.comparingInt(Session::number));
    if (sessions.isEmpty()) throw new IllegalArgumentException(origin + ": has no session_N turns");

    Set<String> turnIds = new HashSet<>();
    for (Session s : sessions) for (Turn t : s.turns()) turnIds.add(t.diaId());
    List<Question> questions = new ArrayList<>();
    JsonNode qa = root.get("qa");
    if (qa != null && qa.isArray()) {
      for (int i = 0; i < qa.size(); i++) {
        JsonNode q = qa.get(i);
        String where = origin + ": qa[" + i + "]";
        JsonNode cat = q.get("category");
        if (cat == null || !cat.canConvertToInt())
          throw new IllegalArgumentException(where + ".category must be a number");
        Set<String> evidence = new LinkedHashSet<>();
        List<String> skipped = new ArrayList<>();
        JsonNode ev = q.get("evidence");
        if (ev != null && ev.isArray()) {
          for (JsonNode e : ev) {
            for (String id : normalizeEvidence(e.asText())) {
              if (turnIds.contains(id)) evidence.add(id);
              else skipped.add(id);
            }
          }
        }
        JsonNode answer = q.get("answer");
        questions.add(
            new Question(
                text(q, "question", where),
                cat.asInt(),
                List.copyOf(evidence),
                skipped,
                answer == null || answer.isNull() ? null : answer.asText()));
      }
    }
    return new LocomoConversation(name, a, b, sessions, questions);
  }

  /**
   * The turn ids an evidence entry names, normalized: several ids in one entry ({@code "D8:6;
   * D9:17"}) are split on semicolons, commas and blanks; a stray colon ({@code "D:11:26"}) and
   * leading zeros ({@code "D30:05"}) are dropped, giving {@code D11:26} and {@code D30:5}. Anything
   * else is returned as is (trimmed), for the caller to check against the turns.
   */
  public static List<String> normalizeEvidence(String raw) {
    List<String> out = new ArrayList<>();
    if (raw == null) return out;
    for (String part : raw.trim().split("[;,\\s]+")) {
      if (part.isEmpty()) continue;
      Matcher m = DIA_ID.matcher(part);
      out.add(
          m.matches()
              ? "D" + Integer.parseInt(m.group(1)) + ":" + Integer.parseInt(m.group(2))
              : part);
    }
    return out;
  }

  /** A session time like {@code "1:56 pm on 8 May, 2023"}, as UTC. */
  static Instant sessionTime(String s, String where) {
    try {
      return LocalDateTime.parse(s.trim(), SESSION_TIME).toInstant(ZoneOffset.UTC);
    } catch (DateTimeParseException e) {
      throw new IllegalArgumentException(
          where + " must look like '1:56 pm on 8 May, 2023', was '" + s + "'", e);
    }
  }

  static String text(JsonNode n, String f, String where) {
    String s = textAllowEmpty(n, f, where);
    if (s.isBlank()) throw new IllegalArgumentException(where + ": " + f + " must not be empty");
    return s;
  }

  static String textAllowEmpty(JsonNode n, String f, String where) {
    JsonNode x = n.get(f);
    if (x == null || x.isNull() || x.isContainerNode()) {
      throw new IllegalArgumentException(where + ": " + f + " is required (a string)");
    }
    return x.asText();
  }
}

package dev.mnemo.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mnemo.Category;
import dev.mnemo.InvalidRequestException;
import dev.mnemo.InvalidRequestException.Violation;
import dev.mnemo.NewMemory;
import dev.mnemo.RecallRequest;
import dev.mnemo.RecallResult;
import dev.mnemo.json.JsonCodec;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The server's side of the JSON wire form. Everything {@link JsonCodec} maps is mapped there (one
 * mapping for the CLI, the evaluation and the servers); this class adds only what a network API
 * needs on top: strict parsing (duplicate keys, trailing garbage), integer and boolean checks that
 * the shared readers are lenient about, the batch envelope {@code {"records": [...]}}, recall's
 * {@code half_lives}, and the response shapes of the REST contract.
 */
final class Wire {
  /** Most ids one mark-used request may name. */
  static final int MAX_IDS = 1_000;

  private Wire() {}

  /** The body as a JSON tree; 400 when it is not JSON. */
  static JsonNode parse(byte[] body) {
    try {
      return dev.mnemo.json.StrictJson.read(body);
    } catch (dev.mnemo.json.StrictJson.Malformed e) {
      throw ProblemException.of(400, "bad-json", "Malformed JSON", e.getMessage());
    }
  }

  /** What POST /v1/memories asked to write. */
  record Memories(List<NewMemory> list, boolean single) {}

  /** An ingest request: {@code {"turns": [turn, ...]}} (see {@link JsonCodec#turn(JsonNode, String)}). */
  static List<dev.mnemo.Turn> turns(JsonNode n, int maxBatch) {
    List<Violation> v = new ArrayList<>();
    if (!n.isObject() || !n.has("turns")) {
      throw new InvalidRequestException("turns", null, "an ingest request is {\"turns\": [...]}; turns is missing");
    }
    for (Iterator<String> it = n.fieldNames(); it.hasNext(); ) {
      String f = it.next();
      if (!f.equals("turns")) v.add(new Violation(f, f, "unknown field " + f + "; an ingest request is {\"turns\": [...]} and nothing else"));
    }
    JsonNode arr = n.get("turns");
    if (!arr.isArray()) throw new InvalidRequestException("turns", arr.toString(), "turns must be an array of turns, was " + abbreviate(arr));
    if (arr.isEmpty()) throw new InvalidRequestException("turns", 0, "turns must not be empty");
    if (arr.size() > maxBatch) {
      throw ProblemException.field(413, "too-large", "Content too large", "turns", arr.size(),
          "turns holds " + arr.size() + " turns; at most " + maxBatch + " per request (limits.max_batch_records): split the batch");
    }
    List<dev.mnemo.Turn> out = new ArrayList<>(arr.size());
    for (int i = 0; i < arr.size(); i++) {
      try {
        out.add(JsonCodec.turn(arr.get(i), "turns[" + i + "]."));
      } catch (InvalidRequestException e) {
        v.addAll(e.violations());
      }
    }
    throwIfAny(v);
    return out;
  }

  static Memories memories(JsonNode n, int maxBatch) {
    List<Violation> v = new ArrayList<>();
    if (n.isObject() && n.has("records")) {
      for (Iterator<String> it = n.fieldNames(); it.hasNext(); ) {
        String f = it.next();
        if (!f.equals("records")) {
          v.add(new Violation(f, f, "unknown field " + f + "; a batch is {\"records\": [...]} and nothing else"));
        }
      }
      JsonNode arr = n.get("records");
      if (!arr.isArray()) {
        throw new InvalidRequestException("records", arr.toString(), "records must be an array of records, was " + abbreviate(arr));
      }
      if (arr.isEmpty()) throw new InvalidRequestException("records", 0, "records must not be empty");
      if (arr.size() > maxBatch) {
        throw ProblemException.field(413, "too-large", "Content too large", "records", arr.size(),
            "records holds " + arr.size() + " records; at most " + maxBatch
                + " per request (limits.max_batch_records): split the batch");
      }
      List<NewMemory> out = new ArrayList<>(arr.size());
      for (int i = 0; i < arr.size(); i++) {
        String p = "records[" + i + "].";
        memoryChecks(arr.get(i), p, v);
        try {
          out.add(JsonCodec.memory(arr.get(i), p));
        } catch (InvalidRequestException e) {
          v.addAll(e.violations());
        }
      }
      throwIfAny(v);
      return new Memories(out, false);
    }
    memoryChecks(n, "", v);
    NewMemory m = null;
    try {
      m = JsonCodec.memory(n, "");
    } catch (InvalidRequestException e) {
      v.addAll(e.violations());
    }
    throwIfAny(v);
    return new Memories(List.of(m), true);
  }

  private static void memoryChecks(JsonNode n, String p, List<Violation> v) {
    if (n == null || !n.isObject()) return; // the shared reader reports it
    if (n.has("id")) {
      v.add(new Violation(p + "id", n.get("id").toString(), p + "id is assigned by the server; send your own event ids as "
          + p + "sources"));
    }
  }

  /** A recall request: every option of the engine (see the OpenAPI document), read by JsonCodec. */
  static RecallRequest recall(JsonNode n) {
    List<Violation> v = new ArrayList<>();
    RecallRequest r = null;
    try {
      r = JsonCodec.request(n, "");
    } catch (InvalidRequestException e) {
      for (Violation x : e.violations()) {
        // The contract calls the question "text" (the shared reader also takes "query").
        if (x.field().equals("query") && !n.has("query")) {
          // rename the field, keep the rule (a missing text, a wrong type, or one too long)
          String message = x.message().startsWith("query must be at most")
              ? "text" + x.message().substring("query".length())
              : "text must be a string (the question), was " + x.value();
          v.add(new Violation("text", x.value(), message));
        } else {
          v.add(x);
        }
      }
    }
    throwIfAny(v);
    return r;
  }

  /**
   * The body of {@code POST /v1/owners/{owner}/used}: {@code ids}, and optionally {@code answer}
   * (then only the ids whose record the answer used are marked) and {@code query}.
   */
  record UsedReport(List<String> ids, String answer, String query) {}

  static UsedReport used(JsonNode n) {
    if (!n.isObject()) throw new InvalidRequestException("body", n.getNodeType().toString(), "the body must be a JSON object");
    List<Violation> v = new ArrayList<>();
    unknown(n, Set.of("ids", "answer", "query"), v);
    String answer = optionalText(n, "answer", v);
    String query = optionalText(n, "query", v);
    List<String> ids = ids(n, v);
    return new UsedReport(ids, answer, query);
  }

  private static String optionalText(JsonNode n, String field, List<Violation> v) {
    JsonNode x = n.get(field);
    if (x == null || x.isNull()) return null;
    if (!x.isTextual() || x.asText().isBlank()) {
      v.add(new Violation(field, x.toString(), field + " must be a non-blank string, was " + abbreviate(x)));
      return null;
    }
    return x.asText();
  }

  private static List<String> ids(JsonNode n, List<Violation> v) {
    JsonNode arr = n.get("ids");
    List<String> out = new ArrayList<>();
    if (arr == null || arr.isNull()) {
      v.add(new Violation("ids", null, "ids must be an array of record ids, was missing"));
    } else if (!arr.isArray()) {
      v.add(new Violation("ids", arr.toString(), "ids must be an array of record ids, was " + abbreviate(arr)));
    } else if (arr.size() > MAX_IDS) {
      throw ProblemException.field(413, "too-large", "Content too large", "ids", arr.size(),
          "ids holds " + arr.size() + " ids; at most " + MAX_IDS + " per request");
    } else {
      for (int i = 0; i < arr.size(); i++) {
        JsonNode x = arr.get(i);
        if (!x.isTextual() || x.asText().isBlank()) {
          v.add(new Violation("ids[" + i + "]", x.toString(), "ids[" + i + "] must be a non-blank string, was " + abbreviate(x)));
        } else {
          out.add(x.asText());
        }
      }
    }
    throwIfAny(v);
    return out;
  }

  /** The optional body of a key request: {@code {"label": "..."}}. */
  static String keyLabel(byte[] body) {
    if (body == null || body.length == 0) return null;
    JsonNode n = parse(body);
    if (!n.isObject()) throw new InvalidRequestException("body", n.getNodeType().toString(), "the body must be a JSON object");
    List<Violation> v = new ArrayList<>();
    unknown(n, Set.of("label"), v);
    JsonNode l = n.get("label");
    String label = null;
    if (l != null && !l.isNull()) {
      if (!l.isTextual() || l.asText().length() > 200) {
        v.add(new Violation("label", l.toString(), "label must be a string of at most 200 characters, was " + abbreviate(l)));
      } else {
        label = l.asText();
      }
    }
    throwIfAny(v);
    return label;
  }

  /** The REST shape of a recall: {@code records}, {@code block}, token counts, {@code trace} when asked. */
  static ObjectNode recallResponse(RecallResult r) {
    ObjectNode full = JsonCodec.result(r);
    ObjectNode o = JsonCodec.MAPPER.createObjectNode();
    o.set("records", full.get("selected"));
    o.put("block", r.rendered());
    o.put("tokens_used", r.tokensUsed());
    o.put("block_tokens", r.renderedTokens());
    if (full.has("trace")) o.set("trace", full.get("trace"));
    return o;
  }


  private static void unknown(JsonNode n, Set<String> allowed, List<Violation> v) {
    for (Iterator<String> it = n.fieldNames(); it.hasNext(); ) {
      String f = it.next();
      if (!allowed.contains(f)) v.add(new Violation(f, f, "unknown field " + f + "; expected one of " + allowed));
    }
  }

  /** Throws the violations, one per field (the first), when there are any. */
  private static void throwIfAny(List<Violation> v) {
    if (v.isEmpty()) return;
    Set<String> seen = new HashSet<>();
    List<Violation> out = new ArrayList<>();
    for (Violation x : v) if (seen.add(x.field())) out.add(x);
    throw new InvalidRequestException(out);
  }

  private static String abbreviate(JsonNode n) {
    String s = n.toString();
    return s.length() > 80 ? s.substring(0, 80) + "..." : s;
  }
}

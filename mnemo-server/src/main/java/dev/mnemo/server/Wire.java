package dev.mnemo.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mnemo.InvalidRequestException;
import dev.mnemo.InvalidRequestException.Violation;
import dev.mnemo.NewMemory;
import dev.mnemo.RecallRequest;
import dev.mnemo.RecallResult;
import dev.mnemo.json.BatchPath;
import dev.mnemo.json.FieldReader;
import dev.mnemo.json.MemoryJson;
import dev.mnemo.json.RequestJson;
import dev.mnemo.json.ResultJson;
import dev.mnemo.json.TurnJson;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The server's side of the JSON wire form. Every value is mapped by its codec in mnemo-json ({@link
 * MemoryJson}, {@link TurnJson}, {@link RequestJson}, {@link ResultJson}) and every field read by
 * the shared {@link FieldReader} (one mapping and one set of messages for the CLI, the evaluation,
 * MCP and the servers); this class adds only what a network API needs on top: strict parsing
 * (duplicate keys, trailing garbage), the batch envelopes {@code {"records": [...]}} and {@code
 * {"turns": [...]}} with their limits, the small bodies of {@code used} and key requests, and the
 * response shapes of the REST contract.
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

  /** An ingest request: {@code {"turns": [turn, ...]}} (see {@link TurnJson#read}). */
  static List<dev.mnemo.Turn> turns(JsonNode n, int maxBatch) {
    if (!n.isObject() || !n.has("turns")) {
      throw new InvalidRequestException(
          "turns", null, "an ingest request is {\"turns\": [...]}; turns is missing");
    }
    List<Violation> v = new ArrayList<>();
    FieldReader.of(n, "", "request", v).only(Set.of(BatchPath.TURNS.array()));
    JsonNode arr = batch(n, BatchPath.TURNS, "turns", maxBatch);
    List<dev.mnemo.Turn> out = new ArrayList<>(arr.size());
    for (int i = 0; i < arr.size(); i++) {
      try {
        out.add(TurnJson.read(arr.get(i), BatchPath.TURNS.item(i)));
      } catch (InvalidRequestException e) {
        v.addAll(e.violations());
      }
    }
    throwIfAny(v);
    return out;
  }

  /** The array of a batch: an array, not empty, at most {@code maxBatch} items (413 beyond). */
  private static JsonNode batch(JsonNode n, BatchPath path, String items, int maxBatch) {
    String name = path.array();
    JsonNode arr = n.get(name);
    if (!arr.isArray()) {
      throw new InvalidRequestException(
          List.of(FieldReader.wrongType(name, arr, "an array of " + items)));
    }
    if (arr.isEmpty()) throw new InvalidRequestException(name, 0, name + " must not be empty");
    if (arr.size() > maxBatch) {
      throw ProblemException.field(
          413,
          "too-large",
          "Content too large",
          name,
          arr.size(),
          name
              + " holds "
              + arr.size()
              + " "
              + items
              + "; at most "
              + maxBatch
              + " per request (limits.max_batch_records): split the batch");
    }
    return arr;
  }

  /**
   * What {@code POST /v1/memories} asked to write: one memory, or a batch {@code {"records":
   * [...]}}.
   */
  static Memories memories(JsonNode n, int maxBatch) {
    List<Violation> v = new ArrayList<>();
    if (n.isObject() && n.has(BatchPath.RECORDS.array())) {
      FieldReader.of(n, "", "request", v).only(Set.of(BatchPath.RECORDS.array()));
      JsonNode arr = batch(n, BatchPath.RECORDS, "records", maxBatch);
      List<NewMemory> out = new ArrayList<>(arr.size());
      for (int i = 0; i < arr.size(); i++) {
        String p = BatchPath.RECORDS.item(i);
        memoryChecks(arr.get(i), p, v);
        try {
          out.add(MemoryJson.read(arr.get(i), p));
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
      m = MemoryJson.read(n, "");
    } catch (InvalidRequestException e) {
      v.addAll(e.violations());
    }
    throwIfAny(v);
    return new Memories(List.of(m), true);
  }

  private static void memoryChecks(JsonNode n, String p, List<Violation> v) {
    if (n == null || !n.isObject()) return; // the shared reader reports it
    if (n.has("id")) {
      v.add(
          new Violation(
              p + "id",
              n.get("id").toString(),
              p + "id is assigned by the server; send your own event ids as " + p + "sources"));
    }
  }

  /**
   * A recall request: every option of the engine (see the OpenAPI document), read by {@link
   * RequestJson}.
   */
  static RecallRequest recall(JsonNode n) {
    List<Violation> v = new ArrayList<>();
    RecallRequest r = null;
    try {
      r = RequestJson.read(n, "");
    } catch (InvalidRequestException e) {
      for (Violation x : e.violations()) {
        // The contract calls the question "text" (the shared reader also takes "query").
        if (x.field().equals("query") && !n.has("query")) {
          // rename the field, keep the rule (a missing text, a wrong type, or one too long)
          String message =
              x.message().startsWith("query must be at most")
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
    List<Violation> v = new ArrayList<>();
    FieldReader x = body(n, v).only(Set.of("ids", "answer", "query"));
    String answer = nonBlank(x, "answer");
    String query = nonBlank(x, "query");
    List<String> ids = ids(x);
    throwIfAny(v);
    return new UsedReport(ids, answer, query);
  }

  private static FieldReader body(JsonNode n, List<Violation> v) {
    if (!n.isObject())
      throw new InvalidRequestException(
          "body", n.getNodeType().toString(), "the body must be a JSON object");
    return FieldReader.of(n, "", "body", v);
  }

  private static String nonBlank(FieldReader x, String field) {
    JsonNode f = x.get(field);
    if (f == null) return null;
    if (!f.isTextual() || f.asText().isBlank()) {
      x.add(FieldReader.wrongType(field, f, "a non-blank string"));
      return null;
    }
    return f.asText();
  }

  private static List<String> ids(FieldReader x) {
    JsonNode arr = x.get("ids");
    List<String> out = new ArrayList<>();
    if (arr == null) {
      x.add(new Violation("ids", null, "ids must be an array of record ids, was missing"));
    } else if (!arr.isArray()) {
      x.add(FieldReader.wrongType("ids", arr, "an array of record ids"));
    } else if (arr.size() > MAX_IDS) {
      throw ProblemException.field(
          413,
          "too-large",
          "Content too large",
          "ids",
          arr.size(),
          "ids holds " + arr.size() + " ids; at most " + MAX_IDS + " per request");
    } else {
      for (int i = 0; i < arr.size(); i++) {
        JsonNode id = arr.get(i);
        if (!id.isTextual() || id.asText().isBlank())
          x.add(FieldReader.wrongType("ids[" + i + "]", id, "a non-blank string"));
        else out.add(id.asText());
      }
    }
    return out;
  }

  /** The optional body of a key request: {@code {"label": "..."}}. */
  static String keyLabel(byte[] body) {
    if (body == null || body.length == 0) return null;
    List<Violation> v = new ArrayList<>();
    FieldReader x = body(parse(body), v).only(Set.of("label"));
    JsonNode l = x.get("label");
    String label = null;
    if (l != null) {
      if (!l.isTextual() || l.asText().length() > 200)
        v.add(FieldReader.wrongType("label", l, "a string of at most 200 characters"));
      else label = l.asText();
    }
    throwIfAny(v);
    return label;
  }

  /**
   * The REST shape of a recall: {@code records}, {@code block}, token counts, {@code trace} when
   * asked.
   */
  static ObjectNode recallResponse(RecallResult r) {
    return ResultJson.write(r, ResultJson.Shape.REST);
  }

  /** Throws the violations, one per field (the first), when there are any. */
  private static void throwIfAny(List<Violation> v) {
    if (v.isEmpty()) return;
    Set<String> seen = new HashSet<>();
    List<Violation> out = new ArrayList<>();
    for (Violation x : v) if (seen.add(x.field())) out.add(x);
    throw new InvalidRequestException(out);
  }
}

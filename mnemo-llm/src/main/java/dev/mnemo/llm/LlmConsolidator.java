package dev.mnemo.llm;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.mnemo.MemoryRecord;
import dev.mnemo.NewMemory;
import dev.mnemo.spi.Consolidator;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The LLM consolidator: a chat model decides whether a candidate memory is new (ADD), a new version
 * of an existing record's fact (UPDATE), a duplicate (NOOP) or a contradiction of unclear order
 * (CONFLICT), given the owner's similar records.
 *
 * <p>With no similar record the answer is ADD without a call. The reply ({@code {"action",
 * "target", "reason"}}) is checked strictly ({@link JsonChat}): the action one of the four, the
 * target null for ADD and otherwise the id of one of the similar records shown, a non-empty reason;
 * an invalid reply is asked again once. When the model fails (provider errors after retries, or an
 * invalid reply twice) the decision is the {@code fallback} consolidator's (the rule consolidator),
 * with the failure named in the reason, so a flaky model never blocks the write path. Thread-safe
 * when the fallback is.
 */
public final class LlmConsolidator implements Consolidator {
  private static final Logger LOG = LoggerFactory.getLogger(LlmConsolidator.class);

  public static final String SYSTEM_PROMPT =
      """
      You keep a person's long-term memory free of duplicates and stale facts. You are given a NEW \
      candidate memory and the EXISTING records most similar to it. Decide one action:
      - "ADD": the candidate states something none of the records states; target null.
      - "UPDATE": the candidate is a newer value of the same fact as one record (a move, a new job, a \
      changed preference or plan), so it replaces that record from its valid date on; target = that record's id.
      - "NOOP": the candidate says what one record already says (same fact, same value, maybe other \
      words); target = that record's id.
      - "CONFLICT": the candidate contradicts one record and you cannot tell which holds now (for \
      example both have the same date, or the candidate is older); keep both; target = that record's id.
      Prefer UPDATE over CONFLICT when the candidate is clearly newer. Never pick a target that was not shown.
      Reply with one JSON object and nothing else: {"action": "...", "target": "id or null", "reason": "a short why"}.""";

  record Reply(
      @JsonProperty("action") String action,
      @JsonProperty("target") String target,
      @JsonProperty("reason") String reason) {}

  private final JsonChat chat;
  private final Consolidator fallback;

  /**
   * @param chat the model
   * @param fallback decides when the model fails (the rule consolidator); required
   */
  public LlmConsolidator(JsonChat chat, Consolidator fallback) {
    this.chat = Objects.requireNonNull(chat, "chat");
    this.fallback = Objects.requireNonNull(fallback, "fallback");
  }

  @Override
  public String id() {
    return "llm";
  }

  @Override
  public Decision decide(NewMemory candidate, List<MemoryRecord> similar) {
    Objects.requireNonNull(candidate, "candidate");
    if (similar == null || similar.isEmpty()) return Decision.add("llm: no similar record");
    Set<String> ids =
        similar.stream()
            .map(MemoryRecord::id)
            .collect(Collectors.toCollection(java.util.LinkedHashSet::new));
    try {
      Reply r =
          chat.ask(SYSTEM_PROMPT, userMessage(candidate, similar), Reply.class, x -> check(x, ids));
      Action action = Action.valueOf(r.action().toUpperCase(Locale.ROOT));
      return new Decision(
          action, action == Action.ADD ? null : r.target(), "llm: " + r.reason().strip());
    } catch (LlmException e) {
      Decision d = fallback.decide(candidate, similar);
      LOG.warn("LLM consolidation failed, using {}: {}", fallback.id(), e.getMessage());
      return new Decision(
          d.action(),
          d.target(),
          "llm failed (" + e.getMessage() + "); " + fallback.id() + ": " + d.reason());
    }
  }

  static String userMessage(NewMemory c, List<MemoryRecord> similar) {
    StringBuilder b = new StringBuilder("NEW candidate:\n");
    b.append(c.text().replace('\n', ' '));
    if (c.validFrom() != null) b.append(" (valid from ").append(c.validFrom()).append(')');
    if (c.factKey() != null) b.append(" [fact_key ").append(c.factKey()).append(']');
    b.append("\n\nEXISTING records:\n");
    for (MemoryRecord r : similar) {
      b.append('[').append(r.id()).append("] ").append(r.text().replace('\n', ' '));
      if (r.validFrom() != null) b.append(" (valid from ").append(r.validFrom()).append(')');
      if (r.factKey() != null) b.append(" [fact_key ").append(r.factKey()).append(']');
      b.append('\n');
    }
    return b.toString();
  }

  static void check(Reply r, Set<String> ids) {
    String a = r.action() == null ? null : r.action().toUpperCase(Locale.ROOT);
    if (a == null || !Set.of("ADD", "UPDATE", "NOOP", "CONFLICT").contains(a)) {
      throw new JsonChat.InvalidReply(
          "action must be one of ADD, UPDATE, NOOP, CONFLICT, was '" + r.action() + "'");
    }
    if (a.equals("ADD")) {
      if (r.target() != null)
        throw new JsonChat.InvalidReply("target must be null for ADD, was '" + r.target() + "'");
    } else if (r.target() == null || !ids.contains(r.target())) {
      throw new JsonChat.InvalidReply(
          "target of "
              + a
              + " must be the id of a record shown "
              + ids
              + ", was '"
              + r.target()
              + "'");
    }
    if (r.reason() == null || r.reason().isBlank())
      throw new JsonChat.InvalidReply("reason must not be empty");
  }
}

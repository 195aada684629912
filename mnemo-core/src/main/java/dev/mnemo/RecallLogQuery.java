package dev.mnemo;

import java.time.Instant;

/**
 * A search of the retrieval log; every criterion is optional (null: any) and they all hold at once.
 *
 * @param owner only this owner's recalls
 * @param from logged at or after this instant
 * @param to logged before this instant
 * @param outcome with a {@code record}: that record's outcome in the recall ({@code selected},
 *     {@code omitted}, or an {@link Outcome} code such as {@code below_threshold}); without one:
 *     {@code selected} (the recall selected something) or {@code empty} (it abstained)
 * @param text words of the query (full-text match)
 * @param record recalls in which this record id was a candidate ("when was this record shown?")
 * @param offset entries to skip, newest first
 * @param limit at most this many entries
 */
public record RecallLogQuery(
    String owner,
    Instant from,
    Instant to,
    String outcome,
    String text,
    String record,
    int offset,
    int limit) {

  /** Outcomes a query may name. */
  public static final java.util.List<String> OUTCOMES =
      java.util.List.of(
          "selected",
          "empty",
          "omitted",
          "below_threshold",
          "beyond_k",
          "over_budget",
          "duplicate");

  public RecallLogQuery {
    if (offset < 0)
      throw new InvalidRequestException("offset", offset, "offset must be >= 0, was " + offset);
    if (limit < 1)
      throw new InvalidRequestException("limit", limit, "limit must be >= 1, was " + limit);
    if (outcome != null && !OUTCOMES.contains(outcome)) {
      throw new InvalidRequestException(
          "outcome", outcome, "outcome must be one of " + OUTCOMES + ", was '" + outcome + "'");
    }
    if (outcome != null
        && record == null
        && !outcome.equals("selected")
        && !outcome.equals("empty")) {
      throw new InvalidRequestException(
          "outcome",
          outcome,
          "outcome '"
              + outcome
              + "' names a record's outcome: give a record id too, or use selected or empty");
    }
    if (from != null && to != null && !to.isAfter(from)) {
      throw new InvalidRequestException(
          "to", to, "to must be after from (" + from + "), was " + to);
    }
    owner = owner == null || owner.isBlank() ? null : owner;
    text = text == null || text.isBlank() ? null : text;
    record = record == null || record.isBlank() ? null : record;
  }

  /**
   * A query from a door (a route's parameters, a command's options), checked by the rules of every
   * other door first: an owner by the owner rules ({@link InputRules#checkOwner}), times inside the
   * range a store keeps, a record id and an outcome no longer than a key, the text no longer than a
   * recall's query. Violations name the fields as {@code names} gives them: owner, from, to,
   * outcome, text, record in that order (a route's {@code q}, a command's {@code --from}).
   *
   * @throws InvalidRequestException naming every field that breaks a rule
   */
  public static RecallLogQuery checked(
      String owner,
      Instant from,
      Instant to,
      String outcome,
      String text,
      String record,
      int offset,
      int limit,
      java.util.List<String> names) {
    java.util.List<InvalidRequestException.Violation> v = new java.util.ArrayList<>();
    if (owner != null) InputRules.checkOwner(names.get(0), owner, v);
    InputRules.checkTime(names.get(1), from, v);
    InputRules.checkTime(names.get(2), to, v);
    InputRules.checkLength(names.get(3), outcome, InputRules.MAX_KEY_CHARS, v);
    InputRules.checkLength(names.get(4), text, RecallRequest.MAX_QUERY_CHARS, v);
    InputRules.checkLength(names.get(5), record, InputRules.MAX_KEY_CHARS, v);
    if (!v.isEmpty()) throw new InvalidRequestException(v);
    return new RecallLogQuery(owner, from, to, outcome, text, record, offset, limit);
  }

  /** Every entry, newest first, up to {@code limit}. */
  public static RecallLogQuery all(int limit) {
    return new RecallLogQuery(null, null, null, null, null, null, 0, limit);
  }

  public RecallLogQuery withOwner(String o) {
    return new RecallLogQuery(o, from, to, outcome, text, record, offset, limit);
  }
}

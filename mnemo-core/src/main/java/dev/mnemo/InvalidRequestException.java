package dev.mnemo;

import java.util.List;

/**
 * A request was refused because an input is invalid; nothing was written.
 *
 * <p>Each {@link Violation} names the field (with its index in a batch, e.g. {@code
 * memories[2].text}), the offending value and what is wrong, so the message can be shown to the
 * caller as is: {@code "k must be >= 1, was 0"}. Never retriable.
 */
public final class InvalidRequestException extends MnemoException {
  private static final long serialVersionUID = 1L;

  /**
   * One invalid input: the field's path, the value as given (may be null) and the rule it broke.
   */
  public record Violation(String field, Object value, String message) {
    @Override
    public String toString() {
      return message;
    }
  }

  // Violation holds the offending value as an Object; the exception is never Java-serialized (it is
  // reported as a message or a problem+json body), so the field's type need not be Serializable.
  @SuppressWarnings("serial")
  private final List<Violation> violations;

  public InvalidRequestException(List<Violation> violations) {
    super(summary(violations), false);
    this.violations = List.copyOf(violations);
  }

  public InvalidRequestException(String field, Object value, String message) {
    this(List.of(new Violation(field, value, message)));
  }

  public List<Violation> violations() {
    return violations;
  }

  /** The first violation's field, for callers that report one. */
  public String field() {
    return violations.get(0).field();
  }

  private static String summary(List<Violation> violations) {
    if (violations.isEmpty()) {
      throw new IllegalArgumentException("an InvalidRequestException needs at least one violation");
    }
    if (violations.size() == 1) {
      return violations.get(0).message();
    }
    StringBuilder sb = new StringBuilder(violations.size() + " invalid inputs: ");
    for (int i = 0; i < violations.size(); i++) {
      if (i > 0) sb.append("; ");
      sb.append(violations.get(i).message());
    }
    return sb.toString();
  }
}

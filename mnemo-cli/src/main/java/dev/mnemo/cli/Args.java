package dev.mnemo.cli;

import dev.mnemo.InputRules;
import dev.mnemo.InvalidRequestException;

/**
 * The input rules for the options the engine does not check itself (issue 36: one set of rules at
 * every door): an id is not blank, holds no control character (no id the engine makes has one) and
 * is no longer than a key ({@link InputRules#MAX_KEY_CHARS}), a key or a text no longer than its
 * limit; and a value echoed in a message is shown on one line (control characters escaped, long
 * values cut), so that an error stays the one line a script reads.
 */
final class Args {
  private Args() {}

  /** The longest value a message shows in full. */
  static final int SHOWN_CHARS = 120;

  /**
   * {@code value} when it can be an id, else an {@link InvalidRequestException} naming {@code
   * option}.
   */
  static String id(String option, String value) {
    if (value == null) return null;
    if (value.isBlank())
      throw new InvalidRequestException(
          option, value, option + " must not be blank, was '" + shown(value) + "'");
    length(option, value, InputRules.MAX_KEY_CHARS);
    for (int i = 0; i < value.length(); i++) {
      if (Character.isISOControl(value.charAt(i)))
        throw new InvalidRequestException(
            option,
            value,
            String.format(
                java.util.Locale.ROOT,
                "%s must not hold a control character; it has U+%04X at index %d",
                option,
                (int) value.charAt(i),
                i));
    }
    return value;
  }

  /** {@code value} when at most {@code max} characters, else a refusal naming {@code option}. */
  static String length(String option, String value, int max) {
    return InputRules.requireLength(option, value, max);
  }

  /** {@code value} on one line: control and format characters as {@code \\uXXXX}, cut if long. */
  static String shown(String value) {
    if (value == null) return "null";
    StringBuilder sb = new StringBuilder();
    value
        .codePoints()
        .limit(SHOWN_CHARS)
        .forEach(
            cp -> {
              int type = Character.getType(cp);
              if (type == Character.CONTROL
                  || type == Character.FORMAT
                  || type == Character.LINE_SEPARATOR
                  || type == Character.PARAGRAPH_SEPARATOR)
                sb.append(String.format(java.util.Locale.ROOT, "\\u%04X", cp));
              else sb.appendCodePoint(cp);
            });
    if (value.codePointCount(0, value.length()) > SHOWN_CHARS)
      sb.append("... (").append(value.length()).append(" characters)");
    return sb.toString();
  }
}

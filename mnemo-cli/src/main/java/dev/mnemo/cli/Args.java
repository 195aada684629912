package dev.mnemo.cli;

import dev.mnemo.InputRules;
import dev.mnemo.InvalidRequestException;
import java.util.List;

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

  /**
   * Request fields whose option is named otherwise (the rest are the option's name in snake case:
   * {@code valid_from} is {@code --valid-from}).
   */
  private static final java.util.Map<String, String> FIELD_OPTIONS =
      java.util.Map.of("budget_tokens", "--budget", "metadata", "--meta", "sources", "--source");

  /**
   * The refusal's message in the command line's words: the engine names the request's fields as the
   * REST API does ({@code at}, {@code valid_from}, {@code budget_tokens}), and a user of the
   * command line typed {@code --at}, {@code --valid-from}, {@code --budget}. Each violation's
   * leading field, and any other snake-case field in it, becomes the option of {@code spec} it came
   * from (or the positional parameter's label, {@code TEXT}); a field no option of the command
   * gives is left as it is.
   */
  static String message(
      picocli.CommandLine.Model.CommandSpec spec, dev.mnemo.InvalidRequestException e) {
    List<String> messages = new java.util.ArrayList<>();
    for (var v : e.violations()) messages.add(message(spec, v));
    return messages.size() == 1
        ? messages.get(0)
        : messages.size() + " invalid inputs: " + String.join("; ", messages);
  }

  private static String message(
      picocli.CommandLine.Model.CommandSpec spec, dev.mnemo.InvalidRequestException.Violation v) {
    String m = v.message();
    String field = v.field() == null ? "" : v.field();
    if (!field.isEmpty() && m.startsWith(field)) {
      String named = argument(spec, field);
      if (named != null) m = named + m.substring(field.length());
    }
    // other fields the message names (valid_to must be after valid_from ...), up to the value shown
    int end = m.lastIndexOf(", was ");
    String head = end < 0 ? m : m.substring(0, end);
    java.util.regex.Matcher w =
        java.util.regex.Pattern.compile("(?<![-\\w])[a-z]+(?:_[a-z]+)+\\b").matcher(head);
    StringBuilder sb = new StringBuilder();
    while (w.find()) {
      // not inside a list of allowed values ([keep_both, refuse] are values, not options)
      String before = head.substring(0, w.start());
      boolean inList = before.lastIndexOf('[') > before.lastIndexOf(']');
      String named = inList ? null : argument(spec, w.group());
      w.appendReplacement(
          sb, java.util.regex.Matcher.quoteReplacement(named != null ? named : w.group()));
    }
    w.appendTail(sb);
    return sb + (end < 0 ? "" : m.substring(end));
  }

  /**
   * The option (or positional label) of {@code spec} that gives {@code field} ({@code
   * principals[0]}: {@code --principals[0]}), or null.
   */
  private static String argument(picocli.CommandLine.Model.CommandSpec spec, String field) {
    int bracket = field.indexOf('[');
    String base = bracket < 0 ? field : field.substring(0, bracket);
    String rest = bracket < 0 ? "" : field.substring(bracket);
    String option = FIELD_OPTIONS.getOrDefault(base, "--" + base.replace('_', '-'));
    if (spec.findOption(option) != null && spec.findOption(option).longestName().equals(option))
      return option + rest;
    for (var p : spec.positionalParameters())
      if (p.paramLabel().equalsIgnoreCase(base)) return p.paramLabel() + rest;
    return null;
  }
}

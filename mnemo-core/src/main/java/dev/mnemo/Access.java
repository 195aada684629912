package dev.mnemo;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * Access inside an owner: the labels a record may carry and the principals a recall's caller holds,
 * both written {@code kind:name} with kind {@code team}, {@code role} or {@code person} (e.g.
 * {@code team:payments}, {@code role:admin}, {@code person:maya}).
 *
 * <table>
 *   <caption>Who may see a record (the rule every store applies inside its query)</caption>
 *   <tr><th>record's labels</th><th>caller's principals</th><th>visible?</th><th>example</th></tr>
 *   <tr><td>none</td><td>any, none included</td><td>yes</td><td>"The office is in Lisbon" is the whole owner's</td></tr>
 *   <tr><td>some</td><td>at least one of them</td><td>yes</td><td>{@code [team:payments, role:cfo]} and {@code [person:ana, team:payments]}</td></tr>
 *   <tr><td>some</td><td>none of them</td><td>no</td><td>{@code [team:payments]} and {@code [team:sales]}, or no principals</td></tr>
 * </table>
 *
 * <p>A label is matched exactly (case included): {@code team:Payments} is not {@code
 * team:payments}. Labels are sorted and deduplicated when a record is built. The engine's own reads
 * (the write path's versions, history, export) see every record; only a recall filters, by the
 * principals of its request.
 */
public final class Access {
  private Access() {}

  /** The kinds a label or principal may have. */
  public static final List<String> KINDS = List.of("team", "role", "person");

  /** At most this many labels on a record. */
  public static final int MAX_LABELS = 32;

  /** At most this many principals in a request. */
  public static final int MAX_PRINCIPALS = 256;

  /** Sorted, without duplicates, unmodifiable ({@code null}: none). */
  public static List<String> normalize(Collection<String> labels) {
    if (labels == null || labels.isEmpty()) return List.of();
    return List.copyOf(new TreeSet<>(labels));
  }

  /** Whether a caller holding {@code principals} may see a record labelled {@code labels}. */
  public static boolean visible(Collection<String> labels, Set<String> principals) {
    if (labels.isEmpty()) return true;
    for (String l : labels) if (principals.contains(l)) return true;
    return false;
  }

  /**
   * Adds a violation per bad label: null, not {@code kind:name} with a known kind and a non-blank
   * name, longer than {@link InputRules#MAX_KEY_CHARS}, or more than {@code max} of them.
   */
  public static void check(
      String field,
      Collection<String> labels,
      int max,
      List<InvalidRequestException.Violation> out) {
    if (labels == null) return;
    if (labels.size() > max) {
      out.add(
          new InvalidRequestException.Violation(
              field,
              labels.size(),
              field + " must hold at most " + max + " labels, was " + labels.size()));
      return;
    }
    int i = 0;
    for (String l : new ArrayList<>(labels)) {
      String f = field + "[" + i++ + "]";
      if (l == null || !wellFormed(l)) {
        out.add(
            new InvalidRequestException.Violation(
                f,
                l,
                f
                    + " must be kind:name with kind one of "
                    + KINDS
                    + " (e.g. team:payments, role:admin, person:maya), was "
                    + (l == null ? "null" : "'" + l + "'")));
      } else {
        InputRules.checkLength(f, l, InputRules.MAX_KEY_CHARS, out);
      }
    }
  }

  private static boolean wellFormed(String l) {
    int c = l.indexOf(':');
    return c > 0 && KINDS.contains(l.substring(0, c)) && !l.substring(c + 1).isBlank();
  }
}

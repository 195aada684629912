package dev.mnemo.eval;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Exact match and token F1 of an answer against a gold answer, with the normalization of the SQuAD
 * evaluation script that LoCoMo's own scorer uses: lower case, punctuation removed, the articles
 * a/an/the dropped, white space collapsed. Written here because it is a dozen lines and no Java
 * library ships this exact definition (a different normalization gives different numbers).
 */
public final class AnswerScores {
  private AnswerScores() {}

  private static final Pattern PUNCT = Pattern.compile("[\\p{P}\\p{S}]");
  private static final Set<String> ARTICLES = Set.of("a", "an", "the");

  /** The normalized tokens. */
  public static List<String> tokens(String s) {
    List<String> out = new ArrayList<>();
    if (s == null) return out;
    for (String t :
        PUNCT.matcher(s.toLowerCase(Locale.ROOT)).replaceAll(" ").trim().split("\\s+")) {
      if (!t.isEmpty() && !ARTICLES.contains(t)) out.add(t);
    }
    return out;
  }

  /** 1 when the normalized texts are equal, else 0. */
  public static double exactMatch(String answer, String gold) {
    return tokens(answer).equals(tokens(gold)) ? 1 : 0;
  }

  /**
   * The harmonic mean of token precision and recall (multiset overlap); 0 when either side is
   * empty.
   */
  public static double f1(String answer, String gold) {
    List<String> a = tokens(answer);
    List<String> g = tokens(gold);
    if (a.isEmpty() || g.isEmpty()) return a.equals(g) ? 1 : 0;
    Map<String, Integer> counts = new HashMap<>();
    for (String t : g) counts.merge(t, 1, Integer::sum);
    int common = 0;
    for (String t : a) {
      Integer c = counts.get(t);
      if (c != null && c > 0) {
        common++;
        counts.put(t, c - 1);
      }
    }
    if (common == 0) return 0;
    double p = (double) common / a.size();
    double r = (double) common / g.size();
    return 2 * p * r / (p + r);
  }
}

package dev.mnemo.eval;

import dev.mnemo.llm.LlmAnswerer;
import dev.mnemo.llm.LlmCounterfactual;
import dev.mnemo.llm.LlmJudge;
import dev.mnemo.testkit.ScriptedChatModel;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A deterministic stand-in for a language model in the answer-level evaluation tests, on the
 * testkit's {@link ScriptedChatModel}: the answerer answers with the shown memory that shares the
 * most content words with the question (else "I don't know") and cites it; the judge says correct
 * when the answer's token F1 against the gold is at least 0.5 (or, for a nothing-stored gold, when
 * the answer says it does not know); the counterfactual editor replaces the memory's last word. Not
 * a model of quality: it makes every path of the evaluation run with known outcomes.
 */
final class FakeAnswerModel {
  private FakeAnswerModel() {}

  private static final Set<String> STOP =
      Set.of(
          "what", "which", "does", "did", "is", "of", "name", "when", "her", "his", "maya",
          "maya's", "ana", "ana's", "ben", "ben's", "use", "do", "in", "to", "s");
  private static final Pattern MEMORY =
      Pattern.compile("^(\\d+)\\. (?:\\[[^\\]]*\\] )?(.*)$", Pattern.MULTILINE);

  static ScriptedChatModel model() {
    return new ScriptedChatModel()
        .responder(
            c -> {
              if (c.system().equals(LlmAnswerer.SYSTEM_PROMPT)) return answer(c.user());
              if (c.system().equals(LlmJudge.RUBRIC)) return judge(c.user());
              if (c.system().equals(LlmCounterfactual.SYSTEM_PROMPT))
                return counterfactual(c.user());
              throw new IllegalStateException("unexpected prompt: " + c.system());
            });
  }

  static String answer(String user) {
    String question = user.substring(user.indexOf("Question: ") + "Question: ".length());
    List<String> q = content(question);
    Matcher m = MEMORY.matcher(user);
    int best = 0;
    int bestOverlap = 0;
    String bestText = null;
    while (m.find()) {
      List<String> words = content(m.group(2));
      int overlap = (int) q.stream().filter(words::contains).count();
      if (overlap > bestOverlap) {
        bestOverlap = overlap;
        best = Integer.parseInt(m.group(1));
        bestText = m.group(2);
      }
    }
    if (bestText == null) return "{\"answer\": \"I don't know\", \"used\": []}";
    return "{\"answer\": " + quote(bestText) + ", \"used\": [" + best + "]}";
  }

  static String judge(String user) {
    String gold = between(user, "Gold answer: ", "\nAssistant's answer: ");
    String answer =
        user.substring(user.indexOf("Assistant's answer: ") + "Assistant's answer: ".length());
    boolean correct =
        gold.equals(AnswerCase.NOTHING_STORED)
            ? answer.contains("don't know")
            : AnswerScores.f1(answer, gold) >= 0.5
                || AnswerScores.tokens(answer).containsAll(AnswerScores.tokens(gold));
    return "{\"correct\": " + correct + ", \"reason\": \"fake judge\"}";
  }

  static String counterfactual(String user) {
    String memory = user.substring("Memory: ".length());
    return "{\"text\": " + quote(memory.replaceAll("\\w+(\\W*)$", "Zanzibar$1")) + "}";
  }

  private static List<String> content(String s) {
    List<String> out = new ArrayList<>();
    for (String t : AnswerScores.tokens(s)) if (!STOP.contains(t) && t.length() > 2) out.add(t);
    return out;
  }

  private static String between(String s, String a, String b) {
    int i = s.indexOf(a) + a.length();
    return s.substring(i, s.indexOf(b, i));
  }

  private static String quote(String s) {
    return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
  }

  static LlmAnswerer answerer(dev.langchain4j.model.chat.ChatModel m) {
    return new LlmAnswerer(new dev.mnemo.llm.JsonChat(m));
  }
}

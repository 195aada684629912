package dev.mnemo.eval;

import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.mnemo.Turn;
import dev.mnemo.llm.JsonChat;
import dev.mnemo.llm.LlmExtractor;
import dev.mnemo.spi.Extractor;
import dev.mnemo.spi.Tokenizer;
import dev.mnemo.text.JTokkitTokenizer;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What LLM extraction of a LoCoMo directory costs in calls and prompt tokens, per batch size: every
 * session is one batch, as the write path hands them over; the prompts are the LLM extractor's own,
 * counted with {@code cl100k_base}. No model is called: a counting model answers every call with an
 * empty list, so output tokens are not included. Run: {@code java -cp mnemo.jar
 * dev.mnemo.eval.ExtractionCost DIR [N...]}.
 */
public final class ExtractionCost {
  private ExtractionCost() {}

  /** Counts prompt tokens and answers "nothing to remember". */
  static final class CountingModel implements ChatModel {
    private final Tokenizer tokenizer;
    int calls;
    long promptTokens;

    CountingModel(Tokenizer tokenizer) {
      this.tokenizer = tokenizer;
    }

    @Override
    public synchronized ChatResponse doChat(ChatRequest request) {
      calls++;
      for (ChatMessage m : request.messages()) {
        if (m instanceof SystemMessage s) promptTokens += tokenizer.count(s.text());
        if (m instanceof UserMessage u) promptTokens += tokenizer.count(u.singleText());
      }
      return ChatResponse.builder().aiMessage(AiMessage.from("{\"memories\": []}")).build();
    }
  }

  /** One row per batch size: turns, calls, prompt tokens. */
  public static String table(List<LocomoConversation> conversations, int... perCall) {
    StringBuilder b =
        new StringBuilder(
            String.format(
                Locale.ROOT,
                "%-16s %7s %7s %14s %9s%n",
                "turns per call",
                "turns",
                "calls",
                "prompt tokens",
                "per turn"));
    Tokenizer tok = JTokkitTokenizer.cl100k();
    for (int n : perCall) {
      CountingModel model = new CountingModel(tok);
      LlmExtractor extractor = new LlmExtractor(new JsonChat(model), n);
      int turns = 0;
      for (LocomoConversation c : conversations) {
        for (LocomoConversation.Session s : c.sessions()) {
          List<Turn> ts = new ArrayList<>();
          for (LocomoConversation.Turn t : s.turns()) {
            ts.add(
                Turn.of(c.name(), t.diaId(), Turn.Role.USER, t.speaker(), t.text(), s.at())
                    .inEpisode(s.episode()));
          }
          turns += ts.size();
          extractor.extract(new Extractor.Batch(c.name(), List.of(), ts, ZoneOffset.UTC));
        }
      }
      b.append(
          String.format(
              Locale.ROOT,
              "%-16d %7d %7d %14d %9.0f%n",
              n,
              turns,
              model.calls,
              model.promptTokens,
              (double) model.promptTokens / turns));
    }
    return b.toString();
  }

  public static void main(String[] args) {
    if (args.length < 1)
      throw new IllegalArgumentException("usage: ExtractionCost LOCOMO_DIR [TURNS_PER_CALL...]");
    int[] sizes =
        args.length == 1
            ? new int[] {1, 10, 30, 60}
            : java.util.Arrays.stream(args, 1, args.length).mapToInt(Integer::parseInt).toArray();
    System.out.print(table(LocomoLoader.loadDir(Path.of(args[0])), sizes));
  }
}

package dev.mnemo.eval;

import java.util.List;

/**
 * Wraps a question in everyday chatter, the way it arrives inside an agent's latest message, to
 * measure query formulation (seed 001: a search with the whole message is dominated by its
 * incidental words). The sentences are written for this purpose, about errands, weather, food and
 * work, so their words overlap with what memories talk about without answering anything. The choice
 * of sentences is a pure function of a key (the question's id), so runs are reproducible.
 */
final class Chatter {
  private Chatter() {}

  private static final List<String> BEFORE =
      List.of(
          "Morning! I just got back from walking the dog and the coffee machine at work is broken again.",
          "Sorry for the late reply, the train was packed and my phone battery died halfway through.",
          "Quick one before my meeting with the design team about the new office.",
          "It has been raining all week here and the kids are bored out of their minds.",
          "I spent the whole weekend cleaning the garage and found my old guitar.",
          "Lunch was a disaster today, the new sandwich place forgot half my order.",
          "My sister called about the holidays and we argued about who hosts dinner this year.",
          "I finally fixed the bike, the chain was rusty and the brakes needed new pads.");
  private static final List<String> AFTER =
      List.of(
          "Anyway, thanks a lot, talk later!",
          "No rush, I am heading to the gym now.",
          "Also remind me to buy milk on the way home.",
          "The weather looks better tomorrow, maybe a run in the park.",
          "Let me know, I will be on my laptop until six.",
          "Cheers, and say hi to the team.");

  /** {@code before + " " + question + " " + after}, the sentences chosen by the key's hash. */
  static String wrap(String question, String key) {
    int h = key.hashCode() & 0x7fffffff;
    return BEFORE.get(h % BEFORE.size())
        + " "
        + question
        + " "
        + AFTER.get((h / BEFORE.size()) % AFTER.size());
  }
}

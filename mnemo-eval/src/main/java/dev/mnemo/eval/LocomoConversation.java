package dev.mnemo.eval;

import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * One LoCoMo conversation as {@link LocomoLoader} reads it: two speakers, their sessions of turns,
 * and the questions with their evidence turns. The dataset authors' annotations (observations,
 * summaries, events) are not part of it: an agent never heard them.
 *
 * <p>Immutable.
 *
 * @param name the conversation's name (its file name without {@code .json}); the owner of its
 *     memories
 * @param speakerA first speaker's name
 * @param speakerB second speaker's name
 * @param sessions sessions in order of their number
 * @param questions the questions, in file order
 */
public record LocomoConversation(
    String name,
    String speakerA,
    String speakerB,
    List<Session> sessions,
    List<Question> questions) {

  public LocomoConversation {
    Objects.requireNonNull(name, "name");
    sessions = List.copyOf(sessions);
    questions = List.copyOf(questions);
  }

  /**
   * One session: when it happened and its turns.
   *
   * @param number the N of {@code session_N}
   * @param at its {@code session_N_date_time}, read as UTC
   * @param turns its turns in order
   */
  public record Session(int number, Instant at, List<Turn> turns) {
    public Session {
      Objects.requireNonNull(at, "at");
      turns = List.copyOf(turns);
    }

    /** The episode id its turns are written with. */
    public String episode() {
      return "session_" + number;
    }
  }

  /**
   * One turn.
   *
   * @param diaId its id, e.g. {@code D3:12}
   * @param speaker who said it
   * @param text what was said
   * @param imageCaption caption of an image shared in the turn ({@code blip_caption}), or null
   */
  public record Turn(String diaId, String speaker, String text, String imageCaption) {
    public Turn {
      Objects.requireNonNull(diaId, "diaId");
      Objects.requireNonNull(speaker, "speaker");
      Objects.requireNonNull(text, "text");
    }

    /**
     * The memory text: {@code "Speaker: text"}, plus {@code " [shares an image: caption]"} when
     * there is one.
     */
    public String memoryText() {
      String t = speaker + ": " + text;
      return imageCaption == null || imageCaption.isBlank()
          ? t
          : t + " [shares an image: " + imageCaption + "]";
    }
  }

  /**
   * One question.
   *
   * @param text the question
   * @param category 1 multi-hop, 2 temporal, 3 open-domain, 4 single-hop, 5 adversarial
   * @param evidence normalized evidence turn ids that name a turn of this conversation, without
   *     repeats
   * @param skippedEvidence evidence ids as given that name no turn, even after normalization
   * @param answer the gold answer as text (numbers too), or null
   */
  public record Question(
      String text,
      int category,
      List<String> evidence,
      List<String> skippedEvidence,
      String answer) {
    /** A question without a gold answer. */
    public Question(
        String text, int category, List<String> evidence, List<String> skippedEvidence) {
      this(text, category, evidence, skippedEvidence, null);
    }

    public Question {
      Objects.requireNonNull(text, "text");
      evidence = List.copyOf(evidence);
      skippedEvidence = List.copyOf(skippedEvidence);
    }
  }

  /** Every turn, session by session. */
  public List<Turn> turns() {
    return sessions.stream().flatMap(s -> s.turns().stream()).toList();
  }

  /** The time of the last session. */
  public Instant lastSessionAt() {
    return sessions.stream()
        .map(Session::at)
        .max(Instant::compareTo)
        .orElseThrow(() -> new IllegalStateException("conversation " + name + " has no sessions"));
  }
}

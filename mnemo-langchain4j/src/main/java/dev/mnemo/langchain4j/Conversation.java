package dev.mnemo.langchain4j;

import java.util.Objects;

/**
 * A chat memory id that names both the owner whose long-term memory a conversation reads and
 * writes, and the conversation itself (its message window, and the episode its turns are recorded
 * under). Pass it as the {@code @MemoryId} of an AI Service method so that one user's conversations
 * share what Mnemo remembers while each keeps its own window. Any other memory id is used as the
 * owner and the conversation at once.
 *
 * @param owner the Mnemo owner (a user, a tenant's user id); not blank
 * @param id the conversation's id; not blank
 */
public record Conversation(String owner, String id) {
  public Conversation {
    if (owner == null || owner.isBlank()) throw new IllegalArgumentException("owner must not be blank, was " + owner);
    if (id == null || id.isBlank()) throw new IllegalArgumentException("id must not be blank, was " + id);
  }

  public static Conversation of(String owner, String id) {
    return new Conversation(owner, id);
  }

  /** The owner a memory id stands for: a {@link Conversation}'s owner, else the id's string form. */
  static String ownerOf(Object memoryId) {
    Objects.requireNonNull(memoryId, "memory id");
    return memoryId instanceof Conversation c ? c.owner() : memoryId.toString();
  }

  /** The episode a memory id's turns are recorded under. */
  static String episodeOf(Object memoryId) {
    return memoryId instanceof Conversation c ? c.id() : memoryId.toString();
  }

  @Override
  public String toString() {
    return owner + "/" + id;
  }
}

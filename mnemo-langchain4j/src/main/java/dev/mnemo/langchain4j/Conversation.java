package dev.mnemo.langchain4j;

import java.util.Objects;
import java.util.Set;

/**
 * A chat memory id that names both the owner whose long-term memory a conversation reads and
 * writes, and the conversation itself (its message window, and the episode its turns are recorded
 * under). Pass it as the {@code @MemoryId} of an AI Service method so that one user's conversations
 * share what Mnemo remembers while each keeps its own window. Any other memory id is used as the
 * owner and the conversation at once.
 *
 * @param owner the Mnemo owner (a user, a tenant's user id); not blank
 * @param id the conversation's id; not blank
 * @param principals the principals of the person talking ({@code team:..}, {@code role:..}, {@code
 *     person:..}): the conversation's recalls see records with access labels only for one of them
 *     ({@link dev.mnemo.Access}); empty: only records without labels
 */
public record Conversation(String owner, String id, Set<String> principals) {
  public Conversation {
    if (owner == null || owner.isBlank())
      throw new IllegalArgumentException("owner must not be blank, was " + owner);
    if (id == null || id.isBlank())
      throw new IllegalArgumentException("id must not be blank, was " + id);
    principals = principals == null ? Set.of() : Set.copyOf(principals);
  }

  /** A conversation whose recalls see only the owner's records without access labels. */
  public Conversation(String owner, String id) {
    this(owner, id, Set.of());
  }

  public static Conversation of(String owner, String id) {
    return new Conversation(owner, id);
  }

  /**
   * A conversation of a person holding {@code principals} ({@code team:..}, {@code role:..}, {@code
   * person:..}).
   */
  public static Conversation of(String owner, String id, Set<String> principals) {
    return new Conversation(owner, id, principals);
  }

  /** The principals a memory id stands for: a {@link Conversation}'s, else none. */
  static Set<String> principalsOf(Object memoryId) {
    return memoryId instanceof Conversation c ? c.principals() : Set.of();
  }

  /**
   * The owner a memory id stands for: a {@link Conversation}'s owner, else the id's string form.
   */
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

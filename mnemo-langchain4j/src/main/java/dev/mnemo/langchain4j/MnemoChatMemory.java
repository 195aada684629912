package dev.mnemo.langchain4j;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.TextContent;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.memory.ChatMemory;
import dev.langchain4j.memory.chat.ChatMemoryProvider;
import dev.langchain4j.memory.chat.MessageWindowChatMemory;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.store.memory.chat.ChatMemoryStore;
import dev.mnemo.Focus;
import dev.mnemo.Mnemo;
import dev.mnemo.MnemoException;
import dev.mnemo.RecallRequest;
import dev.mnemo.Turn;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;

/**
 * A LangChain4j {@link ChatMemory} with two horizons: the short window LangChain4j users know (a
 * {@link MessageWindowChatMemory} of the last {@code maxMessages} messages, which it delegates to)
 * and Mnemo's long-term memory of the owner, across conversations.
 *
 * <pre>{@code
 * MnemoChatMemory.Builder memories = MnemoChatMemory.builder(mnemo).maxMessages(20).budgetTokens(300);
 * Assistant assistant = AiServices.builder(Assistant.class).chatModel(model)
 *     .chatMemoryProvider(memories.provider())              // the window, and finished turns to Mnemo
 *     .chatRequestTransformer(memories.recallInto())        // long-term records into the system message
 *     .build();
 * }</pre>
 *
 * <p><b>Writing.</b> Each finished turn (the user's message, any tool calls and results, and the
 * assistant's final answer) is handed to {@link Mnemo#ingest} as {@link Turn}s of the owner, in the
 * conversation's episode; the engine's write path decides what becomes a memory (tool events never
 * do). A retriable failure (a server that is down) keeps the turn and sends it with the next one,
 * with a warning; any other failure is thrown from {@link #add}. System messages are not ingested.
 *
 * <p><b>Reading.</b> The owner's records recalled for the user's latest message are put, as the
 * engine renders them (dated, inside the token budget), into the system message, after the AI
 * Service's own instructions, or as a system message of their own. AI Services read a chat memory
 * <em>before</em> adding the new user message to it, so there the recall happens in the request
 * transformer {@link Builder#recallInto()}; used directly (add the user message, then read
 * {@link #messages()}), the memory recalls itself when its last message is the user's. A retriable
 * recall failure leaves the block out, with a warning. Recent turns of the current conversation may
 * appear both in the window and in the block: the engine cannot tell, and the block stays within
 * its budget.
 *
 * <p>The owner comes from the memory id ({@link Conversation#owner()}, or the id's string form).
 * {@link #clear()} clears the window only; forgetting long-term records is {@link Mnemo#forget}.
 * Thread-safe (every method is synchronized on the memory).
 */
public final class MnemoChatMemory implements ChatMemory {
  private static final System.Logger LOG = System.getLogger(MnemoChatMemory.class.getName());

  private final Mnemo mnemo;
  private final MessageWindowChatMemory window;
  private final String owner;
  private final java.util.Set<String> principals;
  private final String episode;
  private final Builder settings;
  private final List<Turn> pending = new ArrayList<>();
  private UserMessage recalledFor;
  private String recalled = "";

  private MnemoChatMemory(Builder b, Object memoryId) {
    this.mnemo = b.mnemo;
    this.settings = b.copy(); // later changes to the builder do not reach memories already made
    this.owner = b.ownerOf.apply(memoryId);
    this.principals = b.principalsOf.apply(memoryId);
    if (owner == null || owner.isBlank()) throw new IllegalArgumentException("memory id " + memoryId + " names no owner");
    this.episode = Conversation.episodeOf(memoryId);
    MessageWindowChatMemory.Builder w = MessageWindowChatMemory.builder().id(memoryId).maxMessages(b.maxMessages);
    if (b.store != null) w.chatMemoryStore(b.store);
    this.window = w.build();
  }

  /** Settings shared by every memory of a provider; the Mnemo is the caller's (not closed here). */
  public static Builder builder(Mnemo mnemo) {
    return new Builder(mnemo);
  }

  /** A provider for AI Services ({@code .chatMemoryProvider(...)}) with the default settings. */
  public static ChatMemoryProvider provider(Mnemo mnemo) {
    return builder(mnemo).provider();
  }

  /** The owner whose long-term memory this conversation reads and writes. */
  public String owner() {
    return owner;
  }

  @Override
  public Object id() {
    return window.id();
  }

  @Override
  public synchronized void add(ChatMessage message) {
    window.add(message);
    switch (message) {
      case UserMessage u -> {
        String text = text(u);
        if (!text.isBlank()) pending.add(turn(Turn.Role.USER, u.name(), text));
      }
      case AiMessage a when a.hasToolExecutionRequests() -> {
        for (ToolExecutionRequest r : a.toolExecutionRequests()) {
          pending.add(turn(Turn.Role.TOOL_CALL, null, r.name() + "(" + r.arguments() + ")"));
        }
      }
      case AiMessage a -> {
        if (a.text() != null && !a.text().isBlank()) pending.add(turn(Turn.Role.ASSISTANT, null, a.text()));
        flush();
      }
      case ToolExecutionResultMessage r -> {
        if (r.text() != null && !r.text().isBlank()) pending.add(turn(Turn.Role.TOOL_RESULT, r.toolName(), r.text()));
      }
      default -> { } // system and custom messages are instructions, not conversation
    }
  }

  /** Replaces the window's messages (LangChain4j's rewrite of a history); nothing is ingested again. */
  @Override
  public synchronized void set(Iterable<ChatMessage> messages) {
    window.set(messages);
  }

  /** The window; with the owner's recalled records in the system message when the last message is the user's. */
  @Override
  public synchronized List<ChatMessage> messages() {
    List<ChatMessage> messages = window.messages();
    if (messages.isEmpty() || !(messages.getLast() instanceof UserMessage last)) return messages;
    if (last != recalledFor) {
      recalled = settings.recall(owner, principals, text(last));
      recalledFor = last;
    }
    return settings.inject(messages, recalled);
  }

  @Override
  public synchronized void clear() {
    window.clear();
    pending.clear();
    recalledFor = null;
    recalled = "";
  }

  private void flush() {
    if (pending.isEmpty()) return;
    try {
      mnemo.ingest(List.copyOf(pending));
      pending.clear();
    } catch (MnemoException e) {
      if (!e.retriable()) throw e;
      LOG.log(System.Logger.Level.WARNING, "ingest of {0} turns of owner {1} failed; kept for the next turn: {2}",
          pending.size(), owner, e.getMessage());
    }
  }

  private Turn turn(Turn.Role role, String speaker, String text) {
    String id = UUID.randomUUID().toString();
    return new Turn(id, owner, episode, role, speaker, text, settings.clock.instant(), id, 1, Turn.Status.COMPLETE, Map.of());
  }

  private static String text(UserMessage u) {
    return u.contents().stream().filter(TextContent.class::isInstance).map(c -> ((TextContent) c).text())
        .collect(Collectors.joining("\n"));
  }

  /**
   * Configures the memories of a provider. Defaults: a window of 20 messages in memory, owner from
   * the memory id, 400 tokens and k 5 per recall, no preface, the system clock for turn times.
   */
  public static final class Builder {
    private final Mnemo mnemo;
    private int maxMessages = 20;
    private ChatMemoryStore store;
    private Function<Object, String> ownerOf = Conversation::ownerOf;
    private Function<Object, java.util.Set<String>> principalsOf = Conversation::principalsOf;
    private int budgetTokens = RecallRequest.DEFAULT_BUDGET;
    private int k = RecallRequest.DEFAULT_K;
    private UnaryOperator<RecallRequest.Builder> request = UnaryOperator.identity();
    private Function<String, Focus> focus = Focus::fromMessage;
    private String preface = "";
    private InstantSource clock = InstantSource.system();

    private Builder(Mnemo mnemo) {
      this.mnemo = Objects.requireNonNull(mnemo, "mnemo");
    }

    /** Messages kept in the window (LangChain4j's {@code maxMessages}). */
    public Builder maxMessages(int v) {
      if (v < 1) throw new IllegalArgumentException("maxMessages must be >= 1, was " + v);
      this.maxMessages = v;
      return this;
    }

    /** Where the window's messages persist (LangChain4j's {@link ChatMemoryStore}); default in memory. */
    public Builder chatMemoryStore(ChatMemoryStore v) { this.store = v; return this; }

    /** How a memory id names the owner; default {@link Conversation#owner()} or the id's string form. */
    public Builder ownerOf(Function<Object, String> v) { this.ownerOf = Objects.requireNonNull(v, "ownerOf"); return this; }

    /**
     * The principals of the person behind a memory id ({@code team:..}, {@code role:..},
     * {@code person:..}): recalls see records with access labels only for one of them. Default
     * {@link Conversation#principals()}, none for any other id (only records without labels).
     */
    public Builder principalsOf(Function<Object, java.util.Set<String>> v) {
      this.principalsOf = Objects.requireNonNull(v, "principalsOf");
      return this;
    }

    /** The token budget of the recalled block. */
    public Builder budgetTokens(int v) { this.budgetTokens = v; return this; }

    public Builder k(int v) { this.k = v; return this; }

    /**
     * The focus of a recall for a message (what it asks, apart from its chatter); default
     * {@link Focus#fromMessage} (the message's questions, found by rule; a message that asks nothing
     * is searched as it is). {@code m -> Focus.NONE} searches with the whole message.
     */
    public Builder focus(Function<String, Focus> v) { this.focus = Objects.requireNonNull(v, "focus"); return this; }

    /** Any other recall option (scope, categories, weights, ...). */
    public Builder request(UnaryOperator<RecallRequest.Builder> v) { this.request = Objects.requireNonNull(v, "request"); return this; }

    /** A line put before the recalled block, e.g. {@code "What you remember about this user:\n"}. */
    public Builder preface(String v) { this.preface = Objects.requireNonNull(v, "preface"); return this; }

    /** The clock that dates ingested turns. */
    public Builder clock(InstantSource v) { this.clock = Objects.requireNonNull(v, "clock"); return this; }

    private Builder copy() {
      Builder c = new Builder(mnemo);
      c.maxMessages = maxMessages;
      c.store = store;
      c.ownerOf = ownerOf;
      c.principalsOf = principalsOf;
      c.budgetTokens = budgetTokens;
      c.k = k;
      c.request = request;
      c.focus = focus;
      c.preface = preface;
      c.clock = clock;
      return c;
    }

    /**
     * For AI Services' {@code chatRequestTransformer}: recalls the records of the memory id's owner
     * for the request's latest user message and puts them into its system message. Requests without
     * a user message pass unchanged.
     */
    public BiFunction<ChatRequest, Object, ChatRequest> recallInto() {
      Builder frozen = copy();
      return (request, memoryId) -> {
        UserMessage last = UserMessage.findLast(request.messages()).orElse(null);
        if (last == null || memoryId == null) return request;
        String block = frozen.recall(frozen.ownerOf.apply(memoryId), frozen.principalsOf.apply(memoryId), text(last));
        return block.isEmpty() ? request : request.toBuilder().messages(frozen.inject(request.messages(), block)).build();
      };
    }

    /** The rendered block for the query, or "" (also after a retriable failure, with a warning). */
    private String recall(String owner, java.util.Set<String> principals, String query) {
      if (query.isBlank()) return "";
      try {
        return mnemo.recall(request.apply(RecallRequest.builder(owner, query).budgetTokens(budgetTokens).k(k)
                .focus(focus.apply(query)).principals(principals)).build())
            .rendered();
      } catch (MnemoException e) {
        if (!e.retriable()) throw e;
        LOG.log(System.Logger.Level.WARNING, "recall for owner {0} failed, answering without long-term memory: {1}",
            owner, e.getMessage());
        return "";
      }
    }

    /** The messages with the block appended to the first system message, or in one of its own first. */
    private List<ChatMessage> inject(List<ChatMessage> messages, String block) {
      if (block.isEmpty()) return messages;
      List<ChatMessage> out = new ArrayList<>(messages);
      String text = preface + block;
      if (!out.isEmpty() && out.get(0) instanceof SystemMessage s) {
        if (s.text().contains(block)) return messages; // already there (memory and transformer both used)
        out.set(0, SystemMessage.from(s.text() + "\n\n" + text));
      } else {
        out.add(0, SystemMessage.from(text));
      }
      return out;
    }

    /** One memory for this id. */
    public MnemoChatMemory build(Object memoryId) {
      Objects.requireNonNull(memoryId, "memoryId");
      RecallRequest.builder("check", "").budgetTokens(budgetTokens).k(k).build(); // the engine's checks, now
      return new MnemoChatMemory(this, memoryId);
    }

    /** A provider making one memory per memory id (AI Services keeps one per id). */
    public ChatMemoryProvider provider() {
      RecallRequest.builder("check", "").budgetTokens(budgetTokens).k(k).build();
      Builder frozen = copy();
      return frozen::build;
    }
  }
}

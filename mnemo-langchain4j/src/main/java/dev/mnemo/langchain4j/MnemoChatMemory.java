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
import dev.mnemo.MemoryRecord;
import dev.mnemo.Mnemo;
import dev.mnemo.MnemoException;
import dev.mnemo.RecallRequest;
import dev.mnemo.RecallResult;
import dev.mnemo.Recalled;
import dev.mnemo.Turn;
import dev.mnemo.UsedRecords;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Collection;
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
 * transformer {@link Builder#recallInto()}; used directly (add the user message, then read {@link
 * #messages()}), the memory recalls itself when its last message is the user's. A retriable recall
 * failure leaves the block out, with a warning. Recent turns of the current conversation may appear
 * both in the window and in the block: the engine cannot tell, and the block stays within its
 * budget.
 *
 * <p><b>Usage feedback.</b> When the assistant's final answer is added, the records recalled for
 * the question it answers (by the transformer or by {@link #messages()}) are compared with it, and
 * those the answer used ({@link UsedRecords}: a shared name or number, or two content words not in
 * the question) are reported with {@link Mnemo#markUsed}, which feeds the frequency signal and the
 * retrieval log's use rate. {@link Builder#usageFeedback(boolean) usageFeedback(false)} turns this
 * off; {@link #recalled()} and {@link #markUsed(Collection)} let the application report the records
 * it knows were used instead. A failed report is logged, never thrown: feedback never breaks a
 * chat.
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
  private Recall recalled = Recall.NONE;

  private MnemoChatMemory(Builder b, Object memoryId) {
    this.mnemo = b.mnemo;
    this.settings = b.copy(); // later changes to the builder do not reach memories already made
    this.owner = b.ownerOf.apply(memoryId);
    this.principals = b.principalsOf.apply(memoryId);
    if (owner == null || owner.isBlank())
      throw new IllegalArgumentException("memory id " + memoryId + " names no owner");
    this.episode = Conversation.episodeOf(memoryId);
    MessageWindowChatMemory.Builder w =
        MessageWindowChatMemory.builder().id(memoryId).maxMessages(b.maxMessages);
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
        if (a.text() != null && !a.text().isBlank()) {
          pending.add(turn(Turn.Role.ASSISTANT, null, a.text()));
          feedback(a.text());
        }
        flush();
      }
      case ToolExecutionResultMessage r -> {
        if (r.text() != null && !r.text().isBlank())
          pending.add(turn(Turn.Role.TOOL_RESULT, r.toolName(), r.text()));
      }
      default -> {} // system and custom messages are instructions, not conversation
    }
  }

  /**
   * Replaces the window's messages (LangChain4j's rewrite of a history); nothing is ingested again.
   */
  @Override
  public synchronized void set(Iterable<ChatMessage> messages) {
    window.set(messages);
  }

  /**
   * The window; with the owner's recalled records in the system message when the last message is
   * the user's.
   */
  @Override
  public synchronized List<ChatMessage> messages() {
    List<ChatMessage> messages = window.messages();
    if (messages.isEmpty() || !(messages.getLast() instanceof UserMessage last)) return messages;
    if (last != recalledFor) {
      recalled = settings.recall(owner, principals, text(last));
      settings.lastRecalls.put(id(), recalled);
      recalledFor = last;
    }
    return settings.inject(messages, recalled.block());
  }

  /**
   * The records recalled for the latest user message (by the request transformer or by {@link
   * #messages()}) and not yet answered; empty when nothing was recalled.
   */
  public synchronized List<MemoryRecord> recalled() {
    return settings.lastRecalls.peek(id()).records();
  }

  /**
   * Reports that the answer used these records of the owner ({@link Mnemo#markUsed}); returns how
   * many were updated. For applications that know which records were used; with {@link
   * Builder#usageFeedback(boolean)} on (the default) the memory also reports by overlap.
   */
  public int markUsed(Collection<String> ids) {
    return mnemo.markUsed(owner, ids);
  }

  /**
   * Reports the recalled records the answer used, by overlap; a failure is logged, never thrown.
   */
  private void feedback(String answer) {
    Recall r = settings.lastRecalls.take(id());
    if (!settings.usageFeedback || r.records().isEmpty()) return;
    List<String> used = UsedRecords.in(r.question(), answer, r.records());
    if (used.isEmpty()) return;
    try {
      mnemo.markUsed(owner, used);
    } catch (RuntimeException e) {
      LOG.log(
          System.Logger.Level.WARNING,
          "usage feedback for owner {0} failed: {1}",
          owner,
          e.getMessage());
    }
  }

  @Override
  public synchronized void clear() {
    window.clear();
    pending.clear();
    recalledFor = null;
    recalled = Recall.NONE;
    settings.lastRecalls.take(id());
  }

  private void flush() {
    if (pending.isEmpty()) return;
    try {
      mnemo.ingest(List.copyOf(pending));
      pending.clear();
    } catch (MnemoException e) {
      if (!e.retriable()) throw e;
      LOG.log(
          System.Logger.Level.WARNING,
          "ingest of {0} turns of owner {1} failed; kept for the next turn: {2}",
          pending.size(),
          owner,
          e.getMessage());
    }
  }

  private Turn turn(Turn.Role role, String speaker, String text) {
    String id = UUID.randomUUID().toString();
    return new Turn(
        id,
        owner,
        episode,
        role,
        speaker,
        text,
        settings.clock.instant(),
        id,
        1,
        Turn.Status.COMPLETE,
        Map.of());
  }

  private static String text(UserMessage u) {
    return u.contents().stream()
        .filter(TextContent.class::isInstance)
        .map(c -> ((TextContent) c).text())
        .collect(Collectors.joining("\n"));
  }

  /** What one recall put into a prompt: the question, the records and their rendered block. */
  record Recall(String question, List<MemoryRecord> records, String block) {
    static final Recall NONE = new Recall(null, List.of(), "");
  }

  /**
   * The latest recall per memory id, waiting for its answer: shared by the request transformer and
   * the memories of one builder, so that the memory that receives the answer knows what was
   * recalled. Bounded: beyond {@value #MAX} ids waiting, the oldest is dropped (its answer then
   * reports nothing).
   */
  static final class LastRecalls {
    static final int MAX = 10_000;
    private final Map<Object, Recall> byId =
        new java.util.LinkedHashMap<>(16, 0.75f, false) {
          @Override
          protected boolean removeEldestEntry(Map.Entry<Object, Recall> eldest) {
            return size() > MAX;
          }
        };

    synchronized void put(Object memoryId, Recall r) {
      byId.remove(memoryId); // re-inserted as the newest
      byId.put(memoryId, r);
    }

    synchronized Recall peek(Object memoryId) {
      return byId.getOrDefault(memoryId, Recall.NONE);
    }

    synchronized Recall take(Object memoryId) {
      Recall r = byId.remove(memoryId);
      return r == null ? Recall.NONE : r;
    }
  }

  /**
   * Configures the memories of a provider. Defaults: a window of 20 messages in memory, owner from
   * the memory id, 400 tokens and k 5 per recall, no preface, the system clock for turn times,
   * usage feedback by overlap on.
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
    private boolean usageFeedback = true;

    /** Shared by every copy of this builder (the transformer's and the provider's). */
    private LastRecalls lastRecalls = new LastRecalls();

    private Builder(Mnemo mnemo) {
      this.mnemo = Objects.requireNonNull(mnemo, "mnemo");
    }

    /** Messages kept in the window (LangChain4j's {@code maxMessages}). */
    public Builder maxMessages(int v) {
      if (v < 1) throw new IllegalArgumentException("maxMessages must be >= 1, was " + v);
      this.maxMessages = v;
      return this;
    }

    /**
     * Where the window's messages persist (LangChain4j's {@link ChatMemoryStore}); default in
     * memory.
     */
    public Builder chatMemoryStore(ChatMemoryStore v) {
      this.store = v;
      return this;
    }

    /**
     * How a memory id names the owner; default {@link Conversation#owner()} or the id's string
     * form.
     */
    public Builder ownerOf(Function<Object, String> v) {
      this.ownerOf = Objects.requireNonNull(v, "ownerOf");
      return this;
    }

    /**
     * The principals of the person behind a memory id ({@code team:..}, {@code role:..}, {@code
     * person:..}): recalls see records with access labels only for one of them. Default {@link
     * Conversation#principals()}, none for any other id (only records without labels).
     */
    public Builder principalsOf(Function<Object, java.util.Set<String>> v) {
      this.principalsOf = Objects.requireNonNull(v, "principalsOf");
      return this;
    }

    /** The token budget of the recalled block. */
    public Builder budgetTokens(int v) {
      this.budgetTokens = v;
      return this;
    }

    public Builder k(int v) {
      this.k = v;
      return this;
    }

    /**
     * The focus of a recall for a message (what it asks, apart from its chatter); default {@link
     * Focus#fromMessage} (the message's questions, found by rule; a message that asks nothing is
     * searched as it is). {@code m -> Focus.NONE} searches with the whole message.
     */
    public Builder focus(Function<String, Focus> v) {
      this.focus = Objects.requireNonNull(v, "focus");
      return this;
    }

    /** Any other recall option (scope, categories, weights, ...). */
    public Builder request(UnaryOperator<RecallRequest.Builder> v) {
      this.request = Objects.requireNonNull(v, "request");
      return this;
    }

    /**
     * A line put before the recalled block, e.g. {@code "What you remember about this user:\n"}.
     */
    public Builder preface(String v) {
      this.preface = Objects.requireNonNull(v, "preface");
      return this;
    }

    /**
     * Whether the assistant's answer is compared with the records recalled for it and the ones it
     * used are reported ({@link UsedRecords}, {@link Mnemo#markUsed}); default true.
     */
    public Builder usageFeedback(boolean v) {
      this.usageFeedback = v;
      return this;
    }

    /** The clock that dates ingested turns. */
    public Builder clock(InstantSource v) {
      this.clock = Objects.requireNonNull(v, "clock");
      return this;
    }

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
      c.usageFeedback = usageFeedback;
      c.lastRecalls = lastRecalls;
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
        Recall r =
            frozen.recall(
                frozen.ownerOf.apply(memoryId), frozen.principalsOf.apply(memoryId), text(last));
        frozen.lastRecalls.put(memoryId, r);
        return r.block().isEmpty()
            ? request
            : request.toBuilder().messages(frozen.inject(request.messages(), r.block())).build();
      };
    }

    /** The recall for the query, or none (also after a retriable failure, with a warning). */
    private Recall recall(String owner, java.util.Set<String> principals, String query) {
      if (query.isBlank()) return Recall.NONE;
      try {
        RecallResult r =
            mnemo.recall(
                request
                    .apply(
                        RecallRequest.builder(owner, query)
                            .budgetTokens(budgetTokens)
                            .k(k)
                            .focus(focus.apply(query))
                            .principals(principals))
                    .build());
        return new Recall(
            query, r.selected().stream().map(Recalled::record).toList(), r.rendered());
      } catch (MnemoException e) {
        if (!e.retriable()) throw e;
        LOG.log(
            System.Logger.Level.WARNING,
            "recall for owner {0} failed, answering without long-term memory: {1}",
            owner,
            e.getMessage());
        return Recall.NONE;
      }
    }

    /**
     * The messages with the block appended to the first system message, or in one of its own first.
     */
    private List<ChatMessage> inject(List<ChatMessage> messages, String block) {
      if (block.isEmpty()) return messages;
      List<ChatMessage> out = new ArrayList<>(messages);
      String text = preface + block;
      if (!out.isEmpty() && out.get(0) instanceof SystemMessage s) {
        if (s.text().contains(block))
          return messages; // already there (memory and transformer both used)
        out.set(0, SystemMessage.from(s.text() + "\n\n" + text));
      } else {
        out.add(0, SystemMessage.from(text));
      }
      return out;
    }

    /** One memory for this id. */
    public MnemoChatMemory build(Object memoryId) {
      Objects.requireNonNull(memoryId, "memoryId");
      RecallRequest.builder("check", "")
          .budgetTokens(budgetTokens)
          .k(k)
          .build(); // the engine's checks, now
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

package dev.mnemo.spring.ai;

import dev.mnemo.Focus;
import dev.mnemo.MemoryRecord;
import dev.mnemo.Mnemo;
import dev.mnemo.MnemoException;
import dev.mnemo.RecallRequest;
import dev.mnemo.RecallResult;
import dev.mnemo.Recalled;
import dev.mnemo.Turn;
import dev.mnemo.UsedRecords;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import org.springframework.ai.chat.client.ChatClientRequest;
import org.springframework.ai.chat.client.ChatClientResponse;
import org.springframework.ai.chat.client.advisor.api.AdvisorChain;
import org.springframework.ai.chat.client.advisor.api.BaseAdvisor;
import org.springframework.ai.chat.memory.ChatMemory;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.SystemMessage;
import org.springframework.ai.chat.messages.UserMessage;

/**
 * A Spring AI advisor that gives a {@code ChatClient} Mnemo's long-term memory: before the model
 * call it recalls the owner's records for the user's message and appends the rendered block (dated,
 * inside the token budget) to the system message; after the call it hands the exchange (the user's
 * message and the answer) to {@link Mnemo#ingest}, whose write path decides what becomes a memory.
 *
 * <pre>{@code
 * ChatClient chat = ChatClient.builder(model).defaultAdvisors(MnemoAdvisor.builder(mnemo).build()).build();
 * chat.prompt().user("What is my dog called?")
 *     .advisors(a -> a.param(MnemoAdvisor.OWNER, "maya").param(ChatMemory.CONVERSATION_ID, "chat-7"))
 *     .call().content();
 * }</pre>
 *
 * <p><b>Owner.</b> The request context's {@link #OWNER} parameter, else Spring AI's {@link
 * ChatMemory#CONVERSATION_ID}, else the builder's {@code defaultOwner}; with none, the call is
 * refused with an {@link IllegalArgumentException} (Mnemo never guesses an owner). The conversation
 * id, when given, is the episode the turns are recorded under.
 *
 * <p><b>Focus.</b> What the recall is about, apart from the chatter of the user's message: the
 * context's {@link #FOCUS} parameter (a {@link Focus}, e.g. the task the application knows), else
 * the builder's {@code focus} function of the message, by default {@link Focus#fromMessage} (the
 * message's questions, found by rule).
 *
 * <p><b>Usage feedback.</b> After the call, the records recalled for the message are compared with
 * the answer, and those it used ({@link UsedRecords}: a shared name or number, or two content words
 * not in the question) are reported with {@link Mnemo#markUsed}, which feeds the frequency signal
 * and the retrieval log's use rate. {@code usageFeedback(false)} turns this off; the records
 * recalled are in the response context under {@link #RECALLED} and {@link #markUsed} reports the
 * ones the application knows were used. A failed report is logged, never thrown.
 *
 * <p><b>Access.</b> The context's {@link #PRINCIPALS} parameter (a collection of {@code team:..},
 * {@code role:..}, {@code person:..} strings: who the user is) is what the recall runs with: the
 * owner's records with access labels are recalled only for one of them, those without labels for
 * everyone; without it, only records without labels ({@link dev.mnemo.Access}).
 *
 * <p><b>Failures.</b> A retriable failure (a remote server down) does not fail the call: a failed
 * recall answers without long-term memory, a failed ingest keeps the turns and sends them with the
 * owner's next exchange; both log a warning. Other failures are thrown. Streaming goes through
 * {@link BaseAdvisor}'s default, which calls {@link #after} once on the aggregated answer.
 * Thread-safe.
 */
public final class MnemoAdvisor implements BaseAdvisor {
  /** Context parameter naming the owner whose memory the call reads and writes. */
  public static final String OWNER = "mnemo_owner";

  /**
   * Context parameter holding this call's {@link Focus} (what the recall is about), instead of the
   * built one.
   */
  public static final String FOCUS = "mnemo_focus";

  /**
   * Context key (request after this advisor, and response) of the records recalled for the call's
   * message: a {@code List<MemoryRecord>}, empty when nothing was recalled.
   */
  public static final String RECALLED = "mnemo_recalled";

  /**
   * Context parameter holding the user's principals (a {@code Collection<String>}: {@code team:..},
   * {@code role:..}, {@code person:..}) that this call's recall runs with.
   */
  public static final String PRINCIPALS = "mnemo_principals";

  private static final String USER_TURN = MnemoAdvisor.class.getName() + ".userTurn";
  private static final System.Logger LOG = System.getLogger(MnemoAdvisor.class.getName());

  private final Mnemo mnemo;
  private final String defaultOwner;
  private final int budgetTokens;
  private final int k;
  private final UnaryOperator<RecallRequest.Builder> request;
  private final Function<String, Focus> focus;
  private final String preface;
  private final InstantSource clock;
  private final int order;
  private final boolean usageFeedback;
  private final Map<String, List<Turn>> pending = new ConcurrentHashMap<>();

  private MnemoAdvisor(Builder b) {
    this.mnemo = b.mnemo;
    this.defaultOwner = b.defaultOwner;
    this.budgetTokens = b.budgetTokens;
    this.k = b.k;
    this.request = b.request;
    this.focus = b.focus;
    this.preface = b.preface;
    this.clock = b.clock;
    this.order = b.order;
    this.usageFeedback = b.usageFeedback;
  }

  public static Builder builder(Mnemo mnemo) {
    return new Builder(mnemo);
  }

  @Override
  public String getName() {
    return "MnemoAdvisor";
  }

  @Override
  public int getOrder() {
    return order;
  }

  @Override
  public ChatClientRequest before(ChatClientRequest req, AdvisorChain chain) {
    String owner = owner(req.context());
    UserMessage user = req.prompt().getUserMessage();
    String text = user == null || user.getText() == null ? "" : user.getText();
    if (text.isBlank()) return req;
    Turn turn = turn(owner, episode(req.context()), Turn.Role.USER, text, clock.instant());
    RecallResult recalled =
        recall(
            owner,
            text,
            req.context().get(FOCUS) instanceof Focus f ? f : focus.apply(text),
            principals(req.context()));
    String block = recalled == null ? "" : recalled.rendered();
    List<MemoryRecord> records =
        recalled == null ? List.of() : recalled.selected().stream().map(Recalled::record).toList();
    ChatClientRequest.Builder out =
        req.mutate().context(USER_TURN, turn).context(RECALLED, records);
    if (!block.isEmpty()) {
      out.prompt(
          req.prompt()
              .augmentSystemMessage(
                  s -> {
                    String own =
                        s == null || s.getText() == null || s.getText().isBlank()
                            ? ""
                            : s.getText() + "\n\n";
                    return new SystemMessage(own + preface + block);
                  }));
    }
    return out.build();
  }

  @Override
  public ChatClientResponse after(ChatClientResponse resp, AdvisorChain chain) {
    if (!(resp.context().get(USER_TURN) instanceof Turn user)) return resp;
    List<Turn> turns = new ArrayList<>(List.of(user));
    if (resp.chatResponse() != null && resp.chatResponse().getResult() != null) {
      AssistantMessage answer = resp.chatResponse().getResult().getOutput();
      if (answer != null && answer.getText() != null && !answer.getText().isBlank()) {
        turns.add(
            turn(
                user.owner(),
                user.episode(),
                Turn.Role.ASSISTANT,
                answer.getText(),
                clock.instant()));
        if (usageFeedback
            && resp.context().get(RECALLED) instanceof List<?> recalled
            && !recalled.isEmpty()) {
          feedback(
              user, answer.getText(), recalled.stream().map(MemoryRecord.class::cast).toList());
        }
      }
    }
    ingest(user.owner(), turns);
    return resp;
  }

  /**
   * Reports that an answer used these records of the owner ({@link Mnemo#markUsed}); returns how
   * many were updated. For applications that know which records were used (see {@link #RECALLED}).
   */
  public int markUsed(String owner, java.util.Collection<String> ids) {
    return mnemo.markUsed(owner, ids);
  }

  /**
   * Reports the recalled records the answer used, by overlap; a failure is logged, never thrown.
   */
  private void feedback(Turn user, String answer, List<MemoryRecord> recalled) {
    List<String> used = UsedRecords.in(user.text(), answer, recalled);
    if (used.isEmpty()) return;
    try {
      mnemo.markUsed(user.owner(), used);
    } catch (RuntimeException e) {
      LOG.log(
          System.Logger.Level.WARNING,
          "usage feedback for owner {0} failed: {1}",
          user.owner(),
          e.getMessage());
    }
  }

  private String owner(Map<String, Object> context) {
    Object o = context.get(OWNER);
    if (o == null) o = context.get(ChatMemory.CONVERSATION_ID);
    if (o == null) o = defaultOwner;
    if (o == null || o.toString().isBlank()) {
      throw new IllegalArgumentException(
          "no owner for this call: add .advisors(a -> a.param(MnemoAdvisor.OWNER, userId)) "
              + "(or ChatMemory.CONVERSATION_ID), or set defaultOwner on the advisor");
    }
    return o.toString();
  }

  private static java.util.Set<String> principals(Map<String, Object> context) {
    Object p = context.get(PRINCIPALS);
    if (p == null) return java.util.Set.of();
    if (!(p instanceof java.util.Collection<?> c)
        || c.stream().anyMatch(x -> !(x instanceof String))) {
      throw new IllegalArgumentException(
          "the context parameter "
              + PRINCIPALS
              + " must be a collection of strings "
              + "(team:NAME, role:NAME, person:NAME), was "
              + p);
    }
    return c.stream().map(String.class::cast).collect(java.util.stream.Collectors.toSet());
  }

  private static String episode(Map<String, Object> context) {
    Object c = context.get(ChatMemory.CONVERSATION_ID);
    return c == null ? null : c.toString();
  }

  /** The recall, or null after a retriable failure (with a warning). */
  private RecallResult recall(
      String owner, String query, Focus focus, java.util.Set<String> principals) {
    try {
      return mnemo.recall(
          request
              .apply(
                  RecallRequest.builder(owner, query)
                      .budgetTokens(budgetTokens)
                      .k(k)
                      .focus(focus)
                      .principals(principals))
              .build());
    } catch (MnemoException e) {
      if (!e.retriable()) throw e;
      LOG.log(
          System.Logger.Level.WARNING,
          "recall for owner {0} failed, answering without long-term memory: {1}",
          owner,
          e.getMessage());
      return null;
    }
  }

  /**
   * Sends the owner's earlier unsent turns with these, in order; keeps them all when that fails
   * retriably.
   */
  private void ingest(String owner, List<Turn> turns) {
    List<Turn> batch = new ArrayList<>();
    pending.compute(
        owner,
        (o, earlier) -> {
          if (earlier != null) batch.addAll(earlier);
          batch.addAll(turns);
          return null;
        });
    try {
      mnemo.ingest(batch);
    } catch (MnemoException e) {
      if (!e.retriable()) throw e;
      pending.merge(
          owner,
          batch,
          (later, mine) -> {
            List<Turn> all = new ArrayList<>(mine);
            all.addAll(later);
            return all;
          });
      LOG.log(
          System.Logger.Level.WARNING,
          "ingest of {0} turns of owner {1} failed; kept for the next exchange: {2}",
          batch.size(),
          owner,
          e.getMessage());
    }
  }

  private static Turn turn(String owner, String episode, Turn.Role role, String text, Instant at) {
    String id = UUID.randomUUID().toString();
    return new Turn(
        id, owner, episode, role, null, text, at, id, 1, Turn.Status.COMPLETE, Map.of());
  }

  /**
   * Configures the advisor. Defaults: no default owner, 400 tokens and k 5 per recall, no preface,
   * the system clock for turn times, order 0 (runs before advisors with a higher order), usage
   * feedback by overlap on.
   */
  public static final class Builder {
    private final Mnemo mnemo;
    private String defaultOwner;
    private int budgetTokens = RecallRequest.DEFAULT_BUDGET;
    private int k = RecallRequest.DEFAULT_K;
    private UnaryOperator<RecallRequest.Builder> request = UnaryOperator.identity();
    private Function<String, Focus> focus = Focus::fromMessage;
    private String preface = "";
    private InstantSource clock = InstantSource.system();
    private int order;
    private boolean usageFeedback = true;

    private Builder(Mnemo mnemo) {
      this.mnemo = Objects.requireNonNull(mnemo, "mnemo");
    }

    /**
     * The focus of a recall for the user's message when the call's context has no {@link #FOCUS};
     * default {@link Focus#fromMessage}. {@code m -> Focus.NONE} searches with the whole message.
     */
    public Builder focus(Function<String, Focus> v) {
      this.focus = Objects.requireNonNull(v, "focus");
      return this;
    }

    /** The owner of calls that name none (a single-user application). */
    public Builder defaultOwner(String v) {
      this.defaultOwner = v;
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

    /** Any other recall option (mode, scope, categories, weights, ...). */
    public Builder request(UnaryOperator<RecallRequest.Builder> v) {
      this.request = Objects.requireNonNull(v, "request");
      return this;
    }

    /** A line put before the recalled block. */
    public Builder preface(String v) {
      this.preface = Objects.requireNonNull(v, "preface");
      return this;
    }

    /** The clock that dates ingested turns. */
    public Builder clock(InstantSource v) {
      this.clock = Objects.requireNonNull(v, "clock");
      return this;
    }

    /**
     * Whether the answer is compared with the records recalled for it and the ones it used are
     * reported ({@link UsedRecords}, {@link Mnemo#markUsed}); default true.
     */
    public Builder usageFeedback(boolean v) {
      this.usageFeedback = v;
      return this;
    }

    /** The advisor's order in the chain. */
    public Builder order(int v) {
      this.order = v;
      return this;
    }

    public MnemoAdvisor build() {
      RecallRequest.builder("check", "")
          .budgetTokens(budgetTokens)
          .k(k)
          .build(); // the engine's checks, now
      return new MnemoAdvisor(this);
    }
  }
}

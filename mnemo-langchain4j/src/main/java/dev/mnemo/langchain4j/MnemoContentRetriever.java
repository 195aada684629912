package dev.mnemo.langchain4j;

import dev.langchain4j.data.document.Metadata;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.rag.content.Content;
import dev.langchain4j.rag.content.ContentMetadata;
import dev.langchain4j.rag.content.retriever.ContentRetriever;
import dev.langchain4j.rag.query.Query;
import dev.mnemo.Focus;
import dev.mnemo.Mnemo;
import dev.mnemo.RecallRequest;
import dev.mnemo.RecallResult;
import dev.mnemo.TemporalMode;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;
import java.util.function.UnaryOperator;

/**
 * A LangChain4j {@link ContentRetriever} that recalls from Mnemo: plug it into an AI Service
 * ({@code .contentRetriever(...)}) or a {@code DefaultRetrievalAugmentor}.
 *
 * <p>The owner is taken from the query's chat memory id ({@link Conversation#owner()}, or the id's
 * string form; {@link Builder#ownerOf} changes the mapping), or is fixed with {@link
 * Builder#owner}. A query without either is refused with an {@link IllegalArgumentException}: Mnemo
 * never guesses an owner.
 *
 * <p>Returns at most one {@link Content}: the engine's rendered block (the selected records inside
 * the token budget, newest first, each dated, conflicting versions marked), with {@link
 * ContentMetadata#SCORE} the best record's score and the record ids in the segment's {@code
 * mnemo_ids} metadata. Nothing relevant is an empty list, not an error. Thread-safe when the {@link
 * Mnemo} is (both implementations are).
 */
public final class MnemoContentRetriever implements ContentRetriever {
  private final Mnemo mnemo;
  private final String owner;
  private final Function<Object, String> ownerOf;
  private final Function<Object, Set<String>> principalsOf;
  private final int budgetTokens;
  private final int k;
  private final TemporalMode mode;
  private final UnaryOperator<RecallRequest.Builder> request;
  private final Function<String, Focus> focus;

  private MnemoContentRetriever(Builder b) {
    this.mnemo = b.mnemo;
    this.owner = b.owner;
    this.ownerOf = b.ownerOf;
    this.principalsOf = b.principalsOf;
    this.budgetTokens = b.budgetTokens;
    this.k = b.k;
    this.mode = b.mode;
    this.request = b.request;
    this.focus = b.focus;
  }

  public static Builder builder(Mnemo mnemo) {
    return new Builder(mnemo);
  }

  @Override
  public List<Content> retrieve(Query query) {
    Objects.requireNonNull(query, "query");
    RecallResult r =
        mnemo.recall(
            request
                .apply(
                    RecallRequest.builder(ownerOf(query), query.text())
                        .budgetTokens(budgetTokens)
                        .k(k)
                        .mode(mode)
                        .focus(focus.apply(query.text()))
                        .principals(principalsOf(query)))
                .build());
    if (r.selected().isEmpty()) return List.of();
    TextSegment block =
        TextSegment.from(
            r.rendered(), Metadata.from(Map.of("mnemo_ids", String.join(",", r.ids()))));
    return List.of(Content.from(block, Map.of(ContentMetadata.SCORE, r.selected().get(0).score())));
  }

  private String ownerOf(Query query) {
    if (owner != null) return owner;
    Object id = query.metadata() == null ? null : query.metadata().chatMemoryId();
    if (id == null) {
      throw new IllegalArgumentException(
          "no owner for the query '"
              + query.text()
              + "': use the retriever in an AI "
              + "Service with a chat memory (its memory id names the owner), or set owner(...) on the builder");
    }
    return ownerOf.apply(id);
  }

  private Set<String> principalsOf(Query query) {
    Object id = query.metadata() == null ? null : query.metadata().chatMemoryId();
    return id == null ? Set.of() : principalsOf.apply(id);
  }

  /**
   * Configures a retriever. Defaults: the owner from the memory id, 400 tokens, k 5, mode current.
   */
  public static final class Builder {
    private final Mnemo mnemo;
    private String owner;
    private Function<Object, String> ownerOf = Conversation::ownerOf;
    private Function<Object, Set<String>> principalsOf = Conversation::principalsOf;
    private int budgetTokens = RecallRequest.DEFAULT_BUDGET;
    private int k = RecallRequest.DEFAULT_K;
    private TemporalMode mode = TemporalMode.current();
    private UnaryOperator<RecallRequest.Builder> request = UnaryOperator.identity();
    private Function<String, Focus> focus = Focus::fromMessage;

    private Builder(Mnemo mnemo) {
      this.mnemo = Objects.requireNonNull(mnemo, "mnemo");
    }

    /** Always recall this owner's records (a single-user agent), whatever the memory id. */
    public Builder owner(String v) {
      this.owner = v;
      return this;
    }

    /**
     * How a chat memory id names the owner; default {@link Conversation#owner()} or the id's string
     * form.
     */
    public Builder ownerOf(Function<Object, String> v) {
      this.ownerOf = Objects.requireNonNull(v, "ownerOf");
      return this;
    }

    /**
     * The principals of the person behind a chat memory id ({@code team:..}, {@code role:..},
     * {@code person:..}): recalls see records with access labels only for one of them. Default
     * {@link Conversation#principals()}, none for any other id or a query without one.
     */
    public Builder principalsOf(Function<Object, Set<String>> v) {
      this.principalsOf = Objects.requireNonNull(v, "principalsOf");
      return this;
    }

    /** The token budget of the recalled block (cl100k_base tokens of the selected texts). */
    public Builder budgetTokens(int v) {
      this.budgetTokens = v;
      return this;
    }

    public Builder k(int v) {
      this.k = v;
      return this;
    }

    /** The temporal mode: current (default), valid at, or known at an instant. */
    public Builder mode(TemporalMode v) {
      this.mode = Objects.requireNonNull(v, "mode");
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

    /** Any other recall option (scope, categories, weights, ...), applied to every request. */
    public Builder request(UnaryOperator<RecallRequest.Builder> v) {
      this.request = Objects.requireNonNull(v, "request");
      return this;
    }

    public MnemoContentRetriever build() {
      RecallRequest.builder("check", "")
          .budgetTokens(budgetTokens)
          .k(k)
          .build(); // the engine's checks, now
      return new MnemoContentRetriever(this);
    }
  }
}

package dev.mnemo;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * A memory to write: the text and any of the optional fields of {@link MemoryRecord}.
 *
 * <p>Only {@code owner} and {@code text} are required; build with {@link #builder(String, String)}.
 * Values are checked by the engine when written (so that every invalid field of a batch is reported
 * at once); this record only holds them. Defaults: category semantic, importance 0.5, authority
 * explicit, recordedAt = the engine's clock, validFrom = recordedAt, validTo open, conflict policy
 * supersede, lower authority kept beside a higher one as a conflict.
 *
 * @param lowerAuthority what happens when this record would supersede a version of higher
 *     authority: kept beside it as a conflict (null: the default) or refused
 * @param access access labels ({@code team:..}, {@code role:..}, {@code person:..}); empty: every
 *     caller of the owner may see the record (see {@link Access})
 */
public record NewMemory(
    String owner,
    String text,
    String scope,
    Category category,
    String context,
    List<String> sources,
    String episode,
    Integer seq,
    Instant recordedAt,
    Instant validFrom,
    Instant validTo,
    String factKey,
    Double importance,
    Authority authority,
    ConflictPolicy conflictPolicy,
    List<String> entities,
    Map<String, String> metadata,
    LowerAuthority lowerAuthority,
    List<String> access) {

  public NewMemory {
    sources = sources == null ? List.of() : List.copyOf(sources);
    // Checked (kind:name, no nulls) when written; kept as given so that every bad label is
    // reported.
    access =
        access == null
            ? List.of()
            : java.util.Collections.unmodifiableList(new java.util.ArrayList<>(access));
    entities = entities == null ? List.of() : List.copyOf(entities);
    metadata = metadata == null ? Map.of() : Map.copyOf(metadata);
  }

  /** A memory with the default treatment of lower authority and no access labels. */
  public NewMemory(
      String owner,
      String text,
      String scope,
      Category category,
      String context,
      List<String> sources,
      String episode,
      Integer seq,
      Instant recordedAt,
      Instant validFrom,
      Instant validTo,
      String factKey,
      Double importance,
      Authority authority,
      ConflictPolicy conflictPolicy,
      List<String> entities,
      Map<String, String> metadata) {
    this(
        owner,
        text,
        scope,
        category,
        context,
        sources,
        episode,
        seq,
        recordedAt,
        validFrom,
        validTo,
        factKey,
        importance,
        authority,
        conflictPolicy,
        entities,
        metadata,
        null,
        List.of());
  }

  public static Builder builder(String owner, String text) {
    return new Builder(owner, text);
  }

  /** Mutable builder; not thread-safe. */
  public static final class Builder {
    private final String owner;
    private final String text;
    private String scope;
    private Category category;
    private String context;
    private List<String> sources;
    private String episode;
    private Integer seq;
    private Instant recordedAt;
    private Instant validFrom;
    private Instant validTo;
    private String factKey;
    private Double importance;
    private Authority authority;
    private ConflictPolicy conflictPolicy;
    private List<String> entities;
    private Map<String, String> metadata;
    private LowerAuthority lowerAuthority;
    private List<String> access;

    private Builder(String owner, String text) {
      this.owner = owner;
      this.text = text;
    }

    public Builder scope(String v) {
      this.scope = v;
      return this;
    }

    public Builder category(Category v) {
      this.category = v;
      return this;
    }

    public Builder context(String v) {
      this.context = v;
      return this;
    }

    public Builder sources(List<String> v) {
      this.sources = v;
      return this;
    }

    public Builder source(String v) {
      this.sources = List.of(v);
      return this;
    }

    public Builder episode(String v, int position) {
      this.episode = v;
      this.seq = position;
      return this;
    }

    public Builder recordedAt(Instant v) {
      this.recordedAt = v;
      return this;
    }

    public Builder validFrom(Instant v) {
      this.validFrom = v;
      return this;
    }

    public Builder validTo(Instant v) {
      this.validTo = v;
      return this;
    }

    public Builder factKey(String v) {
      this.factKey = v;
      return this;
    }

    public Builder importance(double v) {
      this.importance = v;
      return this;
    }

    public Builder authority(Authority v) {
      this.authority = v;
      return this;
    }

    public Builder conflictPolicy(ConflictPolicy v) {
      this.conflictPolicy = v;
      return this;
    }

    public Builder entities(List<String> v) {
      this.entities = v;
      return this;
    }

    public Builder metadata(Map<String, String> v) {
      this.metadata = v;
      return this;
    }

    public Builder lowerAuthority(LowerAuthority v) {
      this.lowerAuthority = v;
      return this;
    }

    /** Access labels ({@code team:..}, {@code role:..}, {@code person:..}): see {@link Access}. */
    public Builder access(List<String> v) {
      this.access = v;
      return this;
    }

    public NewMemory build() {
      return new NewMemory(
          owner,
          text,
          scope,
          category,
          context,
          sources,
          episode,
          seq,
          recordedAt,
          validFrom,
          validTo,
          factKey,
          importance,
          authority,
          conflictPolicy,
          entities,
          metadata,
          lowerAuthority,
          access);
    }
  }
}

package dev.mnemo.store.lucene;

import dev.mnemo.Authority;
import dev.mnemo.Category;
import dev.mnemo.ConflictPolicy;
import dev.mnemo.MemoryRecord;
import java.time.DateTimeException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.KnnFloatVectorField;
import org.apache.lucene.document.LongPoint;
import org.apache.lucene.document.NumericDocValuesField;
import org.apache.lucene.document.SortedDocValuesField;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.IndexableField;
import org.apache.lucene.index.VectorSimilarityFunction;
import org.apache.lucene.util.BytesRef;

/**
 * How a {@link MemoryRecord} maps to a Lucene document and back. Open ends of intervals ({@code
 * validTo}, {@code expiredAt} null) are indexed as {@link Long#MAX_VALUE} so that every temporal
 * filter is a plain range query. Field names are the on-disk format: append only.
 */
final class Schema {
  private Schema() {}

  /** Bumped when the document layout changes incompatibly; kept in the commit's user data. */
  static final String FORMAT_VERSION = "1";

  static final String ID = "id";
  static final String OWNER = "owner";
  static final String SCOPE = "scope";
  static final String CATEGORY = "category";
  static final String TEXT = "text";
  static final String CONTEXT = "context";
  static final String SOURCE = "source";
  static final String EPISODE = "episode";
  static final String SEQ = "seq";
  static final String RECORDED = "recorded_at";
  static final String EXPIRED = "expired_at";
  static final String VALID_FROM = "valid_from";
  static final String VALID_TO = "valid_to";
  static final String FACT_KEY = "fact_key";
  static final String VERSION = "version";
  static final String ORIGIN = "origin";
  static final String IMPORTANCE = "importance";
  static final String AUTHORITY = "authority";
  static final String CONFLICT = "conflict_policy";
  static final String ENTITY = "entity";
  static final String ACCESS_COUNT = "access_count";
  static final String LAST_ACCESSED = "last_accessed_at";
  static final String VECTOR = "vec";
  static final String MODEL = "embedding_model";
  static final String META = "meta";
  static final String META_STORED = "meta_kv";

  /**
   * The event time ({@link dev.mnemo.EventTime}), on records that have one: its ends indexed as
   * points (the time candidates) and stored, its phrase stored. Documents written before event
   * times have none of these fields and read back without one.
   */
  static final String EVENT_FROM = "event_from";

  static final String EVENT_TO = "event_to";
  static final String EVENT_PHRASE = "event_phrase";

  /** Access labels (indexed and stored), and {@link #RESTRICTED} on every labelled record. */
  static final String ACCESS = "access";

  /**
   * Indexed on a record with access labels, so "records without labels" is a negated term query
   * (documents written before access labels existed have none and are unrestricted, as they were).
   */
  static final String RESTRICTED = "\u0001restricted";

  /** Indexed in place of a missing scope, so "records of no scope" is a term query. */
  static final String NO_SCOPE = "\u0001none";

  static final VectorSimilarityFunction SIMILARITY = VectorSimilarityFunction.DOT_PRODUCT;

  static Document toDocument(MemoryRecord r) {
    Document d = new Document();
    d.add(new StringField(ID, r.id(), Field.Store.YES));
    d.add(new SortedDocValuesField(ID, new BytesRef(r.id())));
    d.add(new StringField(OWNER, r.owner(), Field.Store.YES));
    d.add(new StringField(SCOPE, r.scope() == null ? NO_SCOPE : r.scope(), Field.Store.NO));
    if (r.scope() != null) d.add(new StoredField(SCOPE, r.scope()));
    d.add(new StringField(CATEGORY, r.category().code(), Field.Store.YES));
    d.add(new TextField(TEXT, r.text(), Field.Store.YES));
    if (r.context() != null) d.add(new TextField(CONTEXT, r.context(), Field.Store.YES));
    for (String s : r.sources()) d.add(new StringField(SOURCE, s, Field.Store.YES));
    if (r.episode() != null) d.add(new StringField(EPISODE, r.episode(), Field.Store.YES));
    d.add(new StoredField(SEQ, r.seq()));
    time(d, RECORDED, r.recordedAt());
    d.add(new NumericDocValuesField(RECORDED, millis(r.recordedAt())));
    time(d, EXPIRED, r.expiredAt());
    time(d, VALID_FROM, r.validFrom());
    time(d, VALID_TO, r.validTo());
    if (r.factKey() != null) d.add(new StringField(FACT_KEY, r.factKey(), Field.Store.YES));
    d.add(new StoredField(VERSION, r.version()));
    if (r.origin() != null) d.add(new StringField(ORIGIN, r.origin(), Field.Store.YES));
    d.add(new StoredField(IMPORTANCE, r.importance()));
    d.add(new StoredField(AUTHORITY, r.authority().code()));
    d.add(new StoredField(CONFLICT, r.conflictPolicy().code()));
    for (String e : r.entities()) d.add(new StringField(ENTITY, e, Field.Store.YES));
    d.add(new StoredField(ACCESS_COUNT, r.accessCount()));
    if (r.lastAccessedAt() != null)
      d.add(new StoredField(LAST_ACCESSED, millis(r.lastAccessedAt())));
    if (r.embedding() != null) {
      d.add(new KnnFloatVectorField(VECTOR, r.embedding(), SIMILARITY));
      d.add(new StoredField(MODEL, r.embeddingModel() == null ? "" : r.embeddingModel()));
    }
    for (var e : new java.util.TreeMap<>(r.metadata()).entrySet()) {
      d.add(new StringField(META, metaTerm(e.getKey(), e.getValue()), Field.Store.NO));
      d.add(new StoredField(META_STORED, e.getKey() + "\u0000" + e.getValue()));
    }
    for (String a : r.access()) d.add(new StringField(ACCESS, a, Field.Store.YES));
    if (!r.access().isEmpty()) d.add(new StringField(ACCESS, RESTRICTED, Field.Store.NO));
    if (r.eventTime() != null) {
      time(d, EVENT_FROM, r.eventTime().from());
      time(d, EVENT_TO, r.eventTime().to());
      d.add(new StoredField(EVENT_PHRASE, r.eventTime().phrase()));
    }
    return d;
  }

  /**
   * The record's document, checked for what Lucene's writer would refuse (an indexed term over
   * {@link org.apache.lucene.index.IndexWriter#MAX_TERM_LENGTH} bytes, a time beyond a long of
   * milliseconds): building every document of a batch before the writer sees any means that one bad
   * record fails the call alone, instead of failing inside the writer and rolling the store back to
   * a state that refuses every later write.
   *
   * @throws IllegalArgumentException naming the field, with nothing written
   */
  static Document checkedDocument(MemoryRecord r) {
    Document d;
    try {
      d = toDocument(r);
    } catch (ArithmeticException | DateTimeException e) {
      throw new IllegalArgumentException(
          "record " + r.id() + " has a time the store cannot keep: " + e.getMessage(), e);
    }
    for (IndexableField f : d) {
      if (f instanceof StringField sf) {
        int bytes = new BytesRef(sf.stringValue()).length;
        if (bytes > org.apache.lucene.index.IndexWriter.MAX_TERM_LENGTH) {
          throw new IllegalArgumentException(
              "record "
                  + r.id()
                  + ": field "
                  + f.name()
                  + " holds a term of "
                  + bytes
                  + " bytes; at most "
                  + org.apache.lucene.index.IndexWriter.MAX_TERM_LENGTH);
        }
      }
    }
    return d;
  }

  static String metaTerm(String key, String value) {
    return key + "\u0000" + value;
  }

  private static void time(Document d, String field, Instant t) {
    long v = t == null ? Long.MAX_VALUE : millis(t);
    d.add(new LongPoint(field, v));
    d.add(new StoredField(field, v));
  }

  static long millis(Instant t) {
    return t.toEpochMilli();
  }

  static MemoryRecord fromDocument(Document d, float[] vector) {
    List<String> sources = new ArrayList<>();
    for (IndexableField f : d.getFields(SOURCE)) sources.add(f.stringValue());
    List<String> entities = new ArrayList<>();
    for (IndexableField f : d.getFields(ENTITY)) entities.add(f.stringValue());
    Map<String, String> meta = new LinkedHashMap<>();
    for (IndexableField f : d.getFields(META_STORED)) {
      String kv = f.stringValue();
      int i = kv.indexOf('\u0000');
      meta.put(kv.substring(0, i), kv.substring(i + 1));
    }
    List<String> access = new ArrayList<>();
    for (IndexableField f : d.getFields(ACCESS)) access.add(f.stringValue());
    IndexableField lastAccessed = d.getField(LAST_ACCESSED);
    String model = d.get(MODEL);
    return new MemoryRecord(
        d.get(ID),
        d.get(OWNER),
        d.get(SCOPE),
        Category.fromCode(CATEGORY, d.get(CATEGORY)),
        d.get(TEXT),
        d.get(CONTEXT),
        sources,
        d.get(EPISODE),
        d.getField(SEQ).numericValue().intValue(),
        instant(d, RECORDED),
        instant(d, EXPIRED),
        instant(d, VALID_FROM),
        instant(d, VALID_TO),
        d.get(FACT_KEY),
        d.getField(VERSION).numericValue().intValue(),
        d.get(ORIGIN),
        d.getField(IMPORTANCE).numericValue().doubleValue(),
        Authority.fromCode(AUTHORITY, d.get(AUTHORITY)),
        ConflictPolicy.fromCode(CONFLICT, d.get(CONFLICT)),
        entities,
        d.getField(ACCESS_COUNT).numericValue().longValue(),
        lastAccessed == null ? null : Instant.ofEpochMilli(lastAccessed.numericValue().longValue()),
        vector,
        model == null || model.isEmpty() ? null : model,
        meta,
        access,
        eventTime(d));
  }

  private static dev.mnemo.EventTime eventTime(Document d) {
    if (d.getField(EVENT_FROM) == null) return null;
    return new dev.mnemo.EventTime(
        instant(d, EVENT_FROM), instant(d, EVENT_TO), d.get(EVENT_PHRASE));
  }

  private static Instant instant(Document d, String field) {
    long v = d.getField(field).numericValue().longValue();
    return v == Long.MAX_VALUE ? null : Instant.ofEpochMilli(v);
  }
}

package dev.mnemo.store.solr;

import dev.mnemo.Authority;
import dev.mnemo.Category;
import dev.mnemo.ConflictPolicy;
import dev.mnemo.MemoryRecord;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.solr.common.SolrDocument;
import org.apache.solr.common.SolrInputDocument;

/**
 * How a {@link MemoryRecord} maps to a Solr document and back: the field names and encodings of the
 * embedded store's {@code Schema} (open interval ends as {@link Long#MAX_VALUE}, a marker for "no
 * scope", metadata as {@code key\u0000value} terms), plus the routing id. The configset's {@code
 * schema.xml} declares the same fields. Field names are the stored format: append only. The names
 * repeat the embedded store's on purpose rather than sharing a class: each store owns its format,
 * and this module must not depend on the Lucene store.
 */
final class SolrSchema {
  private SolrSchema() {}

  static final String ID = "id";
  static final String TENANT = "tenant";
  static final String RID = "rid";
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

  /**
   * The vector again, stored as little-endian float32 bytes: one value to read back where the dense
   * vector field's stored form is one boxed value per component, which made the records' vectors
   * most of a recall's response and of Solr's CPU (BENCHMARKS.md, issue 34).
   */
  static final String VECTOR_BYTES = "vec_b";

  static final String HAS_VECTOR = "has_vec";
  static final String MODEL = "embedding_model";
  static final String META = "meta";

  /** Access labels, and {@link #RESTRICTED} on every labelled record. */
  static final String ACCESS = "access";

  /**
   * Indexed on a record with access labels, so "records without labels" is a negated term query.
   */
  static final String RESTRICTED = "\u0001restricted";

  /**
   * The key under which a record's event time is kept among the stored metadata terms ({@code
   * from/to/phrase}, epoch milliseconds): the collection's schema stays as it is, so collections
   * created before event times keep accepting writes. A control character, so no caller's key
   * (metadata keys are text) is mistaken for it; it is never read back as metadata. What the time
   * list searches is indexed apart, in {@link #EVENT_FROM} and {@link #EVENT_TO}.
   */
  static final String EVENT_TIME = "\u0001event_time";

  /**
   * The event time's start and exclusive end, epoch milliseconds, indexed (not stored) for the time
   * list: a record whose event time overlaps a question's range is a time candidate, as in the
   * embedded store. Added after {@link #EVENT_TIME}: a collection created before them takes writes
   * again once its configset is upgraded ({@link SolrCollections#upgradeConfigset}).
   */
  static final String EVENT_FROM = "event_from";

  static final String EVENT_TO = "event_to";

  /** Indexed in place of a missing scope, so "records of no scope" is a term query. */
  static final String NO_SCOPE = "\u0001none";

  /**
   * The compositeId route of a tenant's owner: every record of an owner lands on one shard, so an
   * owner's query touches one shard, and owners (of all tenants) spread over the shards. {@code !}
   * and {@code /} have a meaning in compositeId keys and are replaced; keys that then collide only
   * share a shard, never records (tenant and owner are filters).
   */
  static String route(String tenant, String owner) {
    return (tenant + "\u001f" + owner).replace('!', '_').replace('/', '_') + "!";
  }

  static SolrInputDocument toDocument(String tenant, MemoryRecord r) {
    SolrInputDocument d = new SolrInputDocument();
    d.setField(ID, route(tenant, r.owner()) + r.id());
    d.setField(TENANT, tenant);
    d.setField(RID, r.id());
    d.setField(OWNER, r.owner());
    d.setField(SCOPE, r.scope() == null ? NO_SCOPE : r.scope());
    d.setField(CATEGORY, r.category().code());
    d.setField(TEXT, r.text());
    if (r.context() != null) d.setField(CONTEXT, r.context());
    if (!r.sources().isEmpty()) d.setField(SOURCE, new ArrayList<>(r.sources()));
    if (r.episode() != null) d.setField(EPISODE, r.episode());
    d.setField(SEQ, r.seq());
    d.setField(RECORDED, millis(r.recordedAt()));
    d.setField(EXPIRED, millis(r.expiredAt()));
    d.setField(VALID_FROM, millis(r.validFrom()));
    d.setField(VALID_TO, millis(r.validTo()));
    if (r.factKey() != null) d.setField(FACT_KEY, r.factKey());
    d.setField(VERSION, r.version());
    if (r.origin() != null) d.setField(ORIGIN, r.origin());
    d.setField(IMPORTANCE, r.importance());
    d.setField(AUTHORITY, r.authority().code());
    d.setField(CONFLICT, r.conflictPolicy().code());
    if (!r.entities().isEmpty()) d.setField(ENTITY, new ArrayList<>(r.entities()));
    d.setField(ACCESS_COUNT, r.accessCount());
    if (r.lastAccessedAt() != null) d.setField(LAST_ACCESSED, millis(r.lastAccessedAt()));
    if (r.embedding() != null) {
      List<Float> v = new ArrayList<>(r.embedding().length);
      for (float f : r.embedding()) v.add(f);
      d.setField(VECTOR, v);
      d.setField(VECTOR_BYTES, bytes(r.embedding()));
      d.setField(HAS_VECTOR, true);
      d.setField(MODEL, r.embeddingModel() == null ? "" : r.embeddingModel());
    } else {
      d.setField(HAS_VECTOR, false);
    }
    List<String> meta = new ArrayList<>();
    for (var e : new TreeMap<>(r.metadata()).entrySet())
      meta.add(metaTerm(e.getKey(), e.getValue()));
    if (r.eventTime() != null) {
      d.setField(EVENT_FROM, millis(r.eventTime().from()));
      d.setField(EVENT_TO, millis(r.eventTime().to()));
    }
    if (r.eventTime() != null)
      meta.add(
          metaTerm(
              EVENT_TIME,
              r.eventTime().from().toEpochMilli()
                  + "/"
                  + r.eventTime().to().toEpochMilli()
                  + "/"
                  + r.eventTime().phrase()));
    if (!meta.isEmpty()) d.setField(META, meta);
    if (!r.access().isEmpty()) {
      List<String> access = new ArrayList<>(r.access());
      access.add(RESTRICTED);
      d.setField(ACCESS, access);
    }
    return d;
  }

  static String metaTerm(String key, String value) {
    return key + "\u0000" + value;
  }

  static long millis(Instant t) {
    return t == null ? Long.MAX_VALUE : t.toEpochMilli();
  }

  static MemoryRecord fromDocument(SolrDocument d) {
    Map<String, String> meta = new LinkedHashMap<>();
    dev.mnemo.EventTime event = null;
    for (String kv : strings(d, META)) {
      int i = kv.indexOf('\u0000');
      if (kv.substring(0, i).equals(EVENT_TIME)) {
        String[] parts = kv.substring(i + 1).split("/", 3);
        event =
            new dev.mnemo.EventTime(
                Instant.ofEpochMilli(Long.parseLong(parts[0])),
                Instant.ofEpochMilli(Long.parseLong(parts[1])),
                parts[2]);
        continue;
      }
      meta.put(kv.substring(0, i), kv.substring(i + 1));
    }
    String scope = (String) d.getFirstValue(SCOPE);
    String model = (String) d.getFirstValue(MODEL);
    Object lastAccessed = d.getFirstValue(LAST_ACCESSED);
    return new MemoryRecord(
        (String) d.getFirstValue(RID),
        (String) d.getFirstValue(OWNER),
        NO_SCOPE.equals(scope) ? null : scope,
        Category.fromCode(CATEGORY, (String) d.getFirstValue(CATEGORY)),
        (String) d.getFirstValue(TEXT),
        (String) d.getFirstValue(CONTEXT),
        strings(d, SOURCE),
        (String) d.getFirstValue(EPISODE),
        number(d, SEQ).intValue(),
        instant(d, RECORDED),
        instant(d, EXPIRED),
        instant(d, VALID_FROM),
        instant(d, VALID_TO),
        (String) d.getFirstValue(FACT_KEY),
        number(d, VERSION).intValue(),
        (String) d.getFirstValue(ORIGIN),
        number(d, IMPORTANCE).doubleValue(),
        Authority.fromCode(AUTHORITY, (String) d.getFirstValue(AUTHORITY)),
        ConflictPolicy.fromCode(CONFLICT, (String) d.getFirstValue(CONFLICT)),
        strings(d, ENTITY),
        number(d, ACCESS_COUNT).longValue(),
        lastAccessed == null ? null : Instant.ofEpochMilli(((Number) lastAccessed).longValue()),
        vector(d),
        model == null || model.isEmpty() ? null : model,
        meta,
        strings(d, ACCESS).stream().filter(a -> !a.equals(RESTRICTED)).toList(),
        event);
  }

  /**
   * The stored fields a candidate list returns: every field {@link #fromDocument} reads, the vector
   * as {@link #VECTOR_BYTES} only (a record written before that field existed comes back without
   * its vector from a list; lookups, which ask for every field, still read it).
   */
  static final String RECORD_FIELDS =
      String.join(
          ",",
          ID,
          RID,
          OWNER,
          SCOPE,
          CATEGORY,
          TEXT,
          CONTEXT,
          SOURCE,
          EPISODE,
          SEQ,
          RECORDED,
          EXPIRED,
          VALID_FROM,
          VALID_TO,
          FACT_KEY,
          VERSION,
          ORIGIN,
          IMPORTANCE,
          AUTHORITY,
          CONFLICT,
          ENTITY,
          ACCESS_COUNT,
          LAST_ACCESSED,
          VECTOR_BYTES,
          MODEL,
          META,
          ACCESS);

  static byte[] bytes(float[] v) {
    java.nio.ByteBuffer b =
        java.nio.ByteBuffer.allocate(v.length * Float.BYTES)
            .order(java.nio.ByteOrder.LITTLE_ENDIAN);
    b.asFloatBuffer().put(v);
    return b.array();
  }

  private static float[] vector(SolrDocument d) {
    Object packed = d.getFirstValue(VECTOR_BYTES);
    java.nio.ByteBuffer b =
        switch (packed) {
          case byte[] a -> java.nio.ByteBuffer.wrap(a);
          case java.nio.ByteBuffer bb -> bb.duplicate();
          case String base64 ->
              java.nio.ByteBuffer.wrap(java.util.Base64.getDecoder().decode(base64));
          case null, default -> null;
        };
    if (b != null) {
      float[] out = new float[b.remaining() / Float.BYTES];
      b.order(java.nio.ByteOrder.LITTLE_ENDIAN).asFloatBuffer().get(out);
      return out;
    }
    Collection<Object> v = d.getFieldValues(VECTOR);
    if (v == null || v.isEmpty()) return null;
    float[] out = new float[v.size()];
    int i = 0;
    for (Object o : v) out[i++] = ((Number) o).floatValue();
    return out;
  }

  private static List<String> strings(SolrDocument d, String field) {
    Collection<Object> v = d.getFieldValues(field);
    if (v == null) return List.of();
    List<String> out = new ArrayList<>(v.size());
    for (Object o : v) out.add((String) o);
    return out;
  }

  private static Number number(SolrDocument d, String field) {
    return (Number) d.getFirstValue(field);
  }

  private static Instant instant(SolrDocument d, String field) {
    long v = number(d, field).longValue();
    return v == Long.MAX_VALUE ? null : Instant.ofEpochMilli(v);
  }
}

package dev.mnemo.store.solr;

import dev.mnemo.MnemoException;
import dev.mnemo.StoredTurn;
import dev.mnemo.StoredTurn.State;
import dev.mnemo.Turn;
import dev.mnemo.spi.TurnLog;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.StringJoiner;
import java.util.function.Consumer;
import org.apache.solr.client.solrj.SolrClient;
import org.apache.solr.client.solrj.SolrQuery;
import org.apache.solr.client.solrj.SolrRequest;
import org.apache.solr.client.solrj.SolrServerException;
import org.apache.solr.client.solrj.request.QueryRequest;
import org.apache.solr.client.solrj.request.UpdateRequest;
import org.apache.solr.client.solrj.response.FacetField;
import org.apache.solr.client.solrj.response.QueryResponse;
import org.apache.solr.common.SolrDocument;
import org.apache.solr.common.SolrException;
import org.apache.solr.common.SolrInputDocument;
import org.apache.solr.common.params.CursorMarkParams;

/**
 * The SolrCloud store's turn log: one document per ingested turn event in a collection of its own
 * ({@link SolrCollections#turnLogName}, created by {@code mnemo solr init} or at {@code mnemo
 * serve}'s start), tenants sharing it as they share the records' collection (the tenant a filter of
 * every query and part of every id). With it the engine keeps ingested turns durable across
 * restarts and extracts in the background, as over the embedded store; without it (the store opened
 * without {@code turn_log}) the engine keeps turns in memory and extracts inside the request.
 *
 * <p><b>Durability.</b> Each change is one update request (forwarded to every live replica, written
 * to their fsynced update logs) followed by a soft commit that waits for new searchers, as {@link
 * SolrMemoryStore#apply} does; only then does it return. {@link #deleteOwner} and {@link
 * #deleteAll} commit hard with {@code expungeDeletes}, so forgotten turns leave the index files.
 *
 * <p><b>Sequence numbers</b> continue from the tenant's highest one at open: one process writes a
 * tenant's log at a time (as one server owns a tenant's embedded store). Thread-safe: writes are
 * serialized, reads concurrent.
 */
public final class SolrTurnLog implements TurnLog {
  static final String ID = "id";
  static final String TENANT = "tenant";
  static final String OWNER = "owner";
  static final String TID = "tid";
  static final String TURN_ID = "turn_id";
  static final String STATE = "state";
  static final String SEQ = "seq";
  private static final String EPISODE = "episode";
  private static final String ROLE = "role";
  private static final String SPEAKER = "speaker";
  private static final String TEXT = "text";
  private static final String AT = "at";
  private static final String ATTEMPT = "attempt";
  private static final String STATUS = "status";
  private static final String META = "meta";
  private static final String NOTE = "note";

  /** Ids per lookup query (under Solr's default 1,024 boolean clauses). */
  private static final int IDS_PER_QUERY = 500;

  private final SolrClient client;
  private final String collection;
  private final String tenant;
  private final Object writeLock = new Object();
  private long seq;

  /**
   * The log of {@code tenant} in {@code collection} through {@code client} (not closed by {@link
   * #close()}: the store that holds this log owns the client).
   *
   * @throws MnemoException when the collection cannot be read (missing: create it with {@code mnemo
   *     solr init})
   */
  public SolrTurnLog(SolrClient client, String collection, String tenant) {
    this.client = java.util.Objects.requireNonNull(client, "client");
    this.collection = java.util.Objects.requireNonNull(collection, "collection");
    this.tenant = java.util.Objects.requireNonNull(tenant, "tenant");
    SolrQuery q = tenantQuery();
    q.setRows(1);
    q.setSort(SEQ, SolrQuery.ORDER.desc);
    q.setFields(SEQ);
    var top = query(q).getResults();
    this.seq = top.isEmpty() ? 0 : ((Number) top.get(0).getFieldValue(SEQ)).longValue();
  }

  /** The collection the log writes to. */
  public String collection() {
    return collection;
  }

  @Override
  public List<StoredTurn> append(List<StoredTurn> entries) {
    synchronized (writeLock) {
      List<StoredTurn> fresh = new ArrayList<>();
      Set<String> seen = new HashSet<>();
      List<StoredTurn> candidates = new ArrayList<>();
      for (StoredTurn e : entries)
        if (seen.add(docId(e.turn().owner(), e.turn().id()))) candidates.add(e);
      Set<String> stored = new HashSet<>();
      for (StoredTurn e : existing(candidates)) stored.add(docId(e.turn().owner(), e.turn().id()));
      long next = seq;
      UpdateRequest update = new UpdateRequest();
      for (StoredTurn e : candidates) {
        if (stored.contains(docId(e.turn().owner(), e.turn().id()))) continue;
        StoredTurn s = new StoredTurn(e.turn(), e.state(), ++next, e.note());
        update.add(toDocument(s));
        fresh.add(s);
      }
      if (fresh.isEmpty()) return List.of();
      write(update, false, "append");
      seq = next;
      return fresh;
    }
  }

  /** The stored entries among {@code entries} (matched by owner and id). */
  private List<StoredTurn> existing(List<StoredTurn> entries) {
    Map<String, List<String>> byOwner = new LinkedHashMap<>();
    for (StoredTurn e : entries)
      byOwner.computeIfAbsent(e.turn().owner(), o -> new ArrayList<>()).add(e.turn().id());
    List<StoredTurn> out = new ArrayList<>();
    byOwner.forEach((owner, ids) -> out.addAll(getAll(owner, ids)));
    return out;
  }

  @Override
  public void update(List<StoredTurn> entries) {
    synchronized (writeLock) {
      UpdateRequest update = new UpdateRequest();
      int n = 0;
      for (StoredTurn e : entries) {
        Optional<StoredTurn> old = get(e.turn().owner(), e.turn().id());
        if (old.isEmpty()) continue;
        update.add(toDocument(old.get().with(e.state(), e.note())));
        n++;
      }
      if (n > 0) write(update, false, "update");
    }
  }

  @Override
  public Optional<StoredTurn> get(String owner, String id) {
    List<StoredTurn> r = getAll(owner, List.of(id));
    return r.isEmpty() ? Optional.empty() : Optional.of(r.get(0));
  }

  @Override
  public List<StoredTurn> getAll(String owner, Collection<String> ids) {
    if (ids.isEmpty()) return List.of();
    List<String> distinct = new ArrayList<>(new LinkedHashSet<>(ids));
    List<StoredTurn> out = new ArrayList<>();
    for (int i = 0; i < distinct.size(); i += IDS_PER_QUERY) {
      List<String> chunk = distinct.subList(i, Math.min(distinct.size(), i + IDS_PER_QUERY));
      SolrQuery q = tenantQuery();
      // by document id: one term per id, values in plain syntax (quoted) as the digests hold only
      // hex
      StringJoiner any = new StringJoiner(" OR ");
      for (String id : chunk) any.add(SolrFilters.quoted(ID, docId(owner, id)));
      q.setQuery(any.toString());
      q.setRows(chunk.size());
      out.addAll(find(q, Integer.MAX_VALUE));
    }
    out.sort(java.util.Comparator.comparingLong(StoredTurn::seq));
    return out;
  }

  @Override
  public List<StoredTurn> attempts(String owner, String turnId) {
    SolrQuery q = tenantQuery();
    var p = new SolrFilters.Params(q, "t");
    q.addFilterQuery(p.term(OWNER, owner));
    q.addFilterQuery(p.term(TURN_ID, turnId));
    return find(q, Integer.MAX_VALUE);
  }

  @Override
  public List<StoredTurn> pending(int limit) {
    SolrQuery q = tenantQuery();
    q.addFilterQuery(new SolrFilters.Params(q, "s").term(STATE, State.PENDING.code()));
    return find(q, limit);
  }

  @Override
  public void export(String owner, Consumer<StoredTurn> sink) {
    SolrQuery q = tenantQuery();
    if (owner != null) q.addFilterQuery(new SolrFilters.Params(q, "o").term(OWNER, owner));
    q.setSort(SEQ, SolrQuery.ORDER.asc);
    q.addSort(ID, SolrQuery.ORDER.asc);
    q.setRows(SolrMemoryStore.PAGE);
    String cursor = CursorMarkParams.CURSOR_MARK_START;
    while (true) {
      q.set(CursorMarkParams.CURSOR_MARK_PARAM, cursor);
      QueryResponse r = query(q);
      for (SolrDocument d : r.getResults()) sink.accept(fromDocument(d));
      String next = r.getNextCursorMark();
      if (next == null || next.equals(cursor)) return;
      cursor = next;
    }
  }

  @Override
  public int deleteOwner(String owner) {
    synchronized (writeLock) {
      SolrQuery q = tenantQuery();
      q.addFilterQuery(new SolrFilters.Params(q, "o").term(OWNER, owner));
      q.setRows(0);
      int n = (int) query(q).getResults().getNumFound();
      UpdateRequest delete = new UpdateRequest();
      delete.deleteByQuery(
          SolrFilters.quoted(TENANT, tenant) + " AND " + SolrFilters.quoted(OWNER, owner));
      write(delete, true, "forget of owner " + owner);
      return n;
    }
  }

  /** Deletes every turn of the tenant, merged away; returns how many (a deleted tenant's purge). */
  public long deleteAll() {
    synchronized (writeLock) {
      SolrQuery q = tenantQuery();
      q.setRows(0);
      long n = query(q).getResults().getNumFound();
      UpdateRequest delete = new UpdateRequest();
      delete.deleteByQuery(SolrFilters.quoted(TENANT, tenant));
      write(delete, true, "deleting the turns of tenant " + tenant);
      seq = 0;
      return n;
    }
  }

  @Override
  public int delete(String owner, Collection<String> ids) {
    synchronized (writeLock) {
      List<StoredTurn> found = getAll(owner, ids);
      if (found.isEmpty()) return 0;
      UpdateRequest delete = new UpdateRequest();
      for (StoredTurn t : found) delete.deleteById(docId(owner, t.turn().id()));
      write(delete, false, "delete");
      return found.size();
    }
  }

  @Override
  public Map<State, Long> counts() {
    SolrQuery q = tenantQuery();
    q.setRows(0);
    q.setFacet(true);
    q.addFacetField(STATE);
    q.setFacetMinCount(1);
    Map<State, Long> out = new EnumMap<>(State.class);
    for (State s : State.values()) out.put(s, 0L);
    FacetField f = query(q).getFacetField(STATE);
    if (f != null)
      for (FacetField.Count c : f.getValues())
        out.put(State.fromCode(STATE, c.getName()), c.getCount());
    return out;
  }

  /** Does nothing: the client belongs to the store. */
  @Override
  public void close() {}

  private SolrQuery tenantQuery() {
    SolrQuery q = new SolrQuery("*:*");
    q.addFilterQuery(new SolrFilters.Params(q, "n").term(TENANT, tenant));
    q.setSort(SEQ, SolrQuery.ORDER.asc);
    return q;
  }

  private List<StoredTurn> find(SolrQuery q, int limit) {
    List<StoredTurn> out = new ArrayList<>();
    if (limit <= 0) return out;
    if (q.getRows() == null || q.getRows() > limit)
      q.setRows(Math.min(limit, SolrMemoryStore.PAGE));
    q.addSort(ID, SolrQuery.ORDER.asc);
    String cursor = CursorMarkParams.CURSOR_MARK_START;
    while (out.size() < limit) {
      q.set(CursorMarkParams.CURSOR_MARK_PARAM, cursor);
      QueryResponse r = query(q);
      for (SolrDocument d : r.getResults()) {
        if (out.size() < limit) out.add(fromDocument(d));
      }
      String next = r.getNextCursorMark();
      // a page shorter than asked for is the last: no query only to learn that
      if (next == null || next.equals(cursor) || r.getResults().size() < q.getRows()) break;
      cursor = next;
    }
    return out;
  }

  private QueryResponse query(SolrQuery q) {
    try {
      return new QueryRequest(q, SolrRequest.METHOD.POST).process(client, collection);
    } catch (SolrServerException | IOException | SolrException e) {
      throw new MnemoException(
          "reading the Solr turn log '"
              + collection
              + "' failed: "
              + e.getMessage()
              + (e.getMessage() != null && e.getMessage().contains("not found")
                  ? " (create it with mnemo solr init)"
                  : ""),
          retriable(e),
          e);
    }
  }

  /**
   * Sends {@code update}, then commits: soft and waiting for searchers, or hard expunging deletes
   * when {@code expunge}.
   */
  private void write(UpdateRequest update, boolean expunge, String what) {
    try {
      update.process(client, collection);
      UpdateRequest commit = new UpdateRequest();
      commit.setAction(UpdateRequest.ACTION.COMMIT, true, true, !expunge);
      if (expunge) commit.setParam("expungeDeletes", "true");
      commit.process(client, collection);
    } catch (SolrServerException | IOException | SolrException e) {
      throw new MnemoException(
          "turn log "
              + what
              + " failed on Solr, nothing was acknowledged (retrying the same call "
              + "is safe): "
              + e.getMessage(),
          retriable(e),
          e);
    }
  }

  private static boolean retriable(Exception e) {
    if (e instanceof SolrException se) return se.code() >= 500 || se.code() <= 0;
    return true;
  }

  /**
   * The document id of a turn event: a SHA-256 digest of tenant, owner and event id, so that any
   * owner and id (slashes, '!', which the compositeId router reads as a route) make a plain key.
   */
  String docId(String owner, String id) {
    try {
      MessageDigest sha = MessageDigest.getInstance("SHA-256");
      byte[] d =
          sha.digest((tenant + '\u0000' + owner + '\u0000' + id).getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(d);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JVM has SHA-256", e);
    }
  }

  private SolrInputDocument toDocument(StoredTurn e) {
    Turn t = e.turn();
    SolrInputDocument d = new SolrInputDocument();
    d.addField(ID, docId(t.owner(), t.id()));
    d.addField(TENANT, tenant);
    d.addField(OWNER, t.owner());
    d.addField(TID, t.id());
    d.addField(TURN_ID, t.turnId());
    d.addField(STATE, e.state().code());
    d.addField(SEQ, e.seq());
    if (t.episode() != null) d.addField(EPISODE, t.episode());
    d.addField(ROLE, t.role().code());
    if (t.speaker() != null) d.addField(SPEAKER, t.speaker());
    d.addField(TEXT, t.text());
    if (t.at() != null) d.addField(AT, t.at().toString());
    d.addField(ATTEMPT, t.attempt());
    d.addField(STATUS, t.status().code());
    for (var m : t.metadata().entrySet()) d.addField(META, m.getKey() + "\u0000" + m.getValue());
    if (e.note() != null) d.addField(NOTE, e.note());
    return d;
  }

  private static StoredTurn fromDocument(SolrDocument d) {
    Map<String, String> meta = new LinkedHashMap<>();
    Collection<Object> pairs = d.getFieldValues(META);
    if (pairs != null) {
      for (Object o : pairs) {
        String v = (String) o;
        int i = v.indexOf('\u0000');
        meta.put(v.substring(0, i), v.substring(i + 1));
      }
    }
    String at = (String) d.getFirstValue(AT);
    Turn t =
        new Turn(
            (String) d.getFirstValue(TID),
            (String) d.getFirstValue(OWNER),
            (String) d.getFirstValue(EPISODE),
            Turn.Role.fromCode(ROLE, (String) d.getFirstValue(ROLE)),
            (String) d.getFirstValue(SPEAKER),
            (String) d.getFirstValue(TEXT),
            at == null ? null : Instant.parse(at),
            (String) d.getFirstValue(TURN_ID),
            ((Number) d.getFirstValue(ATTEMPT)).intValue(),
            Turn.Status.fromCode(STATUS, (String) d.getFirstValue(STATUS)),
            meta);
    return new StoredTurn(
        t,
        State.fromCode(STATE, (String) d.getFirstValue(STATE)),
        ((Number) d.getFirstValue(SEQ)).longValue(),
        (String) d.getFirstValue(NOTE));
  }
}

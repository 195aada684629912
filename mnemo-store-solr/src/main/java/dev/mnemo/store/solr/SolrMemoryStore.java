package dev.mnemo.store.solr;

import dev.mnemo.MemoryRecord;
import dev.mnemo.MnemoException;
import dev.mnemo.spi.Candidate;
import dev.mnemo.spi.CandidateQuery;
import dev.mnemo.spi.CandidateSet;
import dev.mnemo.spi.Eligibility;
import dev.mnemo.spi.MemoryStore;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.StringJoiner;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Consumer;
import org.apache.solr.client.solrj.SolrClient;
import org.apache.solr.client.solrj.SolrQuery;
import org.apache.solr.client.solrj.SolrRequest;
import org.apache.solr.client.solrj.SolrServerException;
import org.apache.solr.client.solrj.request.QueryRequest;
import org.apache.solr.client.solrj.request.UpdateRequest;
import org.apache.solr.client.solrj.response.QueryResponse;
import org.apache.solr.common.SolrDocument;
import org.apache.solr.common.SolrDocumentList;
import org.apache.solr.common.SolrException;
import org.apache.solr.common.params.CursorMarkParams;

/**
 * A {@link MemoryStore} on a SolrCloud collection: the embedded store's semantics, spread over
 * shards and replicas.
 *
 * <p><b>Layout.</b> One collection (compositeId router) holds every tenant and owner; each record's
 * Solr id is {@code route(tenant, owner)!record-id}, so all of an owner's records live on one shard
 * and an owner's queries carry {@code _route_} and touch that shard only. A store instance serves
 * one tenant: the tenant is a filter of every query and delete, so tenants never see each other's
 * records (they do share the collection's term statistics, as BM25 needs). Field names and
 * encodings are the embedded store's ({@link SolrSchema}); the configset in this module's resources
 * declares them.
 *
 * <p><b>One request per recall.</b> {@link #candidates} sends one {@code /select}, routed by the
 * owner: its main query ({@code *:*} under the eligibility filters, one row) counts the eligible
 * records, and the one record it returns carries the dense, BM25, entity and time lists as {@code
 * [subquery]} document transformers, each a full search run with {@code distrib=false} on the core
 * that answered, which holds all of the owner's records (distributed instead when a query has no
 * owner). Facet queries in the same request count the eligible records naming each query entity
 * and, with the eligibility filters excluded by their tag, the index's size and each query token's
 * document frequency. The query text is analysed on the client ({@link QueryAnalyzer}, the
 * configset's chain). Before, a call made 9 requests (analysis, counts, document frequencies,
 * collection size, four lists, then BM25 for candidates the BM25 list missed).
 *
 * <p><b>Eligibility.</b> Every list carries the {@link Eligibility} as filter queries ({@link
 * SolrFilters}): BM25, entity and time lists are filtered searches, and the dense list is either
 * the {@code knn} parser as the subquery's main query (which takes the {@code fq}s as its HNSW
 * pre-filter; a {@code knn} clause nested in a boolean query would not be pre-filtered) or, when at
 * most {@link #EXACT_SCAN_MAX} records are eligible, an exact scan of the eligible records' vectors
 * by a function query. The embedded store makes the same choice at the same size; here the count
 * comes from the owner's previous recall (the one request cannot count before it chooses), so an
 * owner's first recall in a process is exact.
 *
 * <p><b>Scores.</b> The BM25 query is one term clause per analysed token over {@code text} plus the
 * same over {@code context} at the query's context weight, as in the embedded store. Every
 * candidate gets its BM25 score (the other lists return it as a {@code query()} function field) and
 * its cosine (from its stored vector), and {@code bm25Max} is computed from the same index's
 * statistics as the scores: the owner's shard (per-shard statistics, as the embedded store's
 * per-partition ones). Solr has no rank fusion; the engine fuses these raw signals itself.
 *
 * <p><b>Durability.</b> {@link #apply} sends the adds and deletes in one update request, which the
 * shard leaders forward to every live replica and write to their update logs (fsynced: the
 * configset's {@code syncLevel} is {@code FSYNC}) before answering, then a soft commit that waits
 * for new searchers on every replica; only then does it return. A crash of any node then loses
 * nothing acknowledged (the update log is replayed), and a reader sees the call's records. A
 * failure (a node down, a leader election) throws a retriable {@link MnemoException}; re-applying
 * the same call is idempotent (ids are fixed). Unlike the embedded store, a reader may see part of
 * a call while its commit runs on some shards and not yet on others, and another client's commit
 * may expose a call before it returns: calls for one owner land on one shard, which keeps a single
 * owner's changes together in practice.
 *
 * <p>Thread-safe. The SolrJ client is owned: {@link #close()} closes it.
 */
public final class SolrMemoryStore implements MemoryStore {

  /**
   * Eligible records at or below this count are scored exactly (a function query over their
   * vectors) instead of through the HNSW graph: the embedded store's limit, for the same reason (a
   * selective filter makes the graph search explore and then fall back to a scan anyway), and so
   * that both stores find the same neighbours.
   */
  public static final int EXACT_SCAN_MAX = 20_000;

  /** Rows per page of {@link #export} and of unbounded lookups. */
  static final int PAGE = 1_000;

  /** The tenant of a store opened without one (the CLI's single store). */
  public static final String DEFAULT_TENANT = "_";

  private final SolrClient client;
  private final boolean ownsClient;
  private final String collection;
  private final String tenant;
  private final int exactScanMax;
  private final SolrTurnLog turnLog; // null: none (the engine keeps turns in memory)

  /**
   * A store of {@code tenant}'s records in {@code collection} through {@code client} (a cloud
   * client is expected; the collection must have been created with this module's configset, see
   * {@link SolrCollections}). Tenants share the collection and never see each other's records: the
   * tenant is a filter of every query and part of every record's route and id.
   *
   * @param ownsClient whether {@link #close()} closes the client (false when tenants share one)
   * @param exactScanMax eligible records up to which the dense search is exact ({@link
   *     #EXACT_SCAN_MAX}; 0 forces the HNSW search, as tests do)
   */
  public SolrMemoryStore(
      SolrClient client, boolean ownsClient, String collection, String tenant, int exactScanMax) {
    this(client, ownsClient, collection, tenant, exactScanMax, null);
  }

  /**
   * As above, with the tenant's turn log in the collection {@code turnLogCollection} (see {@link
   * SolrTurnLog}); null keeps none.
   */
  public SolrMemoryStore(
      SolrClient client,
      boolean ownsClient,
      String collection,
      String tenant,
      int exactScanMax,
      String turnLogCollection) {
    this.client = java.util.Objects.requireNonNull(client, "client");
    this.ownsClient = ownsClient;
    this.collection = java.util.Objects.requireNonNull(collection, "collection");
    this.tenant = java.util.Objects.requireNonNull(tenant, "tenant");
    if (exactScanMax < 0)
      throw new IllegalArgumentException("exactScanMax must be >= 0, was " + exactScanMax);
    this.exactScanMax = exactScanMax;
    this.turnLog =
        turnLogCollection == null ? null : new SolrTurnLog(client, turnLogCollection, tenant);
  }

  @Override
  public Optional<dev.mnemo.spi.TurnLog> turnLog() {
    return Optional.ofNullable(turnLog);
  }

  /** The collection this store writes to. */
  public String collection() {
    return collection;
  }

  @Override
  public void apply(List<MemoryRecord> upserts, Collection<String> deleteIds) {
    if (upserts.isEmpty() && deleteIds.isEmpty()) return;
    UpdateRequest update = new UpdateRequest();
    for (MemoryRecord r : upserts) update.add(SolrSchema.toDocument(tenant, r));
    if (!deleteIds.isEmpty()) update.deleteByQuery(idsQuery(deleteIds));
    try {
      update.process(client, collection);
      commit(false);
    } catch (SolrServerException | IOException | SolrException e) {
      throw writeFailed("write", e);
    }
  }

  /**
   * A soft commit that returns once every replica opened a searcher on it (hard, expunging deletes,
   * when {@code expunge}).
   */
  private void commit(boolean expunge) throws SolrServerException, IOException {
    UpdateRequest commit = new UpdateRequest();
    commit.setAction(UpdateRequest.ACTION.COMMIT, true, true, !expunge);
    if (expunge) commit.setParam("expungeDeletes", "true");
    commit.process(client, collection);
  }

  /**
   * Any of these record ids, in plain query syntax: delete-by-query requests are forwarded to every
   * shard and replica without the request's other parameters, so values cannot live in parameters.
   */
  private String idsQuery(Collection<String> ids) {
    StringJoiner j =
        new StringJoiner(" OR ", SolrFilters.quoted(SolrSchema.TENANT, tenant) + " AND (", ")");
    for (String id : ids) j.add(SolrFilters.quoted(SolrSchema.RID, id));
    return j.toString();
  }

  @Override
  public Optional<MemoryRecord> get(String owner, String id) {
    SolrQuery q = ownerQuery(owner);
    SolrFilters.Params p = new SolrFilters.Params(q, "g");
    q.addFilterQuery(p.term(SolrSchema.RID, id));
    q.setRows(1);
    SolrDocumentList docs = query(q).getResults();
    return docs.isEmpty() ? Optional.empty() : Optional.of(SolrSchema.fromDocument(docs.get(0)));
  }

  @Override
  public List<MemoryRecord> versions(String owner, String factKey) {
    SolrQuery q = ownerQuery(owner);
    q.addFilterQuery(new SolrFilters.Params(q, "v").term(SolrSchema.FACT_KEY, factKey));
    return findAll(q);
  }

  @Override
  public List<MemoryRecord> lineage(String owner, String id) {
    SolrQuery q = ownerQuery(owner);
    SolrFilters.Params p = new SolrFilters.Params(q, "l");
    q.addFilterQuery(
        "{!bool should="
            + p.ref(p.term(SolrSchema.RID, id))
            + " should="
            + p.ref(p.term(SolrSchema.ORIGIN, id))
            + "}");
    return findAll(q);
  }

  private SolrQuery ownerQuery(String owner) {
    SolrQuery q = new SolrQuery("*:*");
    SolrFilters.apply(q, tenant, Eligibility.allOf(owner));
    return q;
  }

  /** Every match, oldest recorded first (ties by id), as the embedded store orders lookups. */
  private List<MemoryRecord> findAll(SolrQuery q) {
    q.setSort(SolrSchema.RECORDED, SolrQuery.ORDER.asc);
    q.addSort(SolrSchema.RID, SolrQuery.ORDER.asc);
    q.setRows(PAGE);
    SolrDocumentList docs = query(q).getResults();
    if (docs.getNumFound() > docs.size()) {
      q.setRows((int) docs.getNumFound());
      docs = query(q).getResults();
    }
    List<MemoryRecord> out = new ArrayList<>(docs.size());
    for (SolrDocument d : docs) out.add(SolrSchema.fromDocument(d));
    return out;
  }

  @Override
  public List<MemoryRecord> latest(Eligibility eligibility, int limit) {
    SolrQuery q = new SolrQuery("*:*");
    SolrFilters.apply(q, tenant, eligibility);
    q.setSort(SolrSchema.RECORDED, SolrQuery.ORDER.desc);
    q.addSort(SolrSchema.RID, SolrQuery.ORDER.asc);
    q.setRows(Math.max(1, limit));
    List<MemoryRecord> out = new ArrayList<>();
    for (SolrDocument d : query(q).getResults()) out.add(SolrSchema.fromDocument(d));
    return out;
  }

  @Override
  public CandidateSet candidates(CandidateQuery cq) {
    List<String> tokens = cq.text() == null || cq.text().isBlank() ? List.of() : analyze(cq.text());
    boolean entities = !cq.entities().isEmpty();
    if (cq.vector() == null && tokens.isEmpty() && !entities && cq.timeRange() == null)
      return CandidateSet.empty();

    // One request: the main query counts the eligible records (its hit count) and returns one of
    // them, which carries each list as a [subquery] run on the shard that answered (the owner's).
    SolrQuery main = new SolrQuery("*:*");
    SolrFilters.apply(main, tenant, cq.eligibility());
    main.setRows(1);
    // "*": a request answered by another node than the shard's passes the listed records through
    // the main request's field list, which must not drop their fields
    StringJoiner fl = new StringJoiner(",").add("*");
    double cw = cq.contextWeight();
    if (cq.vector() != null) {
      boolean graph = exactScanMax == 0 || eligibleHint(cq) > exactScanMax;
      nest(main, fl, DENSE, scored(dense(cq, graph), cq), tokens, cw);
    }
    if (!tokens.isEmpty()) {
      SolrQuery q = new SolrQuery();
      q.setQuery(textQuery(q, tokens, cw));
      nest(main, fl, BM25, scored(q, cq), null, cw);
    }
    if (entities) nest(main, fl, ENTITY, scored(entityQuery(cq.entities()), cq), tokens, cw);
    if (cq.timeRange() != null) nest(main, fl, TIME, timeList(cq), tokens, cw);
    main.setFields(fl.toString());
    Map<String, String> entityOf = countFacets(main, cq.entities(), tokens);
    main.set("json.facet", VERSIONED_FACET);

    QueryResponse r = query(main);
    long eligible = r.getResults().getNumFound();
    rememberEligible(cq, eligible);
    if (r.getResults().isEmpty()) return CandidateSet.empty(); // no list can hold a record

    SolrDocument lists = r.getResults().get(0);
    Map<String, Ranked> ranks = new LinkedHashMap<>();
    Map<String, Double> bm25Scores = new java.util.HashMap<>();
    for (int signal = 0; signal < LISTS.size(); signal++) {
      List<Hit> hits = hits(lists.getFieldValue(LISTS.get(signal)), signal != 3, bm25Scores);
      rank(ranks, hits, signal);
      if (signal == 1) for (Hit h : hits) bm25Scores.put(h.record.id(), h.score);
    }
    if (ranks.isEmpty()) return CandidateSet.empty();

    List<Candidate> out = new ArrayList<>(ranks.size());
    for (Ranked rk : ranks.values()) {
      MemoryRecord rec = rk.record;
      double cos = Double.NaN;
      if (cq.vector() != null
          && rec.embedding() != null
          && rec.embedding().length == cq.vector().length) {
        cos = dev.mnemo.spi.Vectors.dot(cq.vector(), rec.embedding());
      }
      out.add(
          new Candidate(
              rec,
              cos,
              tokens.isEmpty() ? 0.0 : bm25Scores.getOrDefault(rec.id(), 0.0),
              rk.ranks[0],
              rk.ranks[1],
              rk.ranks[2],
              rk.ranks[3]));
    }
    Map<String, Integer> facets = r.getFacetQuery() == null ? Map.of() : r.getFacetQuery();
    Map<String, Long> entityFrequencies = new TreeMap<>();
    if (entities) {
      Set<String> named = new TreeSet<>();
      for (Candidate c : out)
        for (String e : c.record().entities()) if (cq.entities().contains(e)) named.add(e);
      Map<String, Long> counts = new java.util.HashMap<>();
      for (var e : entityOf.entrySet())
        counts.put(e.getValue(), facets.getOrDefault(e.getKey(), 0).longValue());
      for (String e : named) entityFrequencies.put(e, counts.getOrDefault(e, 0L));
    }
    return new CandidateSet(
        out,
        bm25Max(tokens, facets),
        entityFrequencies.isEmpty() ? 0 : eligible,
        entityFrequencies,
        versions(cq, out, r));
  }

  /** The JSON facet of the fact keys that more than one eligible record shares. */
  private static final String VERSIONED = "vk";

  /**
   * At most this many shared keys come back with the candidates; more: read the candidates' keys.
   */
  private static final int VERSIONED_MAX = 1000;

  private static final String VERSIONED_FACET =
      "{"
          + VERSIONED
          + ":{type:terms,field:"
          + SolrSchema.FACT_KEY
          + ",mincount:2,limit:"
          + VERSIONED_MAX
          + "}}";

  /**
   * The eligible versions of the candidates' fact keys that other eligible records share, for the
   * read path's conflict check without a {@link #versions} request per selected key (which made a
   * recall 1.5 requests on average). The candidates' request carries a terms facet of the keys two
   * or more eligible records share (under the same filters, so the same state of the index); a key
   * of no candidate among them has no other version, and the map stays empty: one request. Only
   * when some candidate's key is shared (a kept-both conflict, or history read) is a second request
   * sent, for those keys' records under the eligibility filter: at most two requests per recall
   * (past the facet's bound, none: null, and the read path reads the keys it selects).
   */
  private Map<String, List<MemoryRecord>> versions(
      CandidateQuery cq, List<Candidate> candidates, QueryResponse r) {
    Map<String, Long> shared = new java.util.HashMap<>();
    boolean truncated = false;
    if (r.getResponse().get("facets") instanceof org.apache.solr.common.util.NamedList<?> f
        && f.get(VERSIONED) instanceof org.apache.solr.common.util.NamedList<?> vk
        && vk.get("buckets") instanceof List<?> buckets) {
      for (Object b : buckets) {
        if (b instanceof org.apache.solr.common.util.NamedList<?> bucket)
          shared.put(String.valueOf(bucket.get("val")), ((Number) bucket.get("count")).longValue());
      }
      truncated = buckets.size() >= VERSIONED_MAX;
    }
    // more shared keys than the facet lists (a large owner with many kept-both keys, or a history
    // read): the read path asks for the versions of the keys it selects instead, as many requests
    // as selected keys, rather than one request here for every candidate's key
    if (truncated) return null;
    Map<String, MemoryRecord> byId = new java.util.HashMap<>();
    Set<String> keys = new TreeSet<>();
    for (Candidate c : candidates) {
      byId.put(c.record().id(), c.record());
      String key = c.record().factKey();
      if (key != null && shared.containsKey(key)) keys.add(key);
    }
    Map<String, List<MemoryRecord>> out = new java.util.HashMap<>();
    if (keys.isEmpty()) return out;
    SolrQuery q = new SolrQuery("*:*");
    SolrFilters.apply(q, tenant, cq.eligibility());
    SolrFilters.Params p = new SolrFilters.Params(q, "k");
    StringJoiner any = new StringJoiner(" ", "{!bool ", "}");
    for (String key : keys) any.add("should=" + p.ref(p.term(SolrSchema.FACT_KEY, key)));
    q.addFilterQuery(any.toString());
    for (MemoryRecord v : findAll(q)) {
      MemoryRecord known = byId.get(v.id());
      out.computeIfAbsent(v.factKey(), k -> new ArrayList<>()).add(known != null ? known : v);
    }
    out.values().removeIf(v -> v.size() < 2);
    return out;
  }

  /** The four lists' [subquery] names, in the order of the candidate's ranks. */
  private static final String DENSE = "d", BM25 = "b", ENTITY = "e", TIME = "t";

  private static final List<String> LISTS = List.of(DENSE, BM25, ENTITY, TIME);

  /** The facet key of the index's size, and the prefixes of the per-token and entity keys. */
  private static final String SIZE = "n", DF = "df", ENTITY_COUNT = "ef";

  /**
   * Adds the counts the read path needs to {@code main} as facet queries: how many eligible records
   * name each query entity, and, over the whole index (the eligibility filters excluded by their
   * tag), its size and each query token's document frequency for {@link #bm25Max}. Returns the
   * entity of each entity facet's key.
   */
  private static Map<String, String> countFacets(
      SolrQuery main, Set<String> entities, List<String> tokens) {
    Map<String, String> entityOf = new LinkedHashMap<>();
    if (entities.isEmpty() && tokens.isEmpty()) return entityOf;
    main.setFacet(true);
    SolrFilters.Params p = new SolrFilters.Params(main, "c");
    int i = 0;
    for (String e : new TreeSet<>(entities)) {
      String key = ENTITY_COUNT + i++;
      main.addFacetQuery("{!term key=" + key + " f=" + SolrSchema.ENTITY + " v=" + p.ref(e) + "}");
      entityOf.put(key, e);
    }
    if (!tokens.isEmpty()) {
      String all = " ex=" + SolrFilters.TAG;
      main.addFacetQuery("{!lucene key=" + SIZE + all + "}*:*");
      int t = 0;
      for (String token : new TreeSet<>(tokens)) {
        main.addFacetQuery(
            "{!term key=" + DF + t++ + all + " f=" + SolrSchema.TEXT + " v=" + p.ref(token) + "}");
      }
    }
    return entityOf;
  }

  /**
   * Puts {@code sub} into {@code main} as the [subquery] {@code name}: its parameters prefixed with
   * {@code name.}, run on the core that returns the main document only ({@code distrib=false}: the
   * owner's shard; distributed when there is no owner), and each of its records carrying its BM25
   * score for {@code bm25Tokens} (a function query over the BM25 list's query; null when the query
   * has no text, or for the BM25 list itself, whose score is its sort).
   */
  private static void nest(
      SolrQuery main,
      StringJoiner fl,
      String name,
      SolrQuery sub,
      List<String> bm25Tokens,
      double contextWeight) {
    // An owner's records are all on the shard the main request was routed to; a query without an
    // owner (the evaluation's unfiltered arm) asks every shard.
    boolean routed = sub.get("_route_") != null;
    sub.remove("_route_");
    sub.set("distrib", !routed);
    if (bm25Tokens != null && !bm25Tokens.isEmpty()) {
      sub.set("bq", textQuery(sub, bm25Tokens, contextWeight));
      sub.setFields(sub.getFields() + "," + BM25_FIELD + ":query($bq,0)");
    }
    for (var it = sub.getParameterNamesIterator(); it.hasNext(); ) {
      String key = it.next();
      main.set(name + "." + key, sub.getParams(key));
    }
    fl.add(name + ":[subquery]");
  }

  /** The pseudo-field holding a listed record's BM25 score. */
  private static final String BM25_FIELD = "bm25";

  /** The eligible count of an owner's last recall, for the dense path's choice. */
  private final Map<String, Long> eligibleByOwner =
      java.util.Collections.synchronizedMap(
          new LinkedHashMap<>(64, 0.75f, true) {
            private static final long serialVersionUID = 1L;

            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Long> eldest) {
              return size() > OWNER_HINTS;
            }
          });

  /** Owners whose last eligible count is remembered. */
  static final int OWNER_HINTS = 10_000;

  /**
   * How many records the owner had eligible at their last recall (0 when unknown): the dense path's
   * choice needs the count before the request that counts them, so it uses the previous one. An
   * owner's first recall in this process is exact, whatever their size (correct, and slow only for
   * an owner above the limit); a count that crosses the limit changes the path from the next recall
   * on.
   */
  private long eligibleHint(CandidateQuery cq) {
    String owner = cq.eligibility().owner();
    return owner == null ? 0 : eligibleByOwner.getOrDefault(owner, 0L);
  }

  private void rememberEligible(CandidateQuery cq, long eligible) {
    String owner = cq.eligibility().owner();
    if (owner != null) eligibleByOwner.put(owner, eligible);
  }

  /** One found record and its score in one list. */
  private record Hit(MemoryRecord record, double score) {}

  private record Ranked(MemoryRecord record, int[] ranks) {}

  private static void rank(Map<String, Ranked> ranks, List<Hit> hits, int signal) {
    for (int i = 0; i < hits.size(); i++) {
      MemoryRecord r = hits.get(i).record;
      ranks.computeIfAbsent(r.id(), k -> new Ranked(r, new int[4])).ranks[signal] = i + 1;
    }
  }

  /**
   * The records of one [subquery] list ({@code value}, absent when the query did not ask for it),
   * noting in {@code bm25Scores} the BM25 score each carries.
   */
  private static List<Hit> hits(Object value, boolean scored, Map<String, Double> bm25Scores) {
    if (!(value instanceof SolrDocumentList docs)) return List.of();
    List<Hit> out = new ArrayList<>(docs.size());
    for (SolrDocument d : docs) {
      MemoryRecord rec = SolrSchema.fromDocument(d);
      Object s = scored ? d.getFirstValue("score") : null;
      if (d.getFirstValue(BM25_FIELD) instanceof Number b)
        bm25Scores.putIfAbsent(rec.id(), b.doubleValue());
      out.add(new Hit(rec, s == null ? 0 : ((Number) s).doubleValue()));
    }
    return out;
  }

  /**
   * The {@code perSignal} eligible records nearest to the query vector: through the HNSW graph
   * ({@code graph}) or exactly.
   */
  private static SolrQuery dense(CandidateQuery cq, boolean graph) {
    StringBuilder vec = new StringBuilder("[");
    for (int i = 0; i < cq.vector().length; i++) {
      if (i > 0) vec.append(',');
      vec.append(cq.vector()[i]);
    }
    vec.append(']');
    SolrQuery q = new SolrQuery();
    if (graph) {
      // As the main query, knn takes every fq as the HNSW search's pre-filter.
      q.setQuery("{!knn f=" + SolrSchema.VECTOR + " topK=" + cq.perSignal() + "}" + vec);
    } else {
      // Lucene's DOT_PRODUCT score, (1 + dot) / 2, for every eligible record that has a vector.
      q.setQuery("{!func}vectorSimilarity(" + SolrSchema.VECTOR + "," + vec + ")");
      q.addFilterQuery(SolrSchema.HAS_VECTOR + ":true");
    }
    return q;
  }

  /**
   * Records whose valid time starts inside the query's range, or whose event time (the time the
   * text is about) overlaps it, newest recorded first: the embedded store's time list.
   */
  private SolrQuery timeList(CandidateQuery cq) {
    long from = cq.timeRange().from().toEpochMilli();
    long to = cq.timeRange().to().toEpochMilli();
    SolrQuery q =
        new SolrQuery(
            SolrFilters.range(SolrSchema.VALID_FROM, from, to - 1)
                + " OR ("
                + SolrFilters.range(SolrSchema.EVENT_FROM, Long.MIN_VALUE, to - 1)
                + " AND "
                + SolrFilters.range(SolrSchema.EVENT_TO, from + 1, Long.MAX_VALUE)
                + ")");
    SolrFilters.apply(q, tenant, cq.eligibility());
    q.setSort(SolrSchema.RECORDED, SolrQuery.ORDER.desc);
    q.addSort(SolrSchema.RID, SolrQuery.ORDER.asc);
    q.setRows(cq.perSignal());
    q.setFields(SolrSchema.RECORD_FIELDS);
    return q;
  }

  /**
   * {@code q} as a list of the top {@code perSignal} eligible records by score; ties by recorded
   * time then id (the embedded store breaks ties by index order, which is mostly write order).
   */
  private SolrQuery scored(SolrQuery q, CandidateQuery cq) {
    SolrFilters.apply(q, tenant, cq.eligibility());
    q.setSort("score", SolrQuery.ORDER.desc);
    q.addSort(SolrSchema.RECORDED, SolrQuery.ORDER.asc);
    q.addSort(SolrSchema.RID, SolrQuery.ORDER.asc);
    q.setRows(cq.perSignal());
    q.setFields(SolrSchema.RECORD_FIELDS, "score");
    return q;
  }

  /**
   * The BM25 query over the analyzed tokens: one optional term clause per token on {@code text},
   * plus the same on {@code context} at the query's context weight (the embedded store's query).
   * Its term parameters go into {@code q}; returns the query string.
   */
  private static String textQuery(SolrQuery q, List<String> tokens, double contextWeight) {
    SolrFilters.Params p = new SolrFilters.Params(q, "t");
    StringBuilder text = new StringBuilder("{!bool");
    StringBuilder context = new StringBuilder("{!bool");
    for (String t : tokens) {
      String v = p.put(t);
      text.append(" should=").append(p.ref("{!term f=" + SolrSchema.TEXT + " v=$" + v + "}"));
      context.append(" should=").append(p.ref("{!term f=" + SolrSchema.CONTEXT + " v=$" + v + "}"));
    }
    if (contextWeight <= 0) return text.append('}').toString();
    String ctx = p.ref(context.append('}').toString());
    return "{!bool should="
        + p.ref(text.append('}').toString())
        + " should="
        + p.ref("{!boost b=" + (float) contextWeight + " v=" + ctx + "}")
        + "}";
  }

  /**
   * Records naming any of the entities, scored by how many they name (as the embedded store's
   * constant-score clauses).
   */
  private static SolrQuery entityQuery(Set<String> entities) {
    SolrQuery q = new SolrQuery();
    SolrFilters.Params p = new SolrFilters.Params(q, "e");
    StringJoiner count = new StringJoiner(",", "{!func}sum(", ")");
    StringBuilder any = new StringBuilder("{!bool");
    for (String e : new TreeSet<>(entities)) {
      String v = p.put(e);
      count.add("termfreq(" + SolrSchema.ENTITY + ",$" + v + ")");
      any.append(" should=").append(p.ref("{!term f=" + SolrSchema.ENTITY + " v=$" + v + "}"));
    }
    q.setQuery(count.toString());
    q.addFilterQuery(any.append('}').toString());
    return q;
  }

  /**
   * The query text's tokens as the collection's text analyzer makes them (stop words out, stemmed):
   * the configset's chain run here, on the client, with the configset's own stop list.
   */
  private static List<String> analyze(String text) {
    List<String> out = new ArrayList<>();
    try (var ts = QueryAnalyzer.ENGLISH.tokenStream(SolrSchema.TEXT, text)) {
      var term =
          ts.addAttribute(org.apache.lucene.analysis.tokenattributes.CharTermAttribute.class);
      ts.reset();
      while (ts.incrementToken()) out.add(term.toString());
      ts.end();
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    return out;
  }

  /**
   * The highest BM25 score any record could get for these tokens: the sum of their IDF ({@code
   * log(1 + (n - df + 0.5) / (df + 0.5))}, a token no record contains at its highest), as the
   * embedded store computes it, over the index that scored the lists (the owner's shard: the BM25
   * scores use that shard's statistics too). {@code n} and {@code df} count live records; the
   * embedded store's also count deletions not merged away yet, a difference that only shows right
   * after many corrections.
   */
  private static double bm25Max(List<String> tokens, Map<String, Integer> facets) {
    if (tokens.isEmpty()) return 0;
    long n = facets.getOrDefault(SIZE, 0);
    List<String> distinct = new ArrayList<>(new TreeSet<>(tokens));
    double max = 0;
    for (String t : tokens) {
      long f = facets.getOrDefault(DF + distinct.indexOf(t), 0);
      max += Math.log(1 + (n - f + 0.5) / (f + 0.5));
    }
    return max;
  }

  @Override
  public int deleteOwner(String owner) {
    SolrQuery q = ownerQuery(owner);
    q.setRows(0);
    int n = (int) query(q).getResults().getNumFound();
    purge(SolrFilters.quoted(SolrSchema.OWNER, owner), "forget of owner " + owner);
    return n;
  }

  /**
   * Deletes every record of this store's tenant, and every turn of its turn log, merged away as
   * {@link #deleteOwner} does; returns how many records. The server calls it when a tenant is
   * deleted, and for a tenant that is new under a name that held records before.
   */
  public long deleteAll() {
    long n = count();
    purge("*:*", "deleting tenant " + tenant);
    if (turnLog != null) turnLog.deleteAll();
    return n;
  }

  /**
   * Deletes this tenant's records matching {@code query}, then a hard commit that merges deleted
   * documents away: a right to be forgotten, so text and vectors are gone from the index files, not
   * only hidden.
   */
  private void purge(String query, String what) {
    UpdateRequest delete = new UpdateRequest();
    delete.deleteByQuery(SolrFilters.quoted(SolrSchema.TENANT, tenant) + " AND " + query);
    try {
      delete.process(client, collection);
      commit(true);
    } catch (SolrServerException | IOException | SolrException e) {
      throw writeFailed(what, e);
    }
  }

  @Override
  public void export(String owner, Consumer<MemoryRecord> sink) {
    SolrQuery q = owner == null ? tenantQuery() : ownerQuery(owner);
    q.setSort(SolrSchema.RECORDED, SolrQuery.ORDER.asc);
    q.addSort(SolrSchema.RID, SolrQuery.ORDER.asc);
    q.addSort(SolrSchema.ID, SolrQuery.ORDER.asc);
    q.setRows(PAGE);
    String cursor = CursorMarkParams.CURSOR_MARK_START;
    while (true) {
      q.set(CursorMarkParams.CURSOR_MARK_PARAM, cursor);
      QueryResponse r = query(q);
      for (SolrDocument d : r.getResults()) sink.accept(SolrSchema.fromDocument(d));
      String next = r.getNextCursorMark();
      if (next == null || next.equals(cursor)) return;
      cursor = next;
    }
  }

  private SolrQuery tenantQuery() {
    SolrQuery q = new SolrQuery("*:*");
    q.addFilterQuery(new SolrFilters.Params(q, "n").term(SolrSchema.TENANT, tenant));
    return q;
  }

  @Override
  public long count() {
    SolrQuery q = tenantQuery();
    q.setRows(0);
    return query(q).getResults().getNumFound();
  }

  @Override
  public void close() {
    if (!ownsClient) return;
    try {
      client.close();
    } catch (IOException e) {
      throw new MnemoException("closing the Solr client failed: " + e.getMessage(), false, e);
    }
  }

  private QueryResponse query(SolrQuery q) {
    return query(q, null);
  }

  /** {@code q} sent to the request handler at {@code path} ({@code null}: the default, /select). */
  private QueryResponse query(SolrQuery q, String path) {
    try {
      QueryRequest request = new QueryRequest(q, SolrRequest.METHOD.POST);
      if (path != null) request.setPath(path);
      return request.process(client, collection);
    } catch (SolrServerException | IOException | SolrException e) {
      throw readFailed(e);
    }
  }

  /** Bad requests (4xx) are not retriable; a node down, a timeout or a 5xx is. */
  private static boolean retriable(Exception e) {
    if (e instanceof SolrException se) return se.code() >= 500 || se.code() <= 0;
    return true;
  }

  private static MnemoException readFailed(Exception e) {
    return new MnemoException("reading the Solr store failed: " + e.getMessage(), retriable(e), e);
  }

  private static MnemoException writeFailed(String what, Exception e) {
    return new MnemoException(
        what
            + " failed on Solr, nothing was acknowledged (retrying the same call is safe): "
            + e.getMessage(),
        retriable(e),
        e);
  }
}

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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Consumer;
import org.apache.solr.client.solrj.SolrClient;
import org.apache.solr.client.solrj.SolrQuery;
import org.apache.solr.client.solrj.SolrRequest;
import org.apache.solr.client.solrj.SolrServerException;
import org.apache.solr.client.solrj.request.FieldAnalysisRequest;
import org.apache.solr.client.solrj.request.QueryRequest;
import org.apache.solr.client.solrj.request.UpdateRequest;
import org.apache.solr.client.solrj.response.AnalysisResponseBase;
import org.apache.solr.client.solrj.response.FieldAnalysisResponse;
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
 * <p><b>Eligibility.</b> Every search carries the {@link Eligibility} as filter queries ({@link
 * SolrFilters}): BM25, entity and time lists are filtered searches, and the dense list is either
 * the {@code knn} parser as the main query (which takes the {@code fq}s as its HNSW pre-filter; a
 * {@code knn} clause nested in a boolean query would not be pre-filtered) or, when at most {@link
 * #EXACT_SCAN_MAX} records are eligible, an exact scan of the eligible records' vectors by a
 * function query. The embedded store makes the same choice at the same size.
 *
 * <p><b>Scores.</b> The BM25 query is built from the collection's own analysis of the query text
 * (the {@code /analysis/field} handler), one term clause per token over {@code text} plus the same
 * over {@code context} at the query's context weight, as in the embedded store; statistics are the
 * collection's (the configset enables exact distributed IDF), so a score does not depend on which
 * shard an owner lives on. Every candidate gets its BM25 score (one filtered re-query by id for
 * those the BM25 list did not return) and its cosine (from its stored vector), and the statistics
 * the read path needs ({@code bm25Max} from the terms' document frequencies over all shards,
 * eligible count and entity frequencies from one faceted count). Solr has no rank fusion; the
 * engine fuses these raw signals itself.
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
  private final ExecutorService parallel = Executors.newVirtualThreadPerTaskExecutor();
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
    // eligible count (the dense path's choice) and entity frequencies in one faceted count, while
    // the query text is analyzed
    CompletableFuture<Counts> countsLater =
        cq.vector() != null || !cq.entities().isEmpty()
            ? async(() -> counts(cq))
            : CompletableFuture.completedFuture(null);
    List<String> tokens = cq.text() == null || cq.text().isBlank() ? List.of() : analyze(cq.text());
    CompletableFuture<Double> bm25Max =
        tokens.isEmpty() ? CompletableFuture.completedFuture(0.0) : async(() -> bm25Max(tokens));

    CompletableFuture<List<Hit>> dense =
        cq.vector() == null
            ? CompletableFuture.completedFuture(List.of())
            : countsLater.thenApplyAsync(c -> dense(cq, c.eligible), parallel);
    CompletableFuture<List<Hit>> bm25 =
        tokens.isEmpty()
            ? CompletableFuture.completedFuture(List.of())
            : async(() -> search(textQuery(new SolrQuery(), tokens, cq.contextWeight()), cq, true));
    CompletableFuture<List<Hit>> entity =
        cq.entities().isEmpty()
            ? CompletableFuture.completedFuture(List.of())
            : async(() -> search(entityQuery(cq.entities()), cq, true));
    CompletableFuture<List<Hit>> time =
        cq.timeRange() == null
            ? CompletableFuture.completedFuture(List.of())
            : async(() -> timeList(cq));

    Map<String, Ranked> ranks = new LinkedHashMap<>();
    rank(ranks, join(dense), 0);
    List<Hit> bm25Hits = join(bm25);
    rank(ranks, bm25Hits, 1);
    rank(ranks, join(entity), 2);
    rank(ranks, join(time), 3);
    if (ranks.isEmpty()) {
      join(bm25Max);
      join(countsLater);
      return CandidateSet.empty();
    }

    Map<String, Double> bm25Scores = new java.util.HashMap<>();
    for (Hit h : bm25Hits) bm25Scores.put(h.record.id(), h.score);
    List<String> unscored =
        ranks.keySet().stream().filter(id -> !bm25Scores.containsKey(id)).toList();
    if (!tokens.isEmpty() && !unscored.isEmpty())
      bm25Scores.putAll(bm25Of(tokens, cq.contextWeight(), cq.eligibility(), unscored));

    List<Candidate> out = new ArrayList<>(ranks.size());
    for (Ranked r : ranks.values()) {
      MemoryRecord rec = r.record;
      double cos = Double.NaN;
      if (cq.vector() != null
          && rec.embedding() != null
          && rec.embedding().length == cq.vector().length) {
        double dot = 0;
        for (int i = 0; i < cq.vector().length; i++) dot += cq.vector()[i] * rec.embedding()[i];
        cos = dot;
      }
      out.add(
          new Candidate(
              rec,
              cos,
              bm25Scores.getOrDefault(rec.id(), 0.0),
              r.ranks[0],
              r.ranks[1],
              r.ranks[2],
              r.ranks[3]));
    }
    Counts counts = join(countsLater);
    Map<String, Long> entityFrequencies = new TreeMap<>();
    if (!cq.entities().isEmpty()) {
      Set<String> named = new TreeSet<>();
      for (Candidate c : out)
        for (String e : c.record().entities()) if (cq.entities().contains(e)) named.add(e);
      for (String e : named) entityFrequencies.put(e, counts.entities.getOrDefault(e, 0L));
    }
    return new CandidateSet(
        out, join(bm25Max), entityFrequencies.isEmpty() ? 0 : counts.eligible, entityFrequencies);
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

  private record Counts(long eligible, Map<String, Long> entities) {}

  /** How many records are eligible, and how many of them name each query entity: one request. */
  private Counts counts(CandidateQuery cq) {
    SolrQuery q = new SolrQuery("*:*");
    SolrFilters.apply(q, tenant, cq.eligibility());
    q.setRows(0);
    Map<String, String> facetOf = new LinkedHashMap<>();
    if (!cq.entities().isEmpty()) {
      q.setFacet(true);
      SolrFilters.Params p = new SolrFilters.Params(q, "ef");
      for (String e : cq.entities()) {
        String fq = p.term(SolrSchema.ENTITY, e);
        q.addFacetQuery(fq);
        facetOf.put(fq, e);
      }
    }
    QueryResponse r = query(q);
    Map<String, Long> entities = new TreeMap<>();
    if (r.getFacetQuery() != null) {
      for (var e : r.getFacetQuery().entrySet()) {
        String entity = facetOf.get(e.getKey());
        if (entity != null) entities.put(entity, e.getValue().longValue());
      }
    }
    return new Counts(r.getResults().getNumFound(), entities);
  }

  /**
   * The {@code perSignal} eligible records nearest to the query vector: exact when few are
   * eligible.
   */
  private List<Hit> dense(CandidateQuery cq, long eligible) {
    StringBuilder vec = new StringBuilder("[");
    for (int i = 0; i < cq.vector().length; i++) {
      if (i > 0) vec.append(',');
      vec.append(cq.vector()[i]);
    }
    vec.append(']');
    SolrQuery q = new SolrQuery();
    if (eligible > exactScanMax) {
      // As the main query, knn takes every fq as the HNSW search's pre-filter.
      q.setQuery("{!knn f=" + SolrSchema.VECTOR + " topK=" + cq.perSignal() + "}" + vec);
    } else {
      // Lucene's DOT_PRODUCT score, (1 + dot) / 2, for every eligible record that has a vector.
      q.setQuery("{!func}vectorSimilarity(" + SolrSchema.VECTOR + "," + vec + ")");
      q.addFilterQuery(SolrSchema.HAS_VECTOR + ":true");
    }
    return search(q, cq, true);
  }

  /** Records whose valid time starts inside the query's range, newest recorded first. */
  private List<Hit> timeList(CandidateQuery cq) {
    SolrQuery q =
        new SolrQuery(
            SolrFilters.range(
                SolrSchema.VALID_FROM,
                cq.timeRange().from().toEpochMilli(),
                cq.timeRange().to().toEpochMilli() - 1));
    SolrFilters.apply(q, tenant, cq.eligibility());
    q.setSort(SolrSchema.RECORDED, SolrQuery.ORDER.desc);
    q.addSort(SolrSchema.RID, SolrQuery.ORDER.asc);
    q.setRows(cq.perSignal());
    return hits(query(q), false);
  }

  /**
   * The top {@code perSignal} eligible records of {@code q} by score; ties by recorded time then id
   * (the embedded store breaks ties by index order, which is mostly write order).
   */
  private List<Hit> search(SolrQuery q, CandidateQuery cq, boolean scored) {
    SolrFilters.apply(q, tenant, cq.eligibility());
    q.setSort("score", SolrQuery.ORDER.desc);
    q.addSort(SolrSchema.RECORDED, SolrQuery.ORDER.asc);
    q.addSort(SolrSchema.RID, SolrQuery.ORDER.asc);
    q.setRows(cq.perSignal());
    q.setFields("*", "score");
    return hits(query(q), scored);
  }

  private static List<Hit> hits(QueryResponse r, boolean scored) {
    List<Hit> out = new ArrayList<>();
    for (SolrDocument d : r.getResults()) {
      Object s = scored ? d.getFirstValue("score") : null;
      out.add(new Hit(SolrSchema.fromDocument(d), s == null ? 0 : ((Number) s).doubleValue()));
    }
    return out;
  }

  /**
   * The BM25 query over the analyzed tokens: one optional term clause per token on {@code text},
   * plus the same on {@code context} at the query's context weight (the embedded store's query).
   */
  private static SolrQuery textQuery(SolrQuery q, List<String> tokens, double contextWeight) {
    SolrFilters.Params p = new SolrFilters.Params(q, "t");
    StringBuilder text = new StringBuilder("{!bool");
    StringBuilder context = new StringBuilder("{!bool");
    for (String t : tokens) {
      String v = p.put(t);
      text.append(" should=").append(p.ref("{!term f=" + SolrSchema.TEXT + " v=$" + v + "}"));
      context.append(" should=").append(p.ref("{!term f=" + SolrSchema.CONTEXT + " v=$" + v + "}"));
    }
    if (contextWeight <= 0) {
      q.setQuery(text.append('}').toString());
      return q;
    }
    String ctx = p.ref(context.append('}').toString());
    q.setQuery(
        "{!bool should="
            + p.ref(text.append('}').toString())
            + " should="
            + p.ref("{!boost b=" + (float) contextWeight + " v=" + ctx + "}")
            + "}");
    return q;
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

  /** BM25 scores of these records for the query (records that do not match are absent). */
  private Map<String, Double> bm25Of(
      List<String> tokens, double contextWeight, Eligibility eligibility, List<String> ids) {
    SolrQuery q = textQuery(new SolrQuery(), tokens, contextWeight);
    SolrFilters.apply(q, tenant, eligibility);
    q.addFilterQuery(idsQuery(ids));
    q.setRows(ids.size());
    q.setFields(SolrSchema.RID, "score");
    Map<String, Double> out = new java.util.HashMap<>();
    for (SolrDocument d : query(q).getResults()) {
      out.put(
          (String) d.getFirstValue(SolrSchema.RID),
          ((Number) d.getFirstValue("score")).doubleValue());
    }
    return out;
  }

  /**
   * The query text's tokens as the collection's text analyzer makes them (stop words out, stemmed).
   */
  private List<String> analyze(String text) {
    FieldAnalysisRequest a = new FieldAnalysisRequest();
    a.addFieldName(SolrSchema.TEXT);
    a.setFieldValue(text);
    a.setQuery(text);
    try {
      FieldAnalysisResponse r = a.process(client, collection);
      FieldAnalysisResponse.Analysis an = r.getFieldNameAnalysis(SolrSchema.TEXT);
      List<String> out = new ArrayList<>();
      AnalysisResponseBase.AnalysisPhase last = null;
      for (AnalysisResponseBase.AnalysisPhase ph : an.getQueryPhases()) last = ph;
      if (last != null)
        for (AnalysisResponseBase.TokenInfo t : last.getTokens()) out.add(t.getText());
      return out;
    } catch (SolrServerException | IOException | SolrException e) {
      throw readFailed(e);
    }
  }

  /**
   * The highest BM25 score any record could get for these tokens: the sum of their IDF over the
   * collection ({@code log(1 + (n - df + 0.5) / (df + 0.5))}, a token no record contains at its
   * highest), as the embedded store computes it. {@code n} is the number of live records; the
   * embedded store's count also includes deletions not merged away yet, a difference that only
   * shows right after many corrections.
   */
  private double bm25Max(List<String> tokens) {
    SolrQuery q = new SolrQuery();
    q.set("terms.fl", SolrSchema.TEXT);
    q.set("terms.list", String.join(",", new TreeSet<>(tokens)));
    q.set("shards.qt", "/terms");
    q.set("terms.limit", -1);
    QueryResponse r = query(q, "/terms");
    Map<String, Long> df = new java.util.HashMap<>();
    if (r.getTermsResponse() != null) {
      for (var t : r.getTermsResponse().getTerms(SolrSchema.TEXT))
        df.put(t.getTerm(), t.getFrequency());
    }
    // the collection's size (all tenants), as the document frequencies and Solr's own BM25 use
    SolrQuery all = new SolrQuery("*:*");
    all.setRows(0);
    long n = query(all).getResults().getNumFound();
    double max = 0;
    for (String t : tokens) {
      long f = df.getOrDefault(t, 0L);
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
    parallel.shutdown();
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

  private <T> CompletableFuture<T> async(java.util.function.Supplier<T> task) {
    return CompletableFuture.supplyAsync(task, parallel);
  }

  private static <T> T join(CompletableFuture<T> f) {
    try {
      return f.join();
    } catch (CompletionException e) {
      if (e.getCause() instanceof RuntimeException re) throw re;
      throw e;
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

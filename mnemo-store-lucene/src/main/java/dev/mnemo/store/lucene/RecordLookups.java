package dev.mnemo.store.lucene;

import dev.mnemo.MemoryRecord;
import dev.mnemo.spi.Eligibility;
import dev.mnemo.store.lucene.LuceneMemoryStore.ReadOptions;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apache.lucene.search.BooleanClause.Occur;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.ConstantScoreQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.Sort;
import org.apache.lucene.search.SortField;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.search.TopFieldDocs;

/**
 * The store's lookups beside the candidate search: records by id, fact key, sources and lineage,
 * the latest eligible ones, and counts; each on the index holding the owner's records, or, for no
 * owner, on every index merged.
 */
final class RecordLookups {
  private final Partitions partitions;

  RecordLookups(Partitions partitions) {
    this.partitions = partitions;
  }

  /** A count query with the eligibility filter. */
  long count(Eligibility eligibility) {
    if (eligibility.owner() == null) {
      return partitions
          .acrossAll((p, s) -> (long) s.count(Filters.of(eligibility, s.getIndexReader())))
          .stream()
          .mapToLong(Long::longValue)
          .sum();
    }
    return partitions.read(
        eligibility.owner(), (p, s) -> (long) s.count(Filters.of(eligibility, s.getIndexReader())));
  }

  /** Records naming any of the source ids: a term query on the indexed sources. */
  List<MemoryRecord> bySources(String owner, Collection<String> sourceIds) {
    if (sourceIds.isEmpty()) return List.of();
    List<String> ids = List.copyOf(new LinkedHashSet<>(sourceIds));
    int chunk = Math.max(1, IndexSearcher.getMaxClauseCount() - 1);
    return partitions.read(
        owner,
        (p, s) -> {
          List<MemoryRecord> out = new ArrayList<>();
          Set<String> seen = new HashSet<>();
          for (int i = 0; i < ids.size(); i += chunk) {
            BooleanQuery.Builder any = new BooleanQuery.Builder();
            for (String id : ids.subList(i, Math.min(ids.size(), i + chunk)))
              any.add(Queries.term(Schema.SOURCE, id), Occur.SHOULD);
            for (MemoryRecord r :
                StoredRecords.find(
                    s,
                    Queries.and(Queries.term(Schema.OWNER, owner), any.build()),
                    Integer.MAX_VALUE,
                    false)) {
              if (seen.add(r.id())) out.add(r);
            }
          }
          return out;
        });
  }

  /** The owner's record with this id. */
  Optional<MemoryRecord> get(String owner, String id) {
    List<MemoryRecord> r =
        partitions.read(
            owner,
            (p, s) ->
                StoredRecords.find(
                    s,
                    Queries.and(Queries.term(Schema.OWNER, owner), Queries.term(Schema.ID, id)),
                    1,
                    false));
    return r.isEmpty() ? Optional.empty() : Optional.of(r.get(0));
  }

  /**
   * A fact key's versions: the read path asks for them right after the candidates, which are often
   * among them.
   */
  List<MemoryRecord> versions(String owner, String factKey, ReadOptions o) {
    return partitions.read(
        owner,
        (p, s) ->
            StoredRecords.find(
                s,
                Queries.and(
                    Queries.term(Schema.OWNER, owner), Queries.term(Schema.FACT_KEY, factKey)),
                Integer.MAX_VALUE,
                o.recordCache()));
  }

  /** The record with this id and those derived from it (their origin), oldest first. */
  List<MemoryRecord> lineage(String owner, String id) {
    Query either =
        new BooleanQuery.Builder()
            .add(Queries.term(Schema.ID, id), Occur.SHOULD)
            .add(Queries.term(Schema.ORIGIN, id), Occur.SHOULD)
            .setMinimumNumberShouldMatch(1)
            .build();
    return partitions.read(
        owner,
        (p, s) ->
            StoredRecords.find(
                s,
                Queries.and(Queries.term(Schema.OWNER, owner), either),
                Integer.MAX_VALUE,
                false));
  }

  /** The {@code limit} most recently recorded eligible records, newest first. */
  List<MemoryRecord> latest(Eligibility eligibility, int limit) {
    Sort sort =
        new Sort(
            new SortField(Schema.RECORDED, SortField.Type.LONG, true),
            new SortField(Schema.ID, SortField.Type.STRING));
    return sorted(
        eligibility.owner(),
        s -> new ConstantScoreQuery(Filters.of(eligibility, s.getIndexReader())),
        Math.max(1, limit),
        sort);
  }

  /** A query for one index (its filter may depend on what the index holds). */
  private interface QueryOf {
    Query of(IndexSearcher s) throws IOException;
  }

  /**
   * The first {@code limit} records matching the query in {@code sort}'s order (all of them with
   * {@link Integer#MAX_VALUE}), from the owner's index, or, for no owner, from every index merged
   * in that order.
   */
  private List<MemoryRecord> sorted(String owner, QueryOf query, int limit, Sort sort) {
    if (owner != null || partitions.table().isEmpty()) {
      return partitions.read(
          owner,
          (p, s) -> {
            Query q = query.of(s);
            int n = limit == Integer.MAX_VALUE ? Math.max(1, s.count(q)) : limit;
            TopDocs top = s.search(q, n, sort);
            List<MemoryRecord> out = new ArrayList<>();
            for (ScoreDoc sd : top.scoreDocs) out.add(StoredRecords.load(s, sd.doc));
            return out;
          });
    }
    List<Partition> parts = new ArrayList<>();
    List<IndexSearcher> searchers = new ArrayList<>();
    try {
      parts.add(partitions.shared);
      for (String o : partitions.table().keySet()) parts.add(partitions.pin(o));
      TopFieldDocs[] tops = new TopFieldDocs[parts.size()];
      for (Partition p : parts) searchers.add(Partitions.acquire(p));
      for (int i = 0; i < parts.size(); i++) {
        IndexSearcher s = searchers.get(i);
        Query q = query.of(s);
        int n = limit == Integer.MAX_VALUE ? Math.max(1, s.count(q)) : limit;
        tops[i] = s.search(q, n, sort);
        for (ScoreDoc sd : tops[i].scoreDocs)
          sd.shardIndex = i; // merge reads it, and so does load below
      }
      int total = 0;
      for (TopFieldDocs t : tops) total += t.scoreDocs.length;
      TopDocs merged = TopDocs.merge(sort, Math.max(1, Math.min(limit, total)), tops);
      List<MemoryRecord> out = new ArrayList<>();
      for (ScoreDoc sd : merged.scoreDocs)
        out.add(StoredRecords.load(searchers.get(sd.shardIndex), sd.doc));
      return out;
    } catch (IOException e) {
      throw Partitions.readFailed(e);
    } finally {
      for (int i = 0; i < searchers.size(); i++) Partitions.release(parts.get(i), searchers.get(i));
      for (Partition p : parts) partitions.unpin(p);
    }
  }

  /** Every record in every index. */
  long count() {
    return partitions.acrossAll((p, s) -> (long) s.getIndexReader().numDocs()).stream()
        .mapToLong(Long::longValue)
        .sum();
  }
}

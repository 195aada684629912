package dev.mnemo.store.solr;

import dev.mnemo.Category;
import dev.mnemo.spi.Eligibility;
import java.util.StringJoiner;
import org.apache.solr.client.solrj.SolrQuery;

/**
 * Eligibility as Solr filter queries ({@code fq}): every rule of {@link Eligibility#admits}, the
 * same clauses as the embedded store's Lucene filter. Used as the main query's filters they
 * constrain BM25, and the {@code knn} parser takes a main query's {@code fq} as its pre-filter, so
 * they constrain the HNSW search too: nothing is post-filtered from a top-k.
 *
 * <p>Values are never spliced into query syntax: each goes into its own request parameter and is
 * referenced from a {@code {!term}} query, so an owner or metadata value can hold any character.
 */
final class SolrFilters {
  private SolrFilters() {}

  /**
   * Adds the filters of {@code e} within {@code tenant} to {@code q}, and the owner's route when
   * there is an owner.
   */
  static void apply(SolrQuery q, String tenant, Eligibility e) {
    String[] before = q.getFilterQueries();
    int kept = before == null ? 0 : before.length;
    Params p = new Params(q, "el");
    q.addFilterQuery(p.term(SolrSchema.TENANT, tenant));
    if (e.owner() != null) {
      q.addFilterQuery(p.term(SolrSchema.OWNER, e.owner()));
      q.set("_route_", SolrSchema.route(tenant, e.owner()));
    }
    if (e.scope() != null) {
      q.addFilterQuery(
          "{!bool should="
              + p.ref(p.term(SolrSchema.SCOPE, e.scope()))
              + " should="
              + p.ref(p.term(SolrSchema.SCOPE, SolrSchema.NO_SCOPE))
              + "}");
    }
    if (!e.categories().isEmpty()) {
      StringJoiner cats = new StringJoiner(" OR ", SolrSchema.CATEGORY + ":(", ")");
      for (Category c : e.categories()) cats.add(c.code());
      q.addFilterQuery(cats.toString());
    }
    for (var m : e.metadata().entrySet()) {
      q.addFilterQuery(p.term(SolrSchema.META, SolrSchema.metaTerm(m.getKey(), m.getValue())));
    }
    if (e.principals() != null) {
      // No labels (every document, less those holding the RESTRICTED term), or one of the caller's
      // principals among them.
      String unlabelled =
          "{!bool filter="
              + p.ref("*:*")
              + " must_not="
              + p.ref(p.term(SolrSchema.ACCESS, SolrSchema.RESTRICTED))
              + "}";
      StringBuilder access = new StringBuilder("{!bool should=").append(p.ref(unlabelled));
      for (String principal : new java.util.TreeSet<>(e.principals())) {
        access.append(" should=").append(p.ref(p.term(SolrSchema.ACCESS, principal)));
      }
      q.addFilterQuery(access.append('}').toString());
    }
    // Time filters change with every request's instant: caching them would only evict the owner
    // and scope filters, which repeat.
    if (e.validAt() != null) {
      long t = e.validAt().toEpochMilli();
      q.addFilterQuery(uncached(SolrSchema.VALID_FROM, Long.MIN_VALUE, t));
      q.addFilterQuery(uncached(SolrSchema.VALID_TO, t + 1, Long.MAX_VALUE));
    }
    if (e.knownAt() != null) {
      long t = e.knownAt().toEpochMilli();
      q.addFilterQuery(uncached(SolrSchema.RECORDED, Long.MIN_VALUE, t));
      q.addFilterQuery(uncached(SolrSchema.EXPIRED, t + 1, Long.MAX_VALUE));
    }
    if (e.validOverlap() != null) {
      q.addFilterQuery(
          uncached(
              SolrSchema.VALID_FROM, Long.MIN_VALUE, e.validOverlap().to().toEpochMilli() - 1));
      q.addFilterQuery(
          uncached(
              SolrSchema.VALID_TO, e.validOverlap().from().toEpochMilli() + 1, Long.MAX_VALUE));
    }
    String[] all = q.getFilterQueries();
    for (int i = kept; i < all.length; i++) all[i] = tagged(all[i]);
    q.setFilterQueries(all);
  }

  /**
   * The tag every eligibility filter carries, so that a facet can count over the whole index
   * ({@code {!ex=el}}) in the same request, as the BM25 scale's document frequencies need.
   */
  static final String TAG = "el";

  /** {@code fq} with the local parameter {@code tag=el} (a plain query gets {@code {!lucene}}). */
  static String tagged(String fq) {
    if (!fq.startsWith("{!")) return "{!lucene tag=" + TAG + "}" + fq;
    int end = 2;
    while (end < fq.length() && fq.charAt(end) != ' ' && fq.charAt(end) != '}') end++;
    return fq.substring(0, end) + " tag=" + TAG + fq.substring(end);
  }

  /** {@code field:"value"}, a term query on a string field, with quotes and backslashes escaped. */
  static String quoted(String field, String value) {
    return field + ":\"" + value.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
  }

  static String range(String field, long from, long to) {
    return field + ":[" + from + " TO " + to + "]";
  }

  private static String uncached(String field, long from, long to) {
    return "{!lucene cache=false}" + range(field, from, to);
  }

  /** Request parameters holding literal values, referenced by name from query strings. */
  static final class Params {
    private final SolrQuery q;
    private final String prefix;
    private int next;

    Params(SolrQuery q, String prefix) {
      this.q = q;
      this.prefix = prefix;
    }

    /** A parameter holding {@code value}; returns its name. */
    String put(String value) {
      String name = prefix + (next++);
      q.set(name, value);
      return name;
    }

    /** {@code $name} of a parameter holding {@code value}. */
    String ref(String value) {
      return "$" + put(value);
    }

    /** A term query on {@code field} for the literal {@code value}. */
    String term(String field, String value) {
      return "{!term f=" + field + " v=" + ref(value) + "}";
    }
  }
}

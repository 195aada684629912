package dev.mnemo.store.solr;

/**
 * A local SolrCloud for trying {@code mnemo serve --store solr} and for benchmarks: starts N nodes
 * with embedded ZooKeeper, prints the ZooKeeper address and runs until stdin closes. Not a test;
 * run with this module's test class path: {@code java -cp ... dev.mnemo.store.solr.SolrDevCluster
 * 2}.
 */
public final class SolrDevCluster {
  private SolrDevCluster() {}

  public static void main(String[] args) throws Exception {
    int nodes = args.length > 0 ? Integer.parseInt(args[0]) : 2;
    try (TestCluster c = TestCluster.start(nodes)) {
      System.out.println("zk " + c.zk());
      System.out.flush();
      while (System.in.read() >= 0) {
        // until stdin closes
      }
    }
  }
}

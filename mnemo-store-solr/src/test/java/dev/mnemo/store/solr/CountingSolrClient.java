package dev.mnemo.store.solr;

import java.io.IOException;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.solr.client.solrj.SolrClient;
import org.apache.solr.client.solrj.SolrRequest;
import org.apache.solr.client.solrj.SolrServerException;
import org.apache.solr.common.util.NamedList;

/**
 * A SolrJ client that counts every request (each one HTTP request to a node) before handing it to
 * the real client: how {@code RequestCountIT} and {@code SolrReadPathBench} count a store call's
 * requests.
 */
final class CountingSolrClient extends SolrClient {
  private static final long serialVersionUID = 1L;
  private final transient SolrClient delegate;
  final AtomicInteger requests = new AtomicInteger();

  CountingSolrClient(SolrClient delegate) {
    this.delegate = delegate;
  }

  @Override
  public NamedList<Object> request(SolrRequest<?> request, String collection)
      throws SolrServerException, IOException {
    requests.incrementAndGet();
    return delegate.request(request, collection);
  }

  @Override
  public void close() throws IOException {
    delegate.close();
  }
}

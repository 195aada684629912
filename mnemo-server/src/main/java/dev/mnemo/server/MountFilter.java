package dev.mnemo.server;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/**
 * Stands in front of a servlet mounted with {@link MnemoServer.Builder#mount}: the same Bearer-key
 * authentication as the REST API (tenant keys only), the tenant and its memory as request
 * attributes, a request id, metrics and the access log. Errors are problem+json from {@link
 * Problems}, like everywhere else.
 */
final class MountFilter extends HttpFilter {
  private static final long serialVersionUID = 1L;
  private final transient MnemoServer server;
  private final String path;

  MountFilter(MnemoServer server, String path) {
    this.server = server;
    this.path = path;
  }

  /**
   * The caller's principals from the {@value MnemoServer#PRINCIPALS_HEADER} header: labels
   * separated by commas ({@code team:payments, role:cfo}); none without the header. A malformed
   * label is a 422 naming the header.
   */
  static java.util.Set<String> principals(String header) {
    if (header == null || header.isBlank()) return java.util.Set.of();
    java.util.List<String> labels =
        java.util.Arrays.stream(header.split(",")).map(String::strip).toList();
    java.util.List<dev.mnemo.InvalidRequestException.Violation> v = new java.util.ArrayList<>();
    dev.mnemo.Access.check(
        MnemoServer.PRINCIPALS_HEADER, labels, dev.mnemo.Access.MAX_PRINCIPALS, v);
    if (!v.isEmpty()) throw new dev.mnemo.InvalidRequestException(v);
    return java.util.Set.copyOf(labels);
  }

  @Override
  protected void doFilter(HttpServletRequest req, HttpServletResponse res, FilterChain chain)
      throws IOException, ServletException {
    long t0 = System.nanoTime();
    String requestId = MnemoServer.requestId(req.getHeader("X-Request-Id"));
    req.setAttribute(MnemoServer.REQUEST_ID_ATTRIBUTE, requestId);
    res.setHeader("X-Request-Id", requestId);
    KeyStore.Principal p = null;
    try {
      p = server.authenticate(req.getHeader("Authorization"), req.getRemoteAddr());
      if (p.admin()) {
        throw ProblemException.forbidden(
            "the admin key manages keys; " + path + " needs a tenant key");
      }
      req.setAttribute(MnemoServer.PRINCIPAL_ATTRIBUTE, p);
      req.setAttribute(MnemoServer.TENANT_ATTRIBUTE, p.tenant());
      req.setAttribute(MnemoServer.KEY_ID_ATTRIBUTE, p.keyId());
      // Each call holds its own lease (the servlet may answer asynchronously, after this filter
      // returns).
      req.setAttribute(MnemoServer.MEMORY_ATTRIBUTE, server.memory(p.tenant()));
      req.setAttribute(
          MnemoServer.PRINCIPALS_ATTRIBUTE,
          principals(req.getHeader(MnemoServer.PRINCIPALS_HEADER)));
      TenantMemory.REQUEST_ID.set(requestId);
      chain.doFilter(req, res);
    } catch (RuntimeException e) {
      if (res.isCommitted()) throw e;
      Problems.write(res, Problems.of(e, req.getRequestURI(), requestId));
    } finally {
      TenantMemory.REQUEST_ID.remove();
      long nanos = System.nanoTime() - t0;
      server.countMounted(req.getMethod(), path + "/*", res.getStatus(), nanos);
      if (server.logRequests()) {
        MnemoServer.access(
            requestId,
            req.getMethod(),
            req.getRequestURI(),
            path + "/*",
            res.getStatus(),
            nanos / 1e6,
            p);
      }
    }
  }
}

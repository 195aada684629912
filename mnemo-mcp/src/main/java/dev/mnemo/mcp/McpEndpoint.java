package dev.mnemo.mcp;

import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.transport.HttpServletStreamableServerTransportProvider;
import jakarta.servlet.ServletConfig;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;

/**
 * The MCP server over streamable HTTP, as a jakarta servlet (Servlet 6) for a server that already
 * authenticates its callers.
 *
 * <p>Contract for the server that mounts it:
 *
 * <ul>
 *   <li>Map the servlet at {@value #PATH} (the SDK answers only request paths that end in
 *       {@value #PATH}) with async support on: the servlet holder and every filter in front of it
 *       must be {@code asyncSupported}, because responses stream as server-sent events.
 *   <li>Authenticate every request (GET, POST and DELETE) before it reaches the servlet, and put the
 *       caller's tenant id, a non-blank {@code String}, in the request attribute
 *       {@value #TENANT_ATTRIBUTE}. A request without it is refused with 401 and touches nothing.
 *   <li>The tenant is read from each request, not from the MCP session: every tool call runs with the
 *       access that {@link MemoryAccessResolver#forTenant} gives for the tenant of the HTTP request
 *       that carried it.
 *   <li>{@link HttpServlet#destroy()} closes the MCP sessions; it never closes an engine.
 * </ul>
 *
 * <p>Request bodies are limited to 1 MiB (a memory's text is at most a few KB).
 */
public final class McpEndpoint {

  /** The request attribute holding the authenticated tenant id (a {@code String}). */
  public static final String TENANT_ATTRIBUTE = "mnemo.tenant";

  /** The path the servlet is mapped at. */
  public static final String PATH = "/mcp";

  private static final int MAX_REQUEST_BYTES = 1 << 20;
  private static final Duration GRACE = Duration.ofSeconds(5);

  private McpEndpoint() {}

  /** A new servlet serving the memory tools; each tool call gets its access from {@code resolver}. */
  public static HttpServlet servlet(MemoryAccessResolver resolver) {
    Objects.requireNonNull(resolver, "resolver");
    HttpServletStreamableServerTransportProvider transport = HttpServletStreamableServerTransportProvider.builder()
        .mcpEndpoint(PATH)
        .maxRequestSize(MAX_REQUEST_BYTES)
        // Only reached through TenantGuard, so the attribute is present.
        .contextExtractor(req -> McpTransportContext.create(Map.of(TENANT_ATTRIBUTE, tenant(req))))
        .build();
    MemoryTools.Served served = MemoryTools.serve(McpServer.sync(transport), new ToolCatalog(null), ctx -> {
      if (!(ctx.get(TENANT_ATTRIBUTE) instanceof String tenant)) {
        throw new MemoryTools.NoAccess("no tenant in the transport context");
      }
      return resolver.forTenant(tenant);
    });
    return new TenantGuard(transport, served);
  }

  private static String tenant(HttpServletRequest req) {
    return req.getAttribute(TENANT_ATTRIBUTE) instanceof String s && !s.isBlank() ? s : null;
  }

  /**
   * Refuses requests that the mounting server did not authenticate, then hands the rest to the SDK's
   * servlet: failing closed if a route is ever mounted without the auth filter.
   */
  private static final class TenantGuard extends HttpServlet {
    private final transient HttpServletStreamableServerTransportProvider transport;
    private final transient MemoryTools.Served served;

    TenantGuard(HttpServletStreamableServerTransportProvider transport, MemoryTools.Served served) {
      this.transport = transport;
      this.served = served;
    }

    @Override
    public void init(ServletConfig config) throws ServletException {
      super.init(config);
      transport.init(config);
    }

    @Override
    protected void service(HttpServletRequest req, HttpServletResponse resp) throws ServletException, IOException {
      if (tenant(req) == null) {
        resp.setStatus(HttpServletResponse.SC_UNAUTHORIZED);
        resp.setHeader("WWW-Authenticate", "Bearer");
        resp.setContentType("application/problem+json");
        resp.setCharacterEncoding(StandardCharsets.UTF_8.name());
        resp.getWriter().write("{\"type\":\"about:blank\",\"title\":\"Unauthorized\",\"status\":401,"
            + "\"detail\":\"MCP needs an authenticated caller: send Authorization: Bearer KEY\"}");
        return;
      }
      transport.service(req, resp);
    }

    @Override
    public void destroy() {
      served.close(GRACE);
      super.destroy();
    }
  }
}

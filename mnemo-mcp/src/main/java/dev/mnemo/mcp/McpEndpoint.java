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
import java.util.Set;

/**
 * The MCP server over streamable HTTP, as a jakarta servlet (Servlet 6) for a server that already
 * authenticates its callers.
 *
 * <p>Contract for the server that mounts it:
 *
 * <ul>
 *   <li>Map the servlet at {@value #PATH} (the SDK answers only request paths that end in {@value
 *       #PATH}) with async support on: the servlet holder and every filter in front of it must be
 *       {@code asyncSupported}, because responses stream as server-sent events.
 *   <li>Authenticate every request (GET, POST and DELETE) before it reaches the servlet, and put
 *       the caller's tenant id, a non-blank {@code String}, in the request attribute {@value
 *       #TENANT_ATTRIBUTE}. A request without it is refused with 401 and touches nothing.
 *   <li>The tenant is read from each request, not from the MCP session: every tool call runs with
 *       the access that {@link MemoryAccessResolver#forTenant} gives for the tenant of the HTTP
 *       request that carried it.
 *   <li>{@link HttpServlet#destroy()} closes the MCP sessions; it never closes an engine.
 * </ul>
 *
 * <p>Request bodies are limited to 1 MiB (a memory's text is at most a few KB).
 */
public final class McpEndpoint {

  /** The request attribute holding the authenticated tenant id (a {@code String}). */
  public static final String TENANT_ATTRIBUTE = "mnemo.tenant";

  /**
   * The optional request attribute holding the caller's principals (a {@code Set<String>}, {@code
   * team:..}, {@code role:..}, {@code person:..}) that every recall of the request runs with, over
   * the access's own; the mounting server puts them there from what authenticated the request
   * (Mnemo's server: the {@code Mnemo-Principals} header the tenant's application sends).
   */
  public static final String PRINCIPALS_ATTRIBUTE = "mnemo.principals";

  /** The path the servlet is mapped at. */
  public static final String PATH = "/mcp";

  private static final int MAX_REQUEST_BYTES = 1 << 20;
  private static final Duration GRACE = Duration.ofSeconds(5);

  private McpEndpoint() {}

  /**
   * A new servlet serving the memory tools; each tool call gets its access from {@code resolver}.
   */
  public static HttpServlet servlet(MemoryAccessResolver resolver) {
    Objects.requireNonNull(resolver, "resolver");
    HttpServletStreamableServerTransportProvider transport =
        HttpServletStreamableServerTransportProvider.builder()
            .mcpEndpoint(PATH)
            .maxRequestSize(MAX_REQUEST_BYTES)
            // Only reached through TenantGuard, so the attribute is present.
            .contextExtractor(
                req ->
                    McpTransportContext.create(
                        Map.of(
                            TENANT_ATTRIBUTE, tenant(req), PRINCIPALS_ATTRIBUTE, principals(req))))
            .build();
    MemoryTools.Served served =
        MemoryTools.serve(
            McpServer.sync(transport),
            new ToolCatalog(null),
            ctx -> {
              if (!(ctx.get(TENANT_ATTRIBUTE) instanceof String tenant)) {
                throw new MemoryTools.NoAccess("no tenant in the transport context");
              }
              MemoryAccess access = resolver.forTenant(tenant);
              return access == null
                      || !(ctx.get(PRINCIPALS_ATTRIBUTE) instanceof Set<?> p)
                      || p.isEmpty()
                  ? access
                  : access.withPrincipals(
                      p.stream()
                          .map(String.class::cast)
                          .collect(java.util.stream.Collectors.toSet()));
            });
    return new TenantGuard(transport, served);
  }

  /**
   * The optional request attribute naming the authenticated key (a {@code String} id, never the
   * secret): when present, an MCP session is bound to the key that opened it, else to its tenant.
   */
  public static final String KEY_ID_ATTRIBUTE = "mnemo.key_id";

  private static final String SESSION_HEADER = "Mcp-Session-Id";

  /**
   * Sessions tracked for their owner at most; beyond, new sessions are refused by the SDK's own
   * limit or ours.
   */
  private static final int MAX_SESSIONS = 100_000;

  /** An RFC 9457 problem, the shape every error of the server has. */
  static void problem(
      HttpServletResponse resp, int status, String type, String title, String detail)
      throws IOException {
    resp.setStatus(status);
    resp.setContentType("application/problem+json");
    resp.setCharacterEncoding(StandardCharsets.UTF_8.name());
    var o = dev.mnemo.json.JsonCodec.object();
    o.put("type", "urn:mnemo:problem:" + type)
        .put("title", title)
        .put("status", status)
        .put("detail", detail);
    resp.getOutputStream().write(dev.mnemo.json.JsonCodec.WRITER.writeValueAsBytes(o));
  }

  private static String printable(String s) {
    String t = s.length() > 64 ? s.substring(0, 64) + "..." : s;
    return t.replaceAll("[^\\x20-\\x7E]", "?");
  }

  private static Set<String> principals(HttpServletRequest req) {
    if (!(req.getAttribute(PRINCIPALS_ATTRIBUTE) instanceof Set<?> set)) return Set.of();
    return set.stream()
        .filter(String.class::isInstance)
        .map(String.class::cast)
        .collect(java.util.stream.Collectors.toUnmodifiableSet());
  }

  private static String tenant(HttpServletRequest req) {
    return req.getAttribute(TENANT_ATTRIBUTE) instanceof String s && !s.isBlank() ? s : null;
  }

  /**
   * Refuses requests that the mounting server did not authenticate, then hands the rest to the
   * SDK's servlet: failing closed if a route is ever mounted without the auth filter.
   */
  private static final class TenantGuard extends HttpServlet {
    private static final long serialVersionUID = 1L;
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
    protected void service(HttpServletRequest req, HttpServletResponse resp)
        throws ServletException, IOException {
      String tenant = tenant(req);
      if (tenant == null) {
        resp.setHeader("WWW-Authenticate", "Bearer");
        problem(
            resp,
            401,
            "unauthorized",
            "Unauthorized",
            "MCP needs an authenticated caller: send Authorization: Bearer KEY");
        return;
      }
      // A session belongs to the key that opened it: another key (even of the same tenant) gets
      // the answer an unknown session gets, so it can neither read its stream nor end it.
      String caller =
          tenant + "\u0000" + (req.getAttribute(KEY_ID_ATTRIBUTE) instanceof String k ? k : "");
      String session = req.getHeader(SESSION_HEADER);
      if (session != null) {
        String bound = sessions.get(session);
        if (bound == null || !bound.equals(caller)) {
          problem(
              resp,
              404,
              "not-found",
              "Not found",
              "no MCP session '" + printable(session) + "' for this key; initialize a new one");
          return;
        }
      }
      if (!"POST".equals(req.getMethod())
          && !"GET".equals(req.getMethod())
          && !"DELETE".equals(req.getMethod())) {
        resp.setHeader("Allow", "GET, POST, DELETE");
        problem(
            resp,
            405,
            "method-not-allowed",
            "Method not allowed",
            "MCP takes GET, POST and DELETE");
        return;
      }
      HttpServletRequest forward = req;
      if ("POST".equals(req.getMethod())) {
        byte[] body = req.getInputStream().readNBytes(MAX_REQUEST_BYTES + 1);
        if (body.length > MAX_REQUEST_BYTES) {
          problem(
              resp,
              413,
              "too-large",
              "Content too large",
              "an MCP message may hold at most " + MAX_REQUEST_BYTES + " bytes");
          return;
        }
        McpMessages.Refusal refusal = McpMessages.check(body);
        if (refusal != null) {
          resp.setStatus(HttpServletResponse.SC_BAD_REQUEST);
          resp.setContentType("application/json");
          resp.setCharacterEncoding(StandardCharsets.UTF_8.name());
          resp.getOutputStream().write(refusal.body());
          return;
        }
        forward = new Replayed(req, body);
      }
      // A new session is bound to its caller when the SDK sets its header, before the response
      // can reach the client: binding it after service() returned let the client's next request
      // (sent as soon as it read the header) find no session under load.
      transport.service(forward, session == null ? new SessionBinder(resp, caller) : resp);
      if (session != null && "DELETE".equals(req.getMethod())) sessions.remove(session);
    }

    /** Binds the session the SDK creates to the caller the moment its header is set. */
    private final class SessionBinder extends jakarta.servlet.http.HttpServletResponseWrapper {
      private final String caller;

      SessionBinder(HttpServletResponse resp, String caller) {
        super(resp);
        this.caller = caller;
      }

      private void bind(String name, String value) {
        if (SESSION_HEADER.equalsIgnoreCase(name)
            && value != null
            && sessions.size() < MAX_SESSIONS) {
          sessions.put(value, caller);
        }
      }

      @Override
      public void setHeader(String name, String value) {
        bind(name, value);
        super.setHeader(name, value);
      }

      @Override
      public void addHeader(String name, String value) {
        bind(name, value);
        super.addHeader(name, value);
      }
    }

    /**
     * A request whose body was read once for {@link McpMessages#check} and is served again to the
     * SDK.
     */
    private static final class Replayed extends jakarta.servlet.http.HttpServletRequestWrapper {
      private final byte[] body;

      Replayed(HttpServletRequest req, byte[] body) {
        super(req);
        this.body = body;
      }

      @Override
      public jakarta.servlet.ServletInputStream getInputStream() {
        java.io.ByteArrayInputStream in = new java.io.ByteArrayInputStream(body);
        return new jakarta.servlet.ServletInputStream() {
          @Override
          public boolean isFinished() {
            return in.available() == 0;
          }

          @Override
          public boolean isReady() {
            return true;
          }

          @Override
          public void setReadListener(jakarta.servlet.ReadListener l) {
            throw new UnsupportedOperationException("the MCP body is read synchronously");
          }

          @Override
          public int read() {
            return in.read();
          }

          @Override
          public int read(byte[] b, int off, int len) {
            return in.read(b, off, len);
          }
        };
      }

      @Override
      public java.io.BufferedReader getReader() {
        return new java.io.BufferedReader(
            new java.io.InputStreamReader(getInputStream(), StandardCharsets.UTF_8));
      }

      @Override
      public int getContentLength() {
        return body.length;
      }

      @Override
      public long getContentLengthLong() {
        return body.length;
      }
    }

    /** MCP sessions by id, and the caller (tenant and key id) that opened each. */
    private final transient java.util.concurrent.ConcurrentHashMap<String, String> sessions =
        new java.util.concurrent.ConcurrentHashMap<>();

    @Override
    public void destroy() {
      served.close(GRACE);
      super.destroy();
    }
  }
}

package dev.mnemo.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mnemo.Mnemo;
import dev.mnemo.NewMemory;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A servlet mounted beside the REST API (as the MCP transport will be) gets the same auth and the
 * tenant.
 */
class MountIT {
  @TempDir Path dir;

  static final class EchoTenant extends HttpServlet {
    private static final long serialVersionUID = 1L;

    @Override
    protected void service(HttpServletRequest req, HttpServletResponse res) throws IOException {
      Mnemo memory = MnemoServer.memoryOf(req);
      String id =
          memory
              .remember(
                  NewMemory.builder("alice", "written through " + req.getRequestURI()).build())
              .id();
      res.setContentType("text/plain");
      res.getWriter()
          .write(
              MnemoServer.tenantOf(req)
                  + " "
                  + id
                  + " "
                  + req.getAttribute(MnemoServer.REQUEST_ID_ATTRIBUTE));
    }
  }

  @Test
  void mountedServlet_isAuthenticated_andSeesItsTenantAndMemory() {
    try (TestServer s = new TestServer(dir, c -> c, b -> b.mount("/mcp", new EchoTenant()))) {
      String acme = s.key("acme");
      String beta = s.key("beta");
      TestServer.Response r = s.send("POST", "/mcp", acme, "{}");
      assertThat(r.status()).as(r.toString()).isEqualTo(200);
      assertThat(r.body()).startsWith("acme ");
      assertThat(s.send("GET", "/mcp/sub/path", beta, null).body()).startsWith("beta ");
      assertThat(s.send("GET", "/v1/owners/alice/export", acme, null).body())
          .contains("written through /mcp");
      assertThat(s.send("GET", "/v1/owners/alice/export", beta, null).body())
          .contains("/mcp/sub/path")
          .doesNotContain("through /mcp\"");
      TestServer.Response none = s.send("POST", "/mcp", null, "{}");
      assertThat(none.status()).isEqualTo(401);
      assertThat(none.contentType()).startsWith("application/problem+json");
      assertThat(s.send("POST", "/mcp", TestServer.ADMIN, "{}").status()).isEqualTo(403);
      assertThat(s.send("GET", "/metrics", TestServer.ADMIN, null).body())
          .contains("route=\"/mcp/*\"");
    }
  }

  @Test
  void mountPaths_mayNotShadowTheServersOwn() {
    MnemoServer.Builder b = MnemoServer.builder(ServerConfig.defaults(), TestServer::engine);
    assertThatThrownBy(() -> b.mount("/v1/mcp", new EchoTenant())).hasMessageContaining("/v1");
    assertThatThrownBy(() -> b.mount("mcp", new EchoTenant())).hasMessageContaining("path");
  }
}

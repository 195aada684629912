package dev.mnemo.server;

import io.javalin.http.Context;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Map;

/**
 * The inspector web UI: three static files (HTML, CSS, vanilla JavaScript) from the server's
 * resources, served without a key. The page holds no data: it asks the user for an API key, keeps
 * it in the tab's {@code sessionStorage} and calls the REST API with it like any other client, so
 * it sees exactly what the key may see.
 *
 * <p>Served from a fixed list rather than Javalin's static-file handler so that no other resource
 * of the jar can be fetched and every response gets the same strict headers: a Content Security
 * Policy that allows only the page's own script and style and calls to its own origin, no framing,
 * no content sniffing, no referrer.
 */
final class Inspector {
  private static final String DIR = "inspector/";
  private static final Map<String, String> ASSETS =
      Map.of(
          "index.html", "text/html; charset=utf-8",
          "inspector.css", "text/css; charset=utf-8",
          "inspector.js", "text/javascript; charset=utf-8");

  private final Map<String, byte[]> bytes;

  Inspector() {
    var m = new java.util.HashMap<String, byte[]>();
    for (String name : ASSETS.keySet()) {
      try (InputStream in = Inspector.class.getResourceAsStream(DIR + name)) {
        if (in == null)
          throw new IllegalStateException(DIR + name + " is missing from the server's resources");
        m.put(name, in.readAllBytes());
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    this.bytes = Map.copyOf(m);
  }

  /** {@code GET /inspector}: the page. */
  void page(Context ctx) {
    send(ctx, "index.html");
  }

  /** {@code GET /inspector/{asset}}: the page's style sheet and script. */
  void asset(Context ctx) {
    String name = ctx.pathParam("asset");
    if (!ASSETS.containsKey(name)) {
      throw ProblemException.notFound(
          "the inspector has no file '" + name + "'; it serves " + ASSETS.keySet());
    }
    send(ctx, name);
  }

  private void send(Context ctx, String name) {
    ctx.header(
        "Content-Security-Policy",
        "default-src 'none'; script-src 'self'; style-src 'self'; "
            + "connect-src 'self'; img-src 'self' data:; form-action 'none'; frame-ancestors 'none'; base-uri 'none'");
    ctx.header("X-Content-Type-Options", "nosniff");
    ctx.header("Referrer-Policy", "no-referrer");
    ctx.header("Cache-Control", "no-cache");
    ctx.contentType(ASSETS.get(name)).result(bytes.get(name));
  }
}

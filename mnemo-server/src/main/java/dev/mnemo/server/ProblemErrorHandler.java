package dev.mnemo.server;

import java.nio.ByteBuffer;
import java.nio.charset.Charset;
import java.util.List;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * Jetty's own refusals (a URI too long: 414, headers too large: 431, an ambiguous or encoded {@code
 * ..}, a NUL or an empty segment in a path: 400, a body over the limit while chunked: 413) as
 * {@code application/problem+json}, the shape of every other error of the server, instead of
 * Jetty's HTML or plain text. Installed on the server (errors while parsing a request) and on the
 * servlet context (errors before a route runs). Never shows a stack trace or a cause.
 */
final class ProblemErrorHandler extends org.eclipse.jetty.server.handler.ErrorHandler {

  ProblemErrorHandler() {
    setShowStacks(false);
    setShowCauses(false);
  }

  /**
   * Every method gets a problem document: Jetty writes an error body only for GET, POST and HEAD,
   * so a DELETE with an invalid path (bad UTF-8 in a segment, an encoded backslash) answered a bare
   * 400.
   */
  @Override
  public boolean errorPageForMethod(String method) {
    return true;
  }

  @Override
  protected void generateResponse(
      Request request,
      Response response,
      int code,
      String message,
      Throwable cause,
      Callback callback) {
    writeProblem(request, response, code, message, callback);
  }

  @Override
  protected boolean generateAcceptableResponse(
      Request request,
      Response response,
      Callback callback,
      String contentType,
      List<Charset> charsets,
      int code,
      String message,
      Throwable cause) {
    writeProblem(request, response, code, message, callback);
    return true;
  }

  static void writeProblem(
      Request request, Response response, int code, String message, Callback callback) {
    Problems.Problem p = Problems.status(code, message, request.getHttpURI().getPath());
    response.getHeaders().put(HttpHeader.CONTENT_TYPE, Problems.CONTENT_TYPE);
    p.headers().forEach((k, v) -> response.getHeaders().put(k, v));
    response.write(true, ByteBuffer.wrap(p.bytes()), callback);
  }

  /** The same, for errors raised inside the servlet context (before a route runs). */
  static final class Servlet extends org.eclipse.jetty.ee10.servlet.ErrorHandler {
    Servlet() {
      setShowStacks(false);
      setShowCauses(false);
    }

    /** Every method gets a problem document, as in {@link ProblemErrorHandler}. */
    @Override
    public boolean errorPageForMethod(String method) {
      return true;
    }

    @Override
    protected void generateResponse(
        Request request,
        Response response,
        int code,
        String message,
        Throwable cause,
        Callback callback) {
      writeProblem(request, response, code, message, callback);
    }

    @Override
    protected boolean generateAcceptableResponse(
        Request request,
        Response response,
        Callback callback,
        String contentType,
        List<Charset> charsets,
        int code,
        String message,
        Throwable cause) {
      writeProblem(request, response, code, message, callback);
      return true;
    }
  }
}

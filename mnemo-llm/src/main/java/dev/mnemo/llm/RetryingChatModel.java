package dev.mnemo.llm;

import dev.langchain4j.exception.HttpException;
import dev.langchain4j.exception.RetriableException;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import java.io.IOException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.TimeoutException;
import javax.net.ssl.SSLException;

/**
 * A {@link ChatModel} that retries another with exponential back-off, on rate limits (429), server
 * errors (5xx), time-outs and connections dropped before a response only; any other failure (a bad
 * key, a bad request, an unknown model, a refused connection) is raised at once. After the last
 * retry the failure is an {@link LlmException} marked retriable.
 *
 * <p>The providers' own retry loops are switched off ({@link ChatModels} builds them with {@code
 * maxRetries(0)}) so that this one policy, tested with the scripted fake model, applies to every
 * provider. Thread-safe when the delegate is.
 */
public final class RetryingChatModel implements ChatModel {

  /** Waits between attempts; tests pass one that records instead of sleeping. */
  @FunctionalInterface
  public interface Sleeper {
    void sleep(Duration d) throws InterruptedException;
  }

  static final Duration MAX_BACKOFF = Duration.ofSeconds(8);

  private final ChatModel delegate;
  private final int maxRetries;
  private final Duration backoff;
  private final Sleeper sleeper;

  public RetryingChatModel(ChatModel delegate, int maxRetries, Duration backoff, Sleeper sleeper) {
    this.delegate = Objects.requireNonNull(delegate, "delegate");
    if (maxRetries < 0)
      throw new IllegalArgumentException("maxRetries must be >= 0, was " + maxRetries);
    this.maxRetries = maxRetries;
    this.backoff = Objects.requireNonNull(backoff, "backoff");
    this.sleeper = Objects.requireNonNull(sleeper, "sleeper");
  }

  public RetryingChatModel(ChatModel delegate, int maxRetries, Duration backoff) {
    this(delegate, maxRetries, backoff, d -> Thread.sleep(d.toMillis()));
  }

  @Override
  public ChatResponse doChat(ChatRequest request) {
    for (int attempt = 0; ; attempt++) {
      try {
        return delegate.chat(request);
      } catch (RuntimeException e) {
        boolean retriable = isRetriable(e);
        if (!retriable || attempt >= maxRetries) {
          String what =
              retriable
                  ? "still failing after " + (attempt + 1) + " attempts"
                  : "failed (not retried)";
          throw new LlmException("language model call " + what + ": " + describe(e), retriable, e);
        }
        try {
          sleeper.sleep(backoffBefore(attempt + 1));
        } catch (InterruptedException ie) {
          Thread.currentThread().interrupt();
          throw new LlmException("interrupted while waiting to retry the language model", true, e);
        }
      }
    }
  }

  /** The wait before retry {@code n} (1-based): backoff, 2 backoff, 4 backoff, ..., at most 8 s. */
  Duration backoffBefore(int n) {
    long ms = backoff.toMillis() << Math.min(n - 1, 20);
    return Duration.ofMillis(Math.min(ms, MAX_BACKOFF.toMillis()));
  }

  /**
   * Rate limits, 5xx, time-outs and dropped connections, wherever in the cause chain LangChain4j or
   * the HTTP client put them.
   */
  static boolean isRetriable(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof RetriableException) return true;
      if (t instanceof HttpException h) return h.statusCode() == 429 || h.statusCode() >= 500;
      if (t instanceof HttpTimeoutException
          || t instanceof SocketTimeoutException
          || t instanceof TimeoutException) {
        return true;
      }
      if (t instanceof IOException io) return droppedConnection(io);
    }
    return false;
  }

  /**
   * A connection that broke before a response (reset, closed by the server while the client reused
   * it: "header parser received no bytes", EOF) is retried like a time-out: nothing was answered. A
   * connection that could not be made (refused, unknown host, no route) or a TLS failure is not:
   * the endpoint or its configuration is wrong, and waiting will not fix it.
   */
  static boolean droppedConnection(IOException e) {
    return !(e instanceof ConnectException
        || e instanceof UnknownHostException
        || e instanceof NoRouteToHostException
        || e instanceof SSLException);
  }

  private static String describe(Throwable e) {
    String m = e.getMessage();
    return e.getClass().getSimpleName()
        + (m == null ? "" : ": " + (m.length() > 300 ? m.substring(0, 300) + "..." : m));
  }
}

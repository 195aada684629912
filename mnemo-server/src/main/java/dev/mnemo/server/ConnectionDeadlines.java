package dev.mnemo.server;

import java.time.Duration;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.eclipse.jetty.http.HttpParser;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.internal.HttpConnection;
import org.eclipse.jetty.util.component.AbstractLifeCycle;
import org.eclipse.jetty.util.thread.Scheduler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Two deadlines of a connection that Jetty 12 does not keep: its request line and headers must all
 * arrive within {@code limits.read_timeout_ms} of the request's first byte, and a new request must
 * start within {@code limits.idle_timeout_ms} of the previous answer (or of the connection's
 * opening). So a client trickling headers a byte a second is cut off, and so is one sending only
 * blank lines, not only one that falls silent.
 *
 * <p>Written here because Jetty's idle timeout counts from the last byte (each trickled byte, each
 * blank line resets it; blank lines before a request line leave its parser at its start), and its
 * header-size limit (8 KB) allows hours at a byte a second. A sweep on Jetty's scheduler looks at
 * each HTTP/1 connection's parser every quarter of the shorter timeout (at most every second): a
 * connection seen in the middle of the same request's headers for the whole read timeout, or
 * between the same two requests (its parser at its start, every request answered) for the whole
 * idle timeout, is closed. The body has its own deadline (the bounded reader of {@link Api}). The
 * connectors' own idle timeout (a silent connection) is set to the idle timeout too. Runs as a bean
 * of the Jetty server, started and stopped with it.
 */
final class ConnectionDeadlines extends AbstractLifeCycle {
  private static final Logger LOG = LoggerFactory.getLogger(ConnectionDeadlines.class);

  /**
   * When a connection was first seen in one state (reading headers, or between requests) with
   * {@code messages} requests begun.
   */
  private record Seen(long messages, long sinceNanos) {}

  private final Server server;
  private final long timeoutNanos;
  private final long idleNanos;
  private final long periodMillis;
  private final Map<EndPoint, Seen> reading = new ConcurrentHashMap<>();
  private final Map<EndPoint, Seen> between = new ConcurrentHashMap<>();
  private volatile Scheduler.Task task;

  ConnectionDeadlines(Server server, Duration readTimeout, Duration idleTimeout) {
    this.server = server;
    this.timeoutNanos = readTimeout.toNanos();
    this.idleNanos = idleTimeout.toNanos();
    this.periodMillis =
        Math.max(20, Math.min(1_000, Math.min(readTimeout.toMillis(), idleTimeout.toMillis()) / 4));
  }

  @Override
  protected void doStart() {
    for (Connector c : server.getConnectors()) {
      if (c instanceof org.eclipse.jetty.server.AbstractConnector a) {
        a.setIdleTimeout(TimeUnit.NANOSECONDS.toMillis(idleNanos));
      }
    }
    schedule();
  }

  @Override
  protected void doStop() {
    Scheduler.Task t = task;
    if (t != null) t.cancel();
    reading.clear();
    between.clear();
  }

  private void schedule() {
    if (isRunning() || isStarting())
      task =
          server
              .getScheduler()
              .schedule(this::sweepAndReschedule, periodMillis, TimeUnit.MILLISECONDS);
  }

  private void sweepAndReschedule() {
    try {
      sweep(System.nanoTime());
    } catch (RuntimeException e) {
      LOG.warn("connection deadline sweep failed: {}", e.toString());
    } finally {
      schedule();
    }
  }

  /** One look at every connection; closes those past the deadline. */
  void sweep(long now) {
    Set<EndPoint> live = new HashSet<>();
    Set<EndPoint> idle = new HashSet<>();
    for (Connector connector : server.getConnectors()) {
      for (EndPoint ep : connector.getConnectedEndPoints()) {
        if (!(ep.getConnection() instanceof HttpConnection http)) continue;
        HttpParser parser = http.getParser();
        long messages = http.getMessagesIn();
        if (parser.isStart()) {
          // nothing of a request yet (blank lines at most) and every request answered
          if (messages != http.getMessagesOut()) continue;
          idle.add(ep);
          expire(ep, between, messages, now, idleNanos, "no request", "limits.idle_timeout_ms");
        } else if (parser.inHeaderState()) { // between START and the end of the headers
          live.add(ep);
          expire(
              ep,
              reading,
              messages,
              now,
              timeoutNanos,
              "request headers not received",
              "limits.read_timeout_ms");
        }
      }
    }
    reading.keySet().retainAll(live);
    between.keySet().retainAll(idle);
  }

  /**
   * Closes {@code ep} when {@code seen} has held it in the same state, at the same request count,
   * for {@code nanos}.
   */
  private static void expire(
      EndPoint ep,
      Map<EndPoint, Seen> seen,
      long messages,
      long now,
      long nanos,
      String what,
      String setting) {
    Seen s =
        seen.compute(
            ep, (k, v) -> v != null && v.messages() == messages ? v : new Seen(messages, now));
    if (now - s.sinceNanos() < nanos) return;
    seen.remove(ep);
    String why = what + " within " + TimeUnit.NANOSECONDS.toMillis(nanos) + " ms (" + setting + ")";
    LOG.debug("closing a connection from {}: {}", ep.getRemoteSocketAddress(), why);
    ep.close(new TimeoutException(why));
  }
}

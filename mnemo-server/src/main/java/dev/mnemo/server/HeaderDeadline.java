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
 * Closes a connection whose request line and headers have not all arrived within {@code
 * limits.read_timeout_ms} of its first byte: a client trickling headers a byte a second is cut off,
 * not only one that falls silent for the idle timeout.
 *
 * <p>Written here because Jetty 12 has no such deadline: its idle timeout counts from the last byte
 * (each trickled byte resets it) and its header-size limit (8 KB) allows hours at a byte a second.
 * A sweep on Jetty's scheduler looks at each HTTP/1 connection's parser every quarter of the
 * timeout (at most every second): a connection seen in the middle of the same request's headers for
 * the whole timeout is closed. The body has its own deadline (the bounded reader of {@link Api}).
 * Runs as a bean of the Jetty server, started and stopped with it.
 */
final class HeaderDeadline extends AbstractLifeCycle {
  private static final Logger LOG = LoggerFactory.getLogger(HeaderDeadline.class);

  /** When a connection was first seen reading the headers of its {@code messages}-th request. */
  private record Seen(long messages, long sinceNanos) {}

  private final Server server;
  private final long timeoutNanos;
  private final long periodMillis;
  private final Map<EndPoint, Seen> reading = new ConcurrentHashMap<>();
  private volatile Scheduler.Task task;

  HeaderDeadline(Server server, Duration timeout) {
    this.server = server;
    this.timeoutNanos = timeout.toNanos();
    this.periodMillis = Math.max(20, Math.min(1_000, timeout.toMillis() / 4));
  }

  @Override
  protected void doStart() {
    schedule();
  }

  @Override
  protected void doStop() {
    Scheduler.Task t = task;
    if (t != null) t.cancel();
    reading.clear();
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
      LOG.warn("header deadline sweep failed: {}", e.toString());
    } finally {
      schedule();
    }
  }

  /** One look at every connection; closes those past the deadline. */
  void sweep(long now) {
    Set<EndPoint> live = new HashSet<>();
    for (Connector connector : server.getConnectors()) {
      for (EndPoint ep : connector.getConnectedEndPoints()) {
        if (!(ep.getConnection() instanceof HttpConnection http)) continue;
        HttpParser parser = http.getParser();
        // between START (nothing of a request yet: the idle timeout's case) and the end of the
        // headers
        if (!parser.inHeaderState() || parser.isStart()) continue;
        live.add(ep);
        long messages = http.getMessagesIn();
        Seen seen =
            reading.compute(
                ep, (k, s) -> s != null && s.messages() == messages ? s : new Seen(messages, now));
        if (now - seen.sinceNanos() >= timeoutNanos) {
          reading.remove(ep);
          LOG.debug(
              "closing a connection from {}: its request headers took longer than {} ms",
              ep.getRemoteSocketAddress(),
              TimeUnit.NANOSECONDS.toMillis(timeoutNanos));
          ep.close(
              new TimeoutException(
                  "request headers not received within "
                      + TimeUnit.NANOSECONDS.toMillis(timeoutNanos)
                      + " ms (limits.read_timeout_ms)"));
        }
      }
    }
    reading.keySet().retainAll(live);
  }
}

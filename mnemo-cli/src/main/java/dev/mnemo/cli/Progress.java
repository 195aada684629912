package dev.mnemo.cli;

import java.io.PrintStream;
import java.util.Locale;
import picocli.CommandLine.Option;

/**
 * Progress of a long command (imports, evaluations) on stderr, never on stdout, so that the
 * command's output (and {@code --json}) stays clean for scripts. On a terminal, or with {@code
 * --progress}, a bar redrawn in place ({@code \r}) at most ten times a second with the count, the
 * rate and the time left; otherwise plain lines, one each time another tenth is done, that a log
 * file or CI output can hold.
 *
 * <p>Written by hand: the Java progress-bar libraries (progressbar, JLine's status line) bring a
 * terminal library into the one shaded jar to draw a line of text; one {@code \r} line needs none
 * of it. Not thread-safe: one thread reports.
 */
final class Progress implements AutoCloseable {
  private static final int WIDTH = 30;
  private static final long REDRAW_NANOS = 100_000_000L;

  /** The {@code --progress} option, a picocli mixin. */
  static final class Options {
    @Option(
        names = "--progress",
        description =
            "Draw a progress bar on stderr even when stderr is not a terminal "
                + "(on a terminal it is drawn anyway; otherwise plain progress lines).")
    boolean force;

    /** Progress of {@code total} units of work called {@code label}. */
    Progress start(String label, long total) {
      return new Progress(System.err, label, total, force || stderrIsTerminal());
    }
  }

  private final PrintStream err;
  private final String label;
  private final long total;
  private final boolean bar;
  private final long started = System.nanoTime();
  private long done;
  private long lastDraw;
  private int lastTenth;
  private boolean closed;

  Progress(PrintStream err, String label, long total, boolean bar) {
    this.err = err;
    this.label = label;
    this.total = Math.max(0, total);
    this.bar = bar;
    if (bar) draw();
  }

  /**
   * Whether stderr is a terminal. The {@code ./mnemo} launcher knows ({@code [ -t 2 ]}) and says so
   * in {@code -Dmnemo.stderr.tty}; without it, the JVM's console (whose {@code isTerminal()}, Java
   * 22+, tells whether stdin and stdout are a terminal: a close enough guess for stderr).
   */
  static boolean stderrIsTerminal() {
    String told = System.getProperty("mnemo.stderr.tty");
    if (told != null) return Boolean.parseBoolean(told);
    java.io.Console c = System.console();
    if (c == null) return false;
    try {
      return (Boolean)
          java.io.Console.class.getMethod("isTerminal").invoke(c); // Java 22+; compiled for 21
    } catch (ReflectiveOperationException e) {
      return true; // Java 21: a console exists only on a terminal
    }
  }

  /** Adds {@code n} units done. */
  void advance(long n) {
    set(done + n);
  }

  /** Sets the units done so far. */
  void set(long value) {
    done = Math.min(value, total);
    if (bar) {
      long now = System.nanoTime();
      if (now - lastDraw >= REDRAW_NANOS || done == total) draw();
    } else if (total > 0) {
      int tenth = (int) (done * 10 / total);
      if (tenth > lastTenth) {
        lastTenth = tenth;
        err.println(String.format(Locale.ROOT, "%s: %d/%d (%d%%)", label, done, total, tenth * 10));
      }
    }
  }

  /** Ends the bar's line (the plain form has printed its last line at 100 %). */
  @Override
  public void close() {
    if (closed) return;
    closed = true;
    if (bar) {
      draw();
      err.println();
    }
    err.flush();
  }

  private void draw() {
    lastDraw = System.nanoTime();
    double share = total == 0 ? 1 : (double) done / total;
    int filled = (int) Math.round(share * WIDTH);
    double seconds = (lastDraw - started) / 1e9;
    double rate = seconds > 0 ? done / seconds : 0;
    String eta = rate > 0 && done < total ? " " + clock((total - done) / rate) + " left" : "";
    err.print(
        String.format(
            Locale.ROOT,
            "\r%s [%s%s] %3d%% %d/%d %.1f/s%s\u001b[K",
            label,
            "#".repeat(filled),
            ".".repeat(WIDTH - filled),
            Math.round(share * 100),
            done,
            total,
            rate,
            eta));
    err.flush();
  }

  static String clock(double seconds) {
    long s = Math.round(seconds);
    return s >= 3600
        ? String.format(Locale.ROOT, "%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60)
        : String.format(Locale.ROOT, "%d:%02d", s / 60, s % 60);
  }
}

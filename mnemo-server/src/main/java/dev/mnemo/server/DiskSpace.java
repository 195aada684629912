package dev.mnemo.server;

import dev.mnemo.MnemoException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The free space of the file system that holds the tenants' stores, as a state ({@code ok}, {@code
 * low}, {@code full}) rather than a crash: a write refused for lack of space is answered 507
 * ({@link NoSpaceException}), a tenant whose store failed for lack of space is reopened on the
 * first request that finds space again (not after a back-off), readiness shows the state with the
 * path, and a warning is logged once when free space falls under {@code warnFreeBytes} (and once
 * more when it recovers).
 *
 * <p>{@code minFreeBytes} is the space a failed store needs before it is reopened: below it a
 * reopen would fail again at its first commit. Free space is the file store's usable space (what
 * this process may write, after reserved blocks), read with one {@code statfs} call; {@link #state}
 * reads it at most once per {@link #RECHECK_NANOS} unless asked to look now. Thread-safe.
 */
final class DiskSpace {
  private static final Logger LOG = LoggerFactory.getLogger(DiskSpace.class);

  /** The default {@code minFreeBytes}: 16 MiB, room for a commit of a full batch and its merge. */
  static final long DEFAULT_MIN_FREE_BYTES = 16L << 20;

  /** The default {@code warnFreeBytes}: 1 GiB. */
  static final long DEFAULT_WARN_FREE_BYTES = 1L << 30;

  static final long RECHECK_NANOS = 1_000_000_000L;

  /** Where the free space stands; {@code usable} is -1 when it could not be read. */
  record State(String level, Path path, long usable, long min, long warn) {
    boolean full() {
      return level.equals("full");
    }

    /** A sentence for readiness and logs: "disk full: /data has 1.2 MB free (needs 16.0 MB)". */
    String describe() {
      return switch (level) {
        case "full" ->
            "disk full: "
                + path
                + " has "
                + bytes(usable)
                + " free; writes are refused (507) until "
                + bytes(min)
                + " are free";
        case "low" ->
            "disk space low: "
                + path
                + " has "
                + bytes(usable)
                + " free (warning under "
                + bytes(warn)
                + ")";
        case "unknown" -> "free space of " + path + " could not be read";
        default -> path + " has " + bytes(usable) + " free";
      };
    }
  }

  private final Path path;
  private final long minFreeBytes;
  private final long warnFreeBytes;
  private volatile State last;
  private volatile long lastNanos;

  DiskSpace(Path path, long minFreeBytes, long warnFreeBytes) {
    if (minFreeBytes < 0)
      throw new IllegalArgumentException("minFreeBytes must be >= 0, was " + minFreeBytes);
    if (warnFreeBytes < minFreeBytes)
      throw new IllegalArgumentException(
          "warnFreeBytes must be >= minFreeBytes (" + minFreeBytes + "), was " + warnFreeBytes);
    this.path = path;
    this.minFreeBytes = minFreeBytes;
    this.warnFreeBytes = warnFreeBytes;
  }

  Path path() {
    return path;
  }

  /**
   * Usable bytes on the file system holding {@code dir} (or its nearest existing parent), or -1.
   */
  static long usable(Path dir) {
    for (Path p = dir.toAbsolutePath(); p != null; p = p.getParent()) {
      if (!Files.exists(p)) continue;
      try {
        return Files.getFileStore(p).getUsableSpace();
      } catch (IOException | RuntimeException e) {
        return -1;
      }
    }
    return -1;
  }

  /** The state, read again when {@code now} or when the last reading is older than a second. */
  State state(boolean now) {
    State s = last;
    long t = System.nanoTime();
    if (!now && s != null && t - lastNanos < RECHECK_NANOS) return s;
    long usable = usable(path);
    String level =
        usable < 0
            ? "unknown"
            : usable < minFreeBytes ? "full" : usable < warnFreeBytes ? "low" : "ok";
    State next = new State(level, path, usable, minFreeBytes, warnFreeBytes);
    last = next;
    lastNanos = t;
    if (s == null ? !level.equals("ok") && !level.equals("unknown") : !s.level().equals(level)) {
      if (level.equals("ok")) LOG.info("disk space recovered: {}", next.describe());
      else LOG.warn("{}", next.describe());
    }
    return next;
  }

  /**
   * Whether a failed store may be reopened now: at least {@code minFreeBytes} free (or unknown).
   */
  boolean roomToReopen() {
    State s = state(true);
    return !s.full();
  }

  /**
   * Whether {@code t} (or a cause or suppressed exception of it) says the device has no space left:
   * the messages of Linux and macOS ({@code ENOSPC}, "No space left on device"; {@code EDQUOT},
   * "Disk quota exceeded") and of Windows ("There is not enough space on the disk"). Java has no
   * exception type of its own for a full disk, so the message is all there is to go by.
   */
  static boolean noSpace(Throwable t) {
    return noSpace(t, 0);
  }

  private static boolean noSpace(Throwable t, int depth) {
    if (t == null || depth > 12) return false;
    String m = t.getMessage();
    if (m != null) {
      String l = m.toLowerCase(Locale.ROOT);
      if (l.contains("no space left on device")
          || l.contains("disk quota exceeded")
          || l.contains("not enough space on the disk")) return true;
    }
    for (Throwable s : t.getSuppressed()) if (noSpace(s, depth + 1)) return true;
    return t.getCause() != t && noSpace(t.getCause(), depth + 1);
  }

  static String bytes(long n) {
    if (n < 0) return "an unknown amount";
    if (n < 1024) return n + " B";
    if (n < 1L << 20) return String.format(Locale.ROOT, "%.1f KB", n / 1024.0);
    if (n < 1L << 30) return String.format(Locale.ROOT, "%.1f MB", n / (1024.0 * 1024));
    return String.format(Locale.ROOT, "%.1f GB", n / (1024.0 * 1024 * 1024));
  }

  /**
   * A write, or a store's opening, refused because the disk is full: the server answers 507 with
   * {@code Retry-After} (problem type {@code insufficient-storage}). Retriable: nothing was
   * acknowledged, and the same request succeeds once space is freed.
   */
  static final class NoSpaceException extends MnemoException {
    private static final long serialVersionUID = 1L;
    static final int RETRY_AFTER_SECONDS = 5;

    @SuppressWarnings("serial") // rendered inside the server, never Java-serialized
    final transient State state;

    NoSpaceException(String tenant, State state, Throwable cause) {
      super(
          "the store of tenant '"
              + tenant
              + "' cannot write: "
              + state.describe()
              + "; nothing was written; retry once space is freed",
          true,
          cause);
      this.state = state;
    }
  }
}

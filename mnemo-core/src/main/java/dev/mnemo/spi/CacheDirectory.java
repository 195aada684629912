package dev.mnemo.spi;

import java.nio.file.Path;

/**
 * Where Mnemo keeps what it can rebuild from its inputs but would rather not rebuild in every
 * process: the sentence banks' vectors, the local embedder's optimized model. A command-line call
 * is a new process each time, so these files are what makes its later calls fast; deleting the
 * directory is always safe (the next call writes it again).
 *
 * <p>Resolved on every call, in this order: the system property {@value #PROPERTY}, the environment
 * variable {@code MNEMO_CACHE_DIR}, {@code $XDG_CACHE_HOME/mnemo}, {@code ~/.cache/mnemo}. The
 * property or the variable set to {@code off} (or {@code none}) turns the cache off: {@link #get()}
 * is then null and every user keeps its data in memory only. Stateless.
 */
public final class CacheDirectory {
  /** The system property that names the directory, or turns the cache off. */
  public static final String PROPERTY = "mnemo.cache.dir";

  private CacheDirectory() {}

  /** The cache directory (not necessarily existing yet), or null when off or without a home. */
  public static Path get() {
    String dir = System.getProperty(PROPERTY);
    if (dir == null || dir.isBlank()) dir = System.getenv("MNEMO_CACHE_DIR");
    if (dir != null && !dir.isBlank()) {
      String d = dir.strip();
      return d.equalsIgnoreCase("off") || d.equalsIgnoreCase("none") ? null : Path.of(d);
    }
    String xdg = System.getenv("XDG_CACHE_HOME");
    if (xdg != null && !xdg.isBlank()) return Path.of(xdg, "mnemo");
    String home = System.getProperty("user.home");
    return home == null || home.isBlank() ? null : Path.of(home, ".cache", "mnemo");
  }
}

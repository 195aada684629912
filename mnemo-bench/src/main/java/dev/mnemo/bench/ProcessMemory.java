package dev.mnemo.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * The process's memory at one moment: resident set from {@code /proc/self/status} (Linux; -1
 * elsewhere) split into anonymous memory (Java heap, metaspace, native allocations such as ONNX
 * Runtime) and file-backed pages (Lucene's memory-mapped index files, the page cache the kernel may
 * drop under pressure), plus the Java heap as the JVM sees it.
 *
 * @param rssBytes VmRSS
 * @param peakRssBytes VmHWM, the highest VmRSS so far
 * @param anonBytes RssAnon
 * @param fileBytes RssFile (memory-mapped files)
 * @param heapUsedBytes Java heap in use (live and not yet collected)
 * @param heapCommittedBytes Java heap reserved from the OS
 * @param heapMaxBytes -Xmx
 */
public record ProcessMemory(
    long rssBytes,
    long peakRssBytes,
    long anonBytes,
    long fileBytes,
    long heapUsedBytes,
    long heapCommittedBytes,
    long heapMaxBytes) {

  /** Reads the current values. */
  public static ProcessMemory now() {
    long rss = -1, hwm = -1, anon = -1, file = -1;
    try {
      for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
        if (line.startsWith("VmRSS:")) rss = kb(line);
        else if (line.startsWith("VmHWM:")) hwm = kb(line);
        else if (line.startsWith("RssAnon:")) anon = kb(line);
        else if (line.startsWith("RssFile:")) file = kb(line);
      }
    } catch (IOException | RuntimeException e) {
      // not Linux: leave -1
    }
    Runtime rt = Runtime.getRuntime();
    return new ProcessMemory(
        rss, hwm, anon, file, rt.totalMemory() - rt.freeMemory(), rt.totalMemory(), rt.maxMemory());
  }

  private static long kb(String line) {
    String[] parts = line.trim().split("\\s+");
    return Long.parseLong(parts[1]) * 1024;
  }

  static String mb(long bytes) {
    return bytes < 0 ? "n/a" : String.format(Locale.ROOT, "%,.0f MB", bytes / 1048576.0);
  }

  /** One line in megabytes. */
  public String line() {
    return "RSS "
        + mb(rssBytes)
        + " (anonymous "
        + mb(anonBytes)
        + ", file-backed "
        + mb(fileBytes)
        + "), peak RSS "
        + mb(peakRssBytes)
        + "; heap used "
        + mb(heapUsedBytes)
        + " of "
        + mb(heapCommittedBytes)
        + " committed, max "
        + mb(heapMaxBytes);
  }

  String json() {
    return String.format(
        Locale.ROOT,
        "{\"rss_bytes\":%d,\"peak_rss_bytes\":%d,\"rss_anon_bytes\":%d,\"rss_file_bytes\":%d,\"heap_used_bytes\":%d,"
            + "\"heap_committed_bytes\":%d,\"heap_max_bytes\":%d}",
        rssBytes,
        peakRssBytes,
        anonBytes,
        fileBytes,
        heapUsedBytes,
        heapCommittedBytes,
        heapMaxBytes);
  }
}

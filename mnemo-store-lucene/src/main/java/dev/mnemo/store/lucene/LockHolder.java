package dev.mnemo.store.lucene;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Optional;

/**
 * Who holds a store's {@code write.lock}: the process that opened the store writes its pid, command
 * line and start time beside the lock ({@value #FILE}), so that a second process refused the lock
 * can say which process holds it and what to do, instead of Lucene's bare "Lock held by another
 * program". Lucene's native lock records no holder, and the operating system frees it when its
 * process ends, so the lock itself is never stale; the note may be (a process that was killed),
 * which is why the refused process checks that the pid is alive before naming it.
 *
 * <p>Best effort: a note that cannot be written or read costs the message its detail, never the
 * open.
 */
final class LockHolder {
  static final String FILE = "write.lock.holder";

  private LockHolder() {}

  /** Notes this process as the holder of the store in {@code dir}. */
  static void note(Path dir) {
    ProcessHandle self = ProcessHandle.current();
    String line =
        "pid="
            + self.pid()
            + "\nsince="
            + Instant.now()
            + "\ncommand="
            + self.info().commandLine().map(LockHolder::shorten).orElse("?")
            + "\n";
    try {
      Files.writeString(dir.resolve(FILE), line, StandardCharsets.UTF_8);
    } catch (IOException | RuntimeException e) {
      // best effort: the lock is held either way
    }
  }

  /** Removes the note as the holder closes the store (a stale one is recognised anyway). */
  static void clear(Path dir) {
    try {
      Files.deleteIfExists(dir.resolve(FILE));
    } catch (IOException | RuntimeException e) {
      // best effort
    }
  }

  /**
   * The message for a process refused the lock of the store in {@code dir}: the live holder's pid,
   * command and since when if the note names one, and what to do.
   */
  static String refusal(Path dir) {
    String who = holder(dir).orElse("another process (it left no note of its pid)");
    return "the store in "
        + dir
        + " is open in "
        + who
        + ". One process at a time opens a store: stop that one (a running 'mnemo serve' or "
        + "'mnemo mcp' keeps its store open while it runs), send this command to it instead (the "
        + "REST API or MCP), or choose another --data. Nothing was written. The lock frees itself "
        + "when its process ends: do not delete write.lock";
  }

  private static Optional<String> holder(Path dir) {
    try {
      String note = Files.readString(dir.resolve(FILE), StandardCharsets.UTF_8);
      long pid = Long.parseLong(field(note, "pid"));
      Optional<ProcessHandle> p = ProcessHandle.of(pid).filter(ProcessHandle::isAlive);
      if (p.isEmpty()) return Optional.empty();
      return Optional.of(
          "process "
              + pid
              + " ("
              + field(note, "command")
              + ", since "
              + field(note, "since")
              + ")");
    } catch (IOException | RuntimeException e) {
      return Optional.empty();
    }
  }

  private static String field(String note, String name) {
    for (String line : note.split("\n")) {
      if (line.startsWith(name + "=")) return line.substring(name.length() + 1);
    }
    throw new IllegalArgumentException("no " + name + " in the lock note");
  }

  private static String shorten(String command) {
    return command.length() <= 200 ? command : command.substring(0, 199) + "~";
  }
}

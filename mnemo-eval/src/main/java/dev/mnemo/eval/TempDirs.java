package dev.mnemo.eval;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** The temporary directories each scenario or conversation gets a fresh store in. */
final class TempDirs {
  private TempDirs() {}

  static Path create(String prefix, String forWhat) {
    try {
      return Files.createTempDirectory(prefix);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create a temporary directory for " + forWhat, e);
    }
  }

  static void delete(Path dir) {
    try (Stream<Path> walk = Files.walk(dir)) {
      for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) Files.deleteIfExists(p);
    } catch (IOException e) {
      // A left-over temporary directory is not worth failing an evaluation over.
    }
  }
}

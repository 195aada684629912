package dev.mnemo.cli;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Captures System.out and System.err around each test (register with {@code @RegisterExtension}).
 */
final class StdStreams implements BeforeEachCallback, AfterEachCallback {
  final ByteArrayOutputStream out = new ByteArrayOutputStream();
  final ByteArrayOutputStream err = new ByteArrayOutputStream();
  private PrintStream oldOut;
  private PrintStream oldErr;

  @Override
  public void beforeEach(ExtensionContext context) {
    oldOut = System.out;
    oldErr = System.err;
    System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
    System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
  }

  @Override
  public void afterEach(ExtensionContext context) {
    System.setOut(oldOut);
    System.setErr(oldErr);
  }

  void reset() {
    out.reset();
    err.reset();
  }

  /** Runs the CLI with {@code args} on fresh streams; its exit code. */
  int run(String... args) {
    reset();
    return Main.run(args);
  }
}

package dev.mnemo.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeFalse;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The inspector end to end in a real browser: a server on a random port with two tenants, and
 * {@code src/test/e2e/inspector.e2e.mjs} driving Debian's headless Chromium through
 * playwright-core: load, log in with a key, write through the API, see the record and its versions,
 * recall and see the trace, forget a record and an owner with confirmations, and another tenant's
 * key seeing none of the first tenant's owners. The screenshot is kept as {@code
 * target/inspector-e2e/inspector.png}.
 *
 * <p>What it needs (Node.js, playwright-core pinned in {@code src/test/e2e/package-lock.json},
 * {@code /usr/bin/chromium}) is installed by {@code bin/e2e-setup}, which {@code bin/test} runs
 * first; when something is still missing this test runs the script once itself. Still missing, it
 * is skipped naming what is missing (a developer's machine without Chromium or Node.js), or fails
 * when {@code MNEMO_BROWSER_TEST=required} (CI: {@code .ci/run} sets it, so a CI without a browser
 * says so). {@code MNEMO_BROWSER_TEST=skip} skips it without looking.
 */
class InspectorBrowserIT {
  private static final Path E2E = Path.of("src/test/e2e");
  private static final Path SETUP = Path.of("../bin/e2e-setup");

  @TempDir Path dir;

  @Test
  void inspector_inHeadlessChromium_browsesRecallsForgets_andKeepsTenantsApart() throws Exception {
    String mode = System.getenv().getOrDefault("MNEMO_BROWSER_TEST", "");
    assumeFalse(mode.equals("skip"), "MNEMO_BROWSER_TEST=skip");
    String chromium = System.getenv().getOrDefault("MNEMO_CHROMIUM", "/usr/bin/chromium");
    List<String> missing = missing(chromium);
    if (!missing.isEmpty() && Files.isExecutable(SETUP)) {
      run(List.of("bash", SETUP.toString()), Path.of("."), 600);
      missing = missing(chromium);
    }
    if (!missing.isEmpty()) {
      String what =
          "the inspector's browser test cannot run; missing: "
              + String.join("; ", missing)
              + ". Run bin/e2e-setup (as root to install chromium with apt-get), or see docs/inspector.md.";
      assumeTrue(
          mode.equals("required"),
          what + " Skipped (MNEMO_BROWSER_TEST=required makes this a failure).");
      fail(
          "the inspector's browser test cannot run; missing: "
              + String.join("; ", missing)
              + ". Run bin/e2e-setup (as root to install chromium with apt-get), or see docs/inspector.md.");
    }
    Path shot = Path.of("target", "inspector-e2e", "inspector.png").toAbsolutePath();
    Files.deleteIfExists(shot);
    try (TestServer s = new TestServer(dir.resolve("data"))) {
      ProcessBuilder pb = new ProcessBuilder("node", "inspector.e2e.mjs").directory(E2E.toFile());
      pb.environment().put("BASE_URL", s.base);
      pb.environment().put("KEY_A", s.key("acme"));
      pb.environment().put("KEY_B", s.key("globex"));
      pb.environment().put("SCREENSHOT", shot.toString());
      pb.environment()
          .put("PROFILE_DIR", Files.createDirectories(dir.resolve("chromium-profile")).toString());
      pb.environment().put("CHROMIUM", chromium);
      Result r = run(pb, 120);
      System.out.println(r.output());
      assertThat(r.exit()).as("inspector.e2e.mjs said:\n" + r.output()).isZero();
    }
    assertThat(shot).exists();
    assertThat(Files.size(shot)).as("screenshot bytes").isGreaterThan(10_000);
  }

  private static List<String> missing(String chromium) {
    List<String> out = new ArrayList<>();
    if (!onPath("node")) out.add("Node.js ('node' on PATH; apt-get install nodejs npm)");
    if (!Files.isRegularFile(E2E.resolve("node_modules/playwright-core/package.json"))) {
      out.add("playwright-core (cd mnemo-server/src/test/e2e && npm ci)");
    }
    if (!Files.isExecutable(Path.of(chromium)))
      out.add("Debian's chromium at " + chromium + " (apt-get install chromium)");
    return out;
  }

  private static boolean onPath(String exe) {
    for (String d : System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator)) {
      if (!d.isEmpty() && Files.isExecutable(Path.of(d, exe))) return true;
    }
    return false;
  }

  private record Result(int exit, String output) {}

  private static Result run(List<String> command, Path workDir, int timeoutSeconds)
      throws IOException, InterruptedException {
    return run(new ProcessBuilder(command).directory(workDir.toFile()), timeoutSeconds);
  }

  private static Result run(ProcessBuilder pb, int timeoutSeconds)
      throws IOException, InterruptedException {
    Path out = Files.createTempFile("mnemo-e2e", ".log");
    try {
      Process p = pb.redirectErrorStream(true).redirectOutput(out.toFile()).start();
      if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
        p.descendants().forEach(ProcessHandle::destroyForcibly); // the browser too
        p.destroyForcibly().waitFor();
        return new Result(
            -1,
            Files.readString(out, StandardCharsets.UTF_8)
                + "\n(killed after "
                + timeoutSeconds
                + " s)");
      }
      return new Result(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8));
    } finally {
      Files.deleteIfExists(out);
    }
  }
}

package dev.mnemo.bench.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ./mnemo bench} as a user runs it from the repository: the launcher picks this module's
 * {@code target/mnemo-bench.jar} (the jar this build just packaged; {@code MNEMO_NO_BUILD=1}), in
 * which the CLI finds the {@code bench} command and its subcommands, and mnemo-fit's {@code eval
 * fit-relevance}.
 */
class BenchLauncherIT {
  private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

  @TempDir Path dir;

  private String run(String... args) throws Exception {
    Path out = dir.resolve("out.txt");
    List<String> cmd = new java.util.ArrayList<>(List.of("bash", ROOT.resolve("mnemo").toString()));
    cmd.addAll(List.of(args));
    ProcessBuilder pb =
        new ProcessBuilder(cmd)
            .directory(ROOT.toFile())
            .redirectErrorStream(true)
            .redirectOutput(out.toFile());
    pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
    pb.environment().put("MNEMO_NO_BUILD", "1");
    Process p = pb.start();
    assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
    String text = Files.readString(out, StandardCharsets.UTF_8);
    assertThat(p.exitValue()).as(text).isZero();
    return text;
  }

  @Test
  void bench_andItsSubcommands_runFromTheBenchJar() throws Exception {
    assertThat(run("bench", "--help")).contains("Usage: mnemo bench", "--quick", "load", "log");
    assertThat(run("bench", "load", "--help")).contains("Usage: mnemo bench load");
    assertThat(run("bench", "log", "--help")).contains("Usage: mnemo bench log");
  }

  @Test
  void evalFitRelevance_runsFromTheBenchJar() throws Exception {
    assertThat(run("eval", "fit-relevance", "--help"))
        .contains("Usage: mnemo eval fit-relevance", "--out", "XGBoost");
  }
}

package dev.mnemo.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code ./mnemo} launcher as a user runs it, on the jar this build just packaged ({@code
 * MNEMO_NO_BUILD=1}: no rebuild inside the test): a command prints its output and nothing else,
 * with the local e5 embedder on a CPU-only machine (no incubator warning, no DJL GPU probe warning,
 * no Lucene vectorization line), and {@code MNEMO_JAVA_OPTS} overrides the log level.
 */
class LauncherIT {
  private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

  @TempDir Path dir;

  record Run(int exit, String out, String err) {}

  private Run mnemo(Map<String, String> env, String... args)
      throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>(List.of("bash", ROOT.resolve("mnemo").toString()));
    cmd.addAll(List.of(args));
    return run(cmd, env);
  }

  private Run run(List<String> cmd, Map<String, String> env)
      throws IOException, InterruptedException {
    Path out = dir.resolve("out.txt");
    Path err = dir.resolve("err.txt");
    ProcessBuilder pb =
        new ProcessBuilder(cmd)
            .directory(ROOT.toFile())
            .redirectOutput(out.toFile())
            .redirectError(err.toFile());
    pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
    pb.environment().put("MNEMO_NO_BUILD", "1");
    pb.environment().remove("MNEMO_JAVA_OPTS");
    pb.environment().putAll(env);
    Process p = pb.start();
    assertThat(p.waitFor(180, TimeUnit.SECONDS)).as(String.join(" ", cmd) + " finished").isTrue();
    return new Run(
        p.exitValue(),
        Files.readString(out, StandardCharsets.UTF_8),
        Files.readString(err, StandardCharsets.UTF_8));
  }

  /** {@code java -jar mnemo-cli/target/mnemo.jar ARGS}, without the launcher. */
  private Run runProductJar(String... args) throws Exception {
    List<String> cmd = new java.util.ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.add("-jar");
    cmd.add(ROOT.resolve("mnemo-cli/target/mnemo.jar").toString());
    cmd.addAll(List.of(args));
    return run(cmd, Map.of());
  }

  @Test
  void productJar_holdsNoBenchmarks_andSaysWhereBenchIs() throws Exception {
    try (java.util.jar.JarFile jar =
        new java.util.jar.JarFile(ROOT.resolve("mnemo-cli/target/mnemo.jar").toFile())) {
      assertThat(
              jar.stream()
                  .map(java.util.jar.JarEntry::getName)
                  .filter(n -> n.startsWith("org/openjdk/jmh/") || n.startsWith("dev/mnemo/bench/"))
                  .toList())
          .isEmpty();
    }
    Run r = runProductJar("bench", "--quick");
    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.err()).contains("./mnemo bench", "mnemo-bench-cli");
  }

  /**
   * The rest of what the product jar leaves out: debug symbols, the fitting libraries (XGBoost with
   * Scala and Kryo, in mnemo-fit), test libraries, a second Jackson major, ZooKeeper's native
   * Netty.
   */
  @Test
  void productJar_holdsNoDebugSymbolsFittingOrTestLibraries_andSaysWhereTheFitIs()
      throws Exception {
    List<String> names;
    try (java.util.jar.JarFile jar =
        new java.util.jar.JarFile(ROOT.resolve("mnemo-cli/target/mnemo.jar").toFile())) {
      names = jar.stream().map(java.util.jar.JarEntry::getName).toList();
    }
    assertThat(names).contains("dev/mnemo/cli/Main.class", "e5-small-v2-q.onnx");
    for (String f :
        List.of(
            ".pdb",
            ".dSYM/",
            "ml/dmlc/",
            "xgboost4j",
            "scala/",
            "com/esotericsoftware/",
            "org/junit/",
            "org/assertj/",
            "net/jqwik/",
            "dev/mnemo/testkit/",
            "dev/mnemo/eval/RelevanceFit",
            "tools/jackson/",
            "netty_tcnative"))
      assertThat(names).as("entries containing %s", f).noneMatch(n -> n.contains(f));
    Run r = runProductJar("eval", "fit-relevance", "--out", "unused.properties");
    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.err()).contains("./mnemo eval fit-relevance", "mnemo-fit");
  }

  @Test
  void help_printsOnlyItsOutput() throws Exception {
    Run r = mnemo(Map.of(), "--help");
    assertThat(r.exit()).isZero();
    assertThat(r.out()).contains("Usage: mnemo");
    assertThat(r.err()).isEmpty();
  }

  @Test
  void
      rememberAndRecall_withTheLocalEmbedder_printOnlyTheirOutput_andMnemoJavaOptsRaisesTheLogLevel()
          throws Exception {
    String data = dir.resolve("data").toString();
    Run w =
        mnemo(
            Map.of(),
            "remember",
            "--data",
            data,
            "--owner",
            "maya",
            "--fact-key",
            "editor",
            "Maya switched from Vim to Emacs.");
    assertThat(w.exit()).as(w.err()).isZero();
    assertThat(w.err()).isEmpty();

    Run r =
        mnemo(Map.of(), "recall", "--data", data, "--owner", "maya", "Which editor does Maya use?");
    assertThat(r.exit()).as(r.err()).isZero();
    assertThat(r.out()).contains("Maya switched from Vim to Emacs.");
    assertThat(r.err()).isEmpty();

    Run loud =
        mnemo(
            Map.of("MNEMO_JAVA_OPTS", "-Dorg.slf4j.simpleLogger.defaultLogLevel=debug"),
            "recall",
            "--data",
            data,
            "--owner",
            "maya",
            "Which editor does Maya use?");
    assertThat(loud.exit()).isZero();
    assertThat(loud.err()).contains("DEBUG");
  }

  @Test
  void jdkHint_onDebian12_suggestsTemurin_notAPackageItLacks() throws Exception {
    Path release = Files.writeString(dir.resolve("os-release"), "ID=debian\nVERSION_ID=\"12\"\n");
    Run r =
        run(
            List.of("bash", "-c", ". bin/jdk.sh && mnemo_jdk_hint"),
            Map.of("MNEMO_OS_RELEASE", release.toString()));
    assertThat(r.out()).contains("Temurin").doesNotContain("apt-get install openjdk-21");
    Files.writeString(release, "ID=ubuntu\nVERSION_ID=\"24.04\"\n");
    r =
        run(
            List.of("bash", "-c", ". bin/jdk.sh && mnemo_jdk_hint"),
            Map.of("MNEMO_OS_RELEASE", release.toString()));
    assertThat(r.out()).contains("apt-get install openjdk-21-jdk-headless");
  }

  /**
   * The class-data-sharing archive holds what its first call loaded: a first call that fails or
   * prints help writes none (or has it removed), the next successful one writes it.
   */
  @Test
  void cdsArchive_isWrittenByAFirstCallThatSucceeds_notByAFailureOrHelp() throws Exception {
    Path archive = ROOT.resolve("mnemo-cli/target/cds/list.jsa");
    Files.deleteIfExists(archive);
    String data = dir.resolve("data").toString();
    Run bad = mnemo(Map.of(), "list", "--data", data, "--owner", "");
    assertThat(bad.exit()).isEqualTo(2);
    assertThat(archive).doesNotExist();
    Run help = mnemo(Map.of(), "list", "--help");
    assertThat(help.exit()).isZero();
    assertThat(archive).doesNotExist();
    Run ok = mnemo(Map.of(), "list", "--data", data, "--owner", "maya", "--embedder", "none");
    assertThat(ok.exit()).as(ok.err()).isZero();
    assertThat(archive).exists();
    Run again = mnemo(Map.of(), "list", "--data", data, "--owner", "maya", "--embedder", "none");
    assertThat(again.exit()).as(again.err()).isZero();
    assertThat(again.err()).isEmpty();
  }
}

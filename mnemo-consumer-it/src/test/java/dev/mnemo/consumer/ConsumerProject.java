package dev.mnemo.consumer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * A throwaway Maven project outside the reactor, built offline ({@code mvn -o}) against the jars
 * this build just packaged, and run with {@code java -jar} as a user would.
 *
 * <p>How the consumer finds {@code dev.mnemo} without {@code mvn install} (which would write into
 * the shared {@code ~/.m2}): {@link #repository()} makes a private local repository under {@code
 * target/} that holds copies of every reactor module's POM and jar under {@code dev/mnemo/}, and
 * symbolic links to everything else in the build's own local repository (each top-level folder, and
 * each folder of {@code dev/} but {@code mnemo}). The consumer build runs with {@code -o
 * -Dmaven.repo.local=} that folder, so it resolves third-party artifacts the reactor already
 * resolved and never the network. The consumer's jar lists its class path in its manifest in
 * repository layout, relative to that folder: {@code java -jar} then runs on exactly the artifacts
 * Maven resolved.
 *
 * <p>Plugins: only those the reactor itself ran (the parent's compiler and surefire versions,
 * Maven's default resources and jar plugins), so a fresh CI machine has them after the reactor's
 * build.
 */
final class ConsumerProject {

  static final Path ROOT =
      Path.of(System.getProperty("mnemo.root", "..")).toAbsolutePath().normalize();

  /** The BOM import, for consumers whose dependencies this test writes. */
  static String bomImport() {
    return "<dependencyManagement><dependencies><dependency><groupId>dev.mnemo</groupId><artifactId>mnemo-bom</artifactId>"
        + "<version>"
        + VERSION
        + "</version><type>pom</type><scope>import</scope></dependency></dependencies></dependencyManagement>";
  }

  static final String VERSION = System.getProperty("mnemo.version", "0.1.0-SNAPSHOT");
  private static final Path WORK = Path.of("target", "consumers").toAbsolutePath();
  private static Path repository;

  private final String name;
  private final Path dir;

  ConsumerProject(String name) {
    this.name = name;
    this.dir = WORK.resolve(name);
  }

  /** The private overlay repository (made once per test run). */
  static synchronized Path repository() throws IOException {
    if (repository != null) return repository;
    Path repo = WORK.resolve("repo");
    deleteRecursively(repo);
    Files.createDirectories(repo.resolve("dev/mnemo"));
    Path shared =
        Path.of(
            System.getProperty(
                "mnemo.localRepository", System.getProperty("user.home") + "/.m2/repository"));
    try (Stream<Path> top = Files.list(shared)) {
      for (Path p : top.toList()) {
        if (!p.getFileName().toString().equals("dev"))
          Files.createSymbolicLink(repo.resolve(p.getFileName().toString()), p);
      }
    }
    if (Files.isDirectory(shared.resolve("dev"))) {
      try (Stream<Path> dev = Files.list(shared.resolve("dev"))) {
        for (Path p : dev.toList()) {
          if (!p.getFileName().toString().equals("mnemo"))
            Files.createSymbolicLink(repo.resolve("dev").resolve(p.getFileName().toString()), p);
        }
      }
    }
    publish(repo, "mnemo-parent", ROOT.resolve("pom.xml"), null);
    try (Stream<Path> modules = Files.list(ROOT)) {
      for (Path m :
          modules
              .filter(
                  p ->
                      p.getFileName().toString().startsWith("mnemo-")
                          && Files.isRegularFile(p.resolve("pom.xml")))
              .sorted()
              .toList()) {
        String artifact = m.getFileName().toString();
        Path jar = m.resolve("target").resolve(artifact + "-" + VERSION + ".jar");
        publish(repo, artifact, m.resolve("pom.xml"), Files.isRegularFile(jar) ? jar : null);
      }
    }
    repository = repo;
    return repo;
  }

  private static void publish(Path repo, String artifact, Path pom, Path jar) throws IOException {
    Path dir = repo.resolve("dev/mnemo").resolve(artifact).resolve(VERSION);
    Files.createDirectories(dir);
    Files.copy(
        pom, dir.resolve(artifact + "-" + VERSION + ".pom"), StandardCopyOption.REPLACE_EXISTING);
    if (jar != null)
      Files.copy(
          jar, dir.resolve(artifact + "-" + VERSION + ".jar"), StandardCopyOption.REPLACE_EXISTING);
  }

  /**
   * Writes the project: a POM with this dependency section ({@code <dependencyManagement>} and
   * {@code <dependencies>}, as a user writes them) and one main class.
   */
  ConsumerProject write(String dependencySection, String mainClass, String source)
      throws IOException {
    deleteRecursively(dir);
    Path src = dir.resolve("src/main/java").resolve(mainClass + ".java");
    Files.createDirectories(src.getParent());
    Files.writeString(src, source);
    String pom =
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <project xmlns="http://maven.apache.org/POM/4.0.0">
          <modelVersion>4.0.0</modelVersion>
          <groupId>example</groupId>
          <artifactId>%1$s</artifactId>
          <version>1</version>
          <properties>
            <maven.compiler.release>21</maven.compiler.release>
            <project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>
          </properties>
        %3$s
          <build>
            <plugins>
              <plugin><groupId>org.apache.maven.plugins</groupId><artifactId>maven-compiler-plugin</artifactId><version>%4$s</version></plugin>
              <plugin><groupId>org.apache.maven.plugins</groupId><artifactId>maven-surefire-plugin</artifactId><version>%5$s</version></plugin>
              <plugin>
                <groupId>org.apache.maven.plugins</groupId><artifactId>maven-jar-plugin</artifactId>
                <configuration>
                  <archive>
                    <manifest>
                      <mainClass>%6$s</mainClass>
                      <addClasspath>true</addClasspath>
                      <classpathLayoutType>repository</classpathLayoutType>
                      <classpathPrefix>../../repo/</classpathPrefix>
                      <useUniqueVersions>false</useUniqueVersions>
                    </manifest>
                  </archive>
                </configuration>
              </plugin>
            </plugins>
          </build>
        </project>
        """
            .formatted(
                name,
                VERSION,
                dependencySection,
                parentPluginVersion("maven-compiler-plugin"),
                parentPluginVersion("maven-surefire-plugin"),
                mainClass);
    Files.writeString(dir.resolve("pom.xml"), pom);
    return this;
  }

  /** {@code mvn -o -B -q package} on the private repository; fails with Maven's output. */
  void build() throws IOException, InterruptedException {
    String mavenHome = System.getProperty("mnemo.mavenHome");
    String mvn = mavenHome == null ? "mvn" : Path.of(mavenHome, "bin", "mvn").toString();
    Result r =
        exec(
            dir,
            List.of(
                mvn,
                "-o",
                "-B",
                "-q",
                "-Dmaven.repo.local=" + repository(),
                "-DskipTests",
                "package"),
            600);
    if (r.exit() != 0)
      throw new AssertionError(
          "the consumer build of " + name + " failed:\n" + r.stdout() + r.stderr());
  }

  /** The entries of the jar's manifest class path (paths in repository layout). */
  List<String> classPath() throws IOException {
    try (var jar = new java.util.jar.JarFile(jar().toFile())) {
      String cp = jar.getManifest().getMainAttributes().getValue("Class-Path");
      return cp == null ? List.of() : List.of(cp.trim().split("\\s+"));
    }
  }

  private Path jar() {
    return dir.resolve("target").resolve(name + "-1.jar");
  }

  /**
   * {@code java FLAGS -jar app.jar} in a fresh working directory (the snippets write relative
   * paths).
   */
  Result run(List<String> jvmFlags) throws IOException, InterruptedException {
    Path work = dir.resolve("run");
    deleteRecursively(work);
    Files.createDirectories(work);
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.addAll(jvmFlags);
    cmd.add("-jar");
    cmd.add(jar().toString());
    return exec(work, cmd, 300);
  }

  record Result(int exit, String stdout, String stderr) {}

  private static Result exec(Path dir, List<String> cmd, int timeoutSeconds)
      throws IOException, InterruptedException {
    Path out = Files.createTempFile("consumer", ".out");
    Path err = Files.createTempFile("consumer", ".err");
    try {
      Process p =
          new ProcessBuilder(cmd)
              .directory(dir.toFile())
              .redirectOutput(out.toFile())
              .redirectError(err.toFile())
              .start();
      if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        throw new AssertionError(
            String.join(" ", cmd) + " did not finish in " + timeoutSeconds + " s");
      }
      return new Result(
          p.exitValue(),
          Files.readString(out, StandardCharsets.UTF_8),
          Files.readString(err, StandardCharsets.UTF_8));
    } finally {
      Files.deleteIfExists(out);
      Files.deleteIfExists(err);
    }
  }

  /**
   * The version the parent POM's pluginManagement gives a plugin: the consumer uses what the
   * reactor ran.
   */
  static String parentPluginVersion(String artifactId) {
    try {
      String parent = Files.readString(ROOT.resolve("pom.xml"));
      Matcher m =
          Pattern.compile(
                  "<artifactId>"
                      + Pattern.quote(artifactId)
                      + "</artifactId>\\s*<version>([^<]+)</version>")
              .matcher(parent);
      if (!m.find())
        throw new IllegalStateException("the parent POM pins no version of " + artifactId);
      return m.group(1);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static void deleteRecursively(Path p) throws IOException {
    if (!Files.exists(p, java.nio.file.LinkOption.NOFOLLOW_LINKS)) return;
    if (Files.isDirectory(p, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
      try (Stream<Path> children = Files.list(p)) {
        for (Path c : children.toList()) deleteRecursively(c);
      }
    }
    Files.delete(p); // a symbolic link is removed, never followed
  }
}

package dev.mnemo.consumer;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The README's "Embedded use", as a new user follows it: a project with exactly the README's
 * dependency section, the README's snippet verbatim in a main method, run with the README's JVM
 * flags.
 */
class EmbeddedConsumerIT {

  private static final Readme README = Readme.of(ConsumerProject.ROOT.resolve("README.md"));

  @Test
  void readmeSnippet_withReadmeDependenciesAndFlags_printsTheBlockItsCommentShows()
      throws Exception {
    String snippet = README.first("Embedded use", "java").text();
    String dependencies = README.first("Embedded use", "xml").text();
    assertThat(dependencies).contains("<version>" + ConsumerProject.VERSION + "</version>");
    String source =
        """
        import dev.mnemo.*;
        import java.nio.file.Path;
        import java.time.Instant;

        public class ReadmeEmbedded {
          public static void main(String[] args) throws Exception {
        %s
          }
        }
        """
            .formatted(snippet);
    ConsumerProject project =
        new ConsumerProject("embedded").write(dependencies, "ReadmeEmbedded", source);
    project.build();
    assertThat(project.classPath())
        .as("the runtime class path Maven resolved")
        .anyMatch(e -> e.contains("/org/slf4j/slf4j-api/"));

    String run =
        README.blocks().stream()
            .filter(b -> b.section().startsWith("Embedded use") && b.text().startsWith("java "))
            .findFirst()
            .orElseThrow()
            .text()
            .trim();
    List<String> words = Arrays.asList(run.split("\\s+"));
    List<String> flags =
        words.subList(1, words.indexOf("-jar")); // between `java` and `-jar app.jar`
    assertThat(flags).contains("--enable-native-access=ALL-UNNAMED");
    ConsumerProject.Result r = project.run(flags);

    assertThat(r.exit()).as(r.stderr()).isZero();
    // The output the snippet's comment promises, line for line.
    assertThat(snippet)
        .contains(
            "// Relevant memories (newest first):",
            "// - [since 2025-06-01] Maya switched from Vim to Emacs.");
    assertThat(r.stdout())
        .isEqualTo(
            "Relevant memories (newest first):\n- [since 2025-06-01] Maya switched from Vim to Emacs.\n");
    // Only what the README says the user will see: the incubator lines (the JVM's, Lucene's JUL
    // record
    // with its date line) and SLF4J's notice (no provider).
    List<String> unexpected =
        r.stderr()
            .lines()
            .filter(
                l ->
                    !l.equals("WARNING: Using incubator modules: jdk.incubator.vector")
                        && !l.startsWith("SLF4J(W): ")
                        && !l.startsWith("INFO: Java vector incubator API enabled")
                        && !l.endsWith("PanamaVectorizationProvider <init>"))
            .toList();
    assertThat(unexpected).as("stderr:\n" + r.stderr()).isEmpty();
  }
}

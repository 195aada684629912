package dev.mnemo.consumer;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every fenced block of README.md and docs/*.md says how it is kept true: {@code illustrative} in
 * its info string ({@code ```bash illustrative}: it needs a server, a network, a model or a machine
 * the suite does not have), or {@code tested-by=PATH}, a test (or CI script) of the repository that
 * runs it and names the Markdown file, so that a reader of either finds the other.
 */
class DocsBlocksTest {

  @Test
  void everyFencedBlock_isIllustrative_orNamesTheTestThatRunsIt() throws IOException {
    List<Path> files = new ArrayList<>(List.of(ConsumerProject.ROOT.resolve("README.md")));
    try (Stream<Path> docs = Files.list(ConsumerProject.ROOT.resolve("docs"))) {
      docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(files::add);
    }
    List<String> problems = new ArrayList<>();
    int blocks = 0;
    for (Path file : files) {
      String name = file.getFileName().toString();
      for (Readme.Block b : Readme.of(file).blocks()) {
        blocks++;
        String where = ConsumerProject.ROOT.relativize(file) + ":" + b.line();
        List<String> words = List.of(b.info().split("\\s+"));
        String testedBy =
            words.stream()
                .filter(w -> w.startsWith("tested-by="))
                .map(w -> w.substring(10))
                .findFirst()
                .orElse(null);
        if (words.contains("illustrative")) continue;
        if (testedBy == null) {
          problems.add(where + ": ```" + b.info() + " is neither illustrative nor tested-by=PATH");
          continue;
        }
        Path test = ConsumerProject.ROOT.resolve(testedBy);
        if (!Files.isRegularFile(test))
          problems.add(where + ": tested-by=" + testedBy + " does not exist");
        else if (!Files.readString(test).contains(name))
          problems.add(where + ": " + testedBy + " never names " + name);
      }
    }
    assertThat(blocks).isGreaterThan(20);
    assertThat(problems).isEmpty();
  }
}

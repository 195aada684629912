package dev.mnemo.consumer;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * A LangChain4j application that imports only {@code mnemo-bom}: one consistent Jackson on its
 * class path, and the retriever recalling from the embedded engine.
 */
class BomConsumerIT {

  private static final Pattern JACKSON =
      Pattern.compile("/com/fasterxml/jackson/core/(jackson-[a-z]+)/([^/]+)/");

  @Test
  void langchain4jConsumer_importingOnlyTheBom_getsOneJacksonAndRecalls() throws Exception {
    String dependencies =
        ConsumerProject.bomImport()
            + """
        <dependencies>
          <dependency><groupId>dev.mnemo</groupId><artifactId>mnemo-langchain4j</artifactId></dependency>
          <dependency><groupId>dev.mnemo</groupId><artifactId>mnemo-store-lucene</artifactId></dependency>
          <dependency><groupId>dev.mnemo</groupId><artifactId>mnemo-embed-onnx</artifactId></dependency>
        </dependencies>
        """;
    String source =
        """
        import dev.langchain4j.rag.content.Content;
        import dev.langchain4j.rag.query.Query;
        import dev.mnemo.*;
        import dev.mnemo.langchain4j.MnemoContentRetriever;
        import java.nio.file.Path;

        public class Agent {
          public static void main(String[] args) throws Exception {
            try (Mnemo mnemo = Mnemo.builder().directory(Path.of("memory")).build()) {
              mnemo.remember(NewMemory.builder("maya", "Maya's dog is called Biscuit.").build());
              mnemo.remember(NewMemory.builder("maya", "Maya lives in Porto.").build());
              var retriever = MnemoContentRetriever.builder(mnemo).owner("maya").build();
              for (Content c : retriever.retrieve(Query.from("So, the weather is nice today. What is my dog called?"))) {
                System.out.println(c.textSegment().text());
              }
              System.out.println(com.fasterxml.jackson.core.json.PackageVersion.VERSION + " "
                  + com.fasterxml.jackson.databind.cfg.PackageVersion.VERSION);
            }
          }
        }
        """;
    ConsumerProject project =
        new ConsumerProject("bom-langchain4j").write(dependencies, "Agent", source);
    project.build();

    List<String> jackson =
        project.classPath().stream()
            .map(JACKSON::matcher)
            .filter(Matcher::find)
            .map(m -> m.group(1) + ":" + m.group(2))
            .toList();
    String core = version(jackson, "jackson-core");
    assertThat(version(jackson, "jackson-databind")).as(jackson.toString()).isEqualTo(core);
    assertThat(version(jackson, "jackson-annotations"))
        .as(jackson.toString())
        .startsWith(core.substring(0, 2));

    ConsumerProject.Result r =
        project.run(
            List.of("--add-modules", "jdk.incubator.vector", "--enable-native-access=ALL-UNNAMED"));
    assertThat(r.exit()).as(r.stderr()).isZero();
    assertThat(r.stdout()).contains("Maya's dog is called Biscuit.").contains(core + " " + core);
  }

  @Test
  void remoteEmbeddingConsumer_importingOnlyTheBom_getsTheHttpEmbedderWithoutOnnx()
      throws Exception {
    String dependencies =
        ConsumerProject.bomImport()
            + """
        <dependencies>
          <dependency><groupId>dev.mnemo</groupId><artifactId>mnemo-store-lucene</artifactId></dependency>
          <dependency><groupId>dev.mnemo</groupId><artifactId>mnemo-embed-http</artifactId></dependency>
        </dependencies>
        """;
    String source =
        """
        import dev.mnemo.spi.Providers;

        public class Remote {
          public static void main(String[] args) {
            System.out.println("openai=" + Providers.hasEmbedder("openai") + " e5=" + Providers.hasEmbedder("e5-small-v2-q"));
          }
        }
        """;
    ConsumerProject project =
        new ConsumerProject("bom-embed-http").write(dependencies, "Remote", source);
    project.build();
    assertThat(project.classPath())
        .as("no ONNX Runtime, no model jar")
        .noneMatch(
            e ->
                e.contains("onnxruntime")
                    || e.contains("langchain4j-embeddings")
                    || e.contains("mnemo-embed-onnx"));
    ConsumerProject.Result r = project.run(List.of());
    assertThat(r.exit()).as(r.stderr()).isZero();
    assertThat(r.stdout()).contains("openai=true e5=false");
  }

  private static String version(List<String> entries, String artifact) {
    return entries.stream()
        .filter(e -> e.startsWith(artifact + ":"))
        .map(e -> e.substring(artifact.length() + 1))
        .findFirst()
        .orElseThrow(() -> new AssertionError(artifact + " not on the class path: " + entries));
  }
}

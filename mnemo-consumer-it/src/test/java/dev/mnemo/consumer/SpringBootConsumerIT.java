package dev.mnemo.consumer;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A Spring Boot application with the starter, as docs/spring-ai.md describes it: Spring Boot's and
 * Spring AI's BOMs beside Mnemo's, the starter alone, an embedded {@code Mnemo} bean from {@code
 * mnemo.*} properties that remembers and recalls.
 */
class SpringBootConsumerIT {

  @Test
  void bootApplication_withTheStarter_getsAnEmbeddedMnemoThatRecalls() throws Exception {
    String dependencies =
        Readme.of(ConsumerProject.ROOT.resolve("docs/spring-ai.md"))
            .first("With the starter", "xml")
            .text();
    assertThat(dependencies).contains("<version>" + ConsumerProject.VERSION + "</version>");
    String source =
        """
        import dev.mnemo.*;
        import org.springframework.boot.SpringApplication;
        import org.springframework.boot.autoconfigure.SpringBootApplication;

        @SpringBootApplication
        public class App {
          public static void main(String[] args) {
            try (var ctx = SpringApplication.run(App.class, "--mnemo.directory=memory", "--spring.main.banner-mode=off")) {
              Mnemo mnemo = ctx.getBean(Mnemo.class);
              mnemo.remember(NewMemory.builder("maya", "Maya's dog is called Biscuit.").build());
              System.out.println(mnemo.recall(RecallRequest.builder("maya", "What is the name of Maya's dog?").build()).rendered());
            }
          }
        }
        """;
    ConsumerProject project = new ConsumerProject("spring-boot").write(dependencies, "App", source);
    project.build();
    ConsumerProject.Result r =
        project.run(
            List.of("--add-modules", "jdk.incubator.vector", "--enable-native-access=ALL-UNNAMED"));
    assertThat(r.exit()).as(r.stdout() + r.stderr()).isZero();
    assertThat(r.stdout()).contains("Maya's dog is called Biscuit.");
    assertThat(r.stderr()).doesNotContain("Exception");
  }
}

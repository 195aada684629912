package dev.mnemo.spring.boot;

import dev.mnemo.Mnemo;
import dev.mnemo.client.MnemoClient;
import dev.mnemo.spi.Extractor;
import dev.mnemo.spi.Providers;
import dev.mnemo.spring.ai.MnemoAdvisor;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Auto-configures a {@link Mnemo} from {@link MnemoProperties} (embedded: the Lucene store in
 * {@code mnemo.directory}, extracting memories from ingested turns with the application's {@link
 * Extractor} bean when it has one; remote: {@link MnemoClient} to {@code mnemo.url}, where the
 * server's extractor applies) and, with Spring AI on the class path, a {@link MnemoAdvisor} over it
 * to add to a {@code ChatClient}. Either bean defined by the application replaces this one. The
 * {@code Mnemo} is closed with the context. A bad setting stops the start with a message naming the
 * property.
 */
@AutoConfiguration
@ConditionalOnClass(Mnemo.class)
@EnableConfigurationProperties(MnemoProperties.class)
public class MnemoAutoConfiguration {
  private static final org.slf4j.Logger LOG =
      org.slf4j.LoggerFactory.getLogger(MnemoAutoConfiguration.class);

  /** The embedder {@code Mnemo.builder()} picks by itself when its module is on the class path. */
  static final String AUTO_EMBEDDER = "e5-small-v2-q";

  @Bean
  @ConditionalOnMissingBean
  public Mnemo mnemo(MnemoProperties p, ObjectProvider<Extractor> extractor) {
    return switch (p.mode()) {
      case EMBEDDED -> {
        Mnemo.Builder b =
            Mnemo.builder()
                .directory(p.directory())
                .extractor(extractor.getIfUnique())
                .synchronousIngest(p.synchronousIngest());
        String e = p.embedder().trim();
        if (e.equals("none")) {
          b.withoutEmbedder();
          LOG.info(
              "mnemo: embedded store in {}, without an embedder (mnemo.embedder=none): recall ranks by BM25 and entities",
              p.directory().toAbsolutePath());
        } else if (!e.equals("auto")) {
          b.embedder(Providers.embedder(e, java.util.Map.of()));
          LOG.info("mnemo: embedded store in {}, embedder {}", p.directory().toAbsolutePath(), e);
        } else if (Providers.hasEmbedder(AUTO_EMBEDDER)) {
          LOG.info(
              "mnemo: embedded store in {}, local embedder {}",
              p.directory().toAbsolutePath(),
              AUTO_EMBEDDER);
        } else {
          LOG.warn(
              "mnemo: no embedder on the class path (mnemo.embedder=auto): recall runs without its dense signal, on "
                  + "BM25 and entities only. Add dev.mnemo:mnemo-embed-onnx for the local e5 model, or set mnemo.embedder=none "
                  + "to say that this is meant");
        }
        yield b.build();
      }
      case REMOTE -> {
        if (p.url() == null) {
          throw new IllegalStateException(
              "mnemo.url must be set when mnemo.mode=remote (e.g. http://127.0.0.1:8080)");
        }
        if (p.apiKey() == null || p.apiKey().isBlank()) {
          throw new IllegalStateException(
              "mnemo.api-key must be set when mnemo.mode=remote (a tenant key: "
                  + "POST /v1/tenants/{tenant}/keys with the admin key issues one)");
        }
        yield MnemoClient.builder()
            .url(p.url())
            .apiKey(p.apiKey())
            .timeout(p.timeout())
            .maxAttempts(p.maxAttempts())
            .build();
      }
    };
  }

  /** The advisor, when Spring AI's ChatClient is on the class path. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(name = "org.springframework.ai.chat.client.advisor.api.BaseAdvisor")
  @ConditionalOnProperty(
      prefix = "mnemo.advisor",
      name = "enabled",
      havingValue = "true",
      matchIfMissing = true)
  static class AdvisorConfiguration {
    @Bean
    @ConditionalOnMissingBean
    MnemoAdvisor mnemoAdvisor(Mnemo mnemo, MnemoProperties p) {
      MnemoProperties.Advisor a = p.advisor();
      return MnemoAdvisor.builder(mnemo)
          .defaultOwner(a.defaultOwner())
          .budgetTokens(a.budgetTokens())
          .k(a.k())
          .preface(a.preface())
          .order(a.order())
          .usageFeedback(a.usageFeedback())
          .build();
    }
  }
}

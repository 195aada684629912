package dev.mnemo.spring.boot;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The {@code mnemo.*} properties of the auto-configuration.
 *
 * @param mode {@code embedded} (a Lucene store in {@code directory}, in this process) or {@code
 *     remote} (a {@code mnemo serve} at {@code url}, with {@code api-key})
 * @param directory the embedded store's directory (default {@code .mnemo/data})
 * @param embedder embedded only: {@code auto} (the local e5 model when {@code mnemo-embed-onnx} is
 *     on the class path, else none), {@code none} (BM25 and entities only), or a provider's name
 * @param synchronousIngest embedded only: extract ingested turns before the advisor's call returns
 *     (default false: extraction runs in the background, the turns are durable either way)
 * @param url remote only: the server's base URL, e.g. {@code http://mnemo:8080}
 * @param apiKey remote only: the tenant's API key
 * @param timeout remote only: the time-out of one attempt (default 30 s)
 * @param maxAttempts remote only: attempts per call, retries included (default 4)
 * @param advisor the Spring AI advisor's settings
 */
@ConfigurationProperties("mnemo")
public record MnemoProperties(
    @DefaultValue("embedded") Mode mode,
    @DefaultValue(".mnemo/data") Path directory,
    @DefaultValue("auto") String embedder,
    @DefaultValue("false") boolean synchronousIngest,
    URI url,
    String apiKey,
    @DefaultValue("30s") Duration timeout,
    @DefaultValue("4") int maxAttempts,
    @DefaultValue Advisor advisor) {

  /** Where the memory lives. */
  public enum Mode {
    EMBEDDED,
    REMOTE
  }

  /**
   * The advisor's settings ({@code mnemo.advisor.*}).
   *
   * @param enabled whether a {@code MnemoAdvisor} bean is made (default true)
   * @param defaultOwner the owner of calls that name none; unset = such calls are refused
   * @param budgetTokens the recalled block's token budget (default 400)
   * @param k the most records recalled (default 5)
   * @param preface a line put before the recalled block
   * @param order the advisor's order in the chain (default 0)
   * @param usageFeedback whether the advisor reports the recalled records the answer used (default
   *     true)
   */
  public record Advisor(
      @DefaultValue("true") boolean enabled,
      String defaultOwner,
      @DefaultValue("400") int budgetTokens,
      @DefaultValue("5") int k,
      @DefaultValue("") String preface,
      @DefaultValue("0") int order,
      @DefaultValue("true") boolean usageFeedback) {}
}

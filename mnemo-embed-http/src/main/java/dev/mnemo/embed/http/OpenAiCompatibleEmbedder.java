package dev.mnemo.embed.http;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mnemo.InvalidRequestException;
import dev.mnemo.MnemoException;
import dev.mnemo.spi.Embedder;
import dev.mnemo.spi.ProviderConfig;
import dev.mnemo.spi.Vectors;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An {@link Embedder} backed by any server that speaks the OpenAI embeddings API ({@code POST
 * {url}/embeddings}): OpenAI itself, or local servers such as Ollama, vLLM, llama.cpp or LM Studio.
 *
 * <p>Contract: config keys {@code url} (base URL, e.g. {@code https://api.openai.com/v1};
 * required), {@code model} (required; also the {@link #modelId()}), {@code key} (sent as a bearer
 * token), {@code dimension} (when absent it is learned from the first response, and {@link
 * #dimension()} asked first makes one small request), {@code timeout} per request (default 30 s),
 * {@code batch} inputs per request (default 64), {@code queryPrefix} and {@code passagePrefix}
 * (prepended to every text; default none). Vectors come back in input order, whatever order the
 * server lists them in, and L2-normalized. Time-outs, network failures, HTTP 408, 429 and 5xx raise
 * a retriable {@link MnemoException}; other statuses, malformed responses and a wrong number or
 * length of vectors a non-retriable one. Messages quote the status and the start of the body, never
 * the key. No retries of its own (the caller knows its budget); thread-safe.
 */
public final class OpenAiCompatibleEmbedder implements Embedder {

  static final int DEFAULT_BATCH = 64;
  static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(30);

  /** How much of a response body an error message quotes: enough for a provider's error text. */
  private static final int SNIPPET_CHARS = 300;

  private static final ObjectMapper JSON = new ObjectMapper();

  private final URI endpoint;
  private final String where; // the endpoint without user info or query, which may hold secrets
  private final String model;
  private final String key;
  private final Duration timeout;
  private final int batch;
  private final String queryPrefix;
  private final String passagePrefix;
  private final boolean dimensionConfigured;
  private final AtomicInteger dimension; // 0 until configured or learned
  private final HttpClient http;
  private volatile boolean closed;

  /**
   * Creates an embedder from provider config (keys above); makes no request.
   *
   * @throws InvalidRequestException if a key is missing or malformed
   */
  public OpenAiCompatibleEmbedder(Map<String, String> config) {
    this.endpoint =
        endpoint(ProviderConfig.required(config, "url", "the embeddings server's base URL"));
    this.where =
        endpoint.getScheme()
            + "://"
            + endpoint.getRawAuthority().replaceFirst("^.*@", "")
            + endpoint.getRawPath();
    this.model = ProviderConfig.required(config, "model", "the embedding model name");
    this.key = ProviderConfig.string(config, "key");
    Integer dim = ProviderConfig.positiveInt(config, "dimension", null);
    this.dimensionConfigured = dim != null;
    this.dimension = new AtomicInteger(dim == null ? 0 : dim);
    this.timeout = ProviderConfig.duration(config, "timeout", DEFAULT_TIMEOUT);
    this.batch = ProviderConfig.positiveInt(config, "batch", DEFAULT_BATCH);
    this.queryPrefix = ProviderConfig.raw(config, "queryPrefix", "");
    this.passagePrefix = ProviderConfig.raw(config, "passagePrefix", "");
    this.http =
        HttpClient.newBuilder()
            .connectTimeout(timeout)
            // HTTP/1.1: plain-http local servers do not all cope with the h2c upgrade Java offers
            // first.
            .version(HttpClient.Version.HTTP_1_1)
            // A redirected POST would be replayed elsewhere with our bearer token; refuse instead.
            .followRedirects(HttpClient.Redirect.NEVER)
            .build();
  }

  private static URI endpoint(String url) {
    URI uri;
    try {
      uri = new URI(url.endsWith("/") ? url.substring(0, url.length() - 1) : url);
    } catch (URISyntaxException e) {
      throw new InvalidRequestException(
          "url", url, "url must be an http(s) URL, was '" + url + "'");
    }
    String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
    if (!(scheme.equals("http") || scheme.equals("https"))
        || uri.getHost() == null
        || uri.getRawQuery() != null) {
      throw new InvalidRequestException(
          "url",
          url,
          "url must be an http(s) base URL without query, such as https://api.openai.com/v1, was '"
              + url
              + "'");
    }
    // Accept the full endpoint too: people paste either.
    return uri.getRawPath().endsWith("/embeddings") ? uri : URI.create(uri + "/embeddings");
  }

  @Override
  public String modelId() {
    return model;
  }

  /**
   * The configured dimension, else the one learned from a response; asked before any response came,
   * it makes a one-text request to find out.
   */
  @Override
  public int dimension() {
    int d = dimension.get();
    if (d == 0) {
      request(List.of("dimension probe"), "");
      d = dimension.get();
    }
    return d;
  }

  @Override
  public float[] embedQuery(String text) {
    if (text == null) throw new InvalidRequestException("query", null, "query must not be null");
    return request(List.of(text), queryPrefix)[0];
  }

  /** Embeds the texts in order, {@code batch} per request, one request after another. */
  @Override
  public List<float[]> embedPassages(List<String> texts) {
    Vectors.requireTexts(texts);
    List<float[]> out = new ArrayList<>(texts.size());
    for (int from = 0; from < texts.size(); from += batch) {
      out.addAll(
          Arrays.asList(
              request(texts.subList(from, Math.min(texts.size(), from + batch)), passagePrefix)));
    }
    return out;
  }

  /** One POST for {@code texts}; returns their vectors in the same order. */
  private float[][] request(List<String> texts, String prefix) {
    if (closed) throw new MnemoException("the " + model + " embedder is closed", false);
    ObjectNode body = JSON.createObjectNode();
    body.put("model", model);
    ArrayNode input = body.putArray("input");
    for (String t : texts) input.add(prefix + t);
    HttpRequest.Builder req =
        HttpRequest.newBuilder(endpoint)
            .timeout(timeout)
            .header("Content-Type", "application/json")
            .header("Accept", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(body.toString(), StandardCharsets.UTF_8));
    if (key != null) req.header("Authorization", "Bearer " + key);

    HttpResponse<String> response;
    try {
      response = http.send(req.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    } catch (HttpTimeoutException e) {
      throw new MnemoException(
          "embedding request to " + where + " timed out after " + timeout.toMillis() + " ms",
          true,
          e);
    } catch (IOException e) {
      throw new MnemoException(
          "embedding request to " + where + " failed: " + redact(String.valueOf(e.getMessage())),
          true,
          e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new MnemoException("interrupted while waiting for " + where, false, e);
    }

    int status = response.statusCode();
    if (status / 100 != 2) {
      boolean retriable = status == 408 || status == 429 || status >= 500;
      String retryAfter =
          response
              .headers()
              .firstValue("Retry-After")
              .map(v -> " (Retry-After: " + v + ")")
              .orElse("");
      throw new MnemoException(
          "embedding request to "
              + where
              + " failed with HTTP "
              + status
              + retryAfter
              + ": "
              + snippet(response.body()),
          retriable);
    }
    return parse(response.body(), texts.size());
  }

  private float[][] parse(String body, int expected) {
    JsonNode root;
    try {
      root = JSON.readTree(body);
    } catch (JacksonException e) {
      throw malformed("is not valid JSON", body);
    }
    JsonNode data = root == null ? null : root.get("data");
    if (data == null || !data.isArray()) throw malformed("has no \"data\" array", body);
    if (data.size() != expected) {
      throw malformed("holds " + data.size() + " embeddings for " + expected + " inputs", body);
    }
    float[][] out = new float[expected][];
    for (int pos = 0; pos < expected; pos++) {
      JsonNode item = data.get(pos);
      JsonNode index = item.get("index");
      // Servers that omit the index list the vectors in input order.
      int i =
          index == null || index.isNull()
              ? pos
              : index.isIntegralNumber() && index.canConvertToInt() ? index.intValue() : -1;
      if (i < 0 || i >= expected || out[i] != null) {
        throw malformed("has a missing, repeated or out-of-range index at data[" + pos + "]", body);
      }
      out[i] = vector(item.get("embedding"), pos, body);
    }
    return out;
  }

  private float[] vector(JsonNode embedding, int pos, String body) {
    if (embedding == null || !embedding.isArray() || embedding.isEmpty()) {
      throw malformed("has no array of numbers at data[" + pos + "].embedding", body);
    }
    float[] v = new float[embedding.size()];
    for (int j = 0; j < v.length; j++) {
      JsonNode x = embedding.get(j);
      if (!x.isNumber()) throw malformed("has a non-number in data[" + pos + "].embedding", body);
      v[j] = (float) x.doubleValue();
    }
    if (!dimension.compareAndSet(0, v.length) && dimension.get() != v.length) {
      throw new MnemoException(
          "model "
              + model
              + " at "
              + where
              + " returned a "
              + v.length
              + "-dimensional vector, but "
              + (dimensionConfigured ? "dimension is configured as " : "earlier ones had ")
              + dimension.get()
              + " components",
          false);
    }
    if (!Vectors.normalizeInPlace(v)) {
      throw malformed("has a zero or non-finite vector at data[" + pos + "].embedding", body);
    }
    return v;
  }

  private MnemoException malformed(String what, String body) {
    return new MnemoException(
        "the response from " + where + " " + what + ": " + snippet(body), false);
  }

  /** The start of a body on one line, with the key blanked out in case a server echoes it. */
  private String snippet(String body) {
    if (body == null || body.isBlank()) return "(empty body)";
    String s = redact(body.strip().replaceAll("\\s+", " "));
    return s.length() <= SNIPPET_CHARS ? s : s.substring(0, SNIPPET_CHARS) + "...";
  }

  private String redact(String s) {
    return key == null ? s : s.replace(key, "***");
  }

  /** Stops accepting calls and releases the HTTP client once requests in flight are done. */
  @Override
  public void close() {
    if (closed) return;
    closed = true;
    http.close();
  }

  @Override
  public String toString() {
    return "OpenAiCompatibleEmbedder[model=" + model + ", url=" + where + "]";
  }
}

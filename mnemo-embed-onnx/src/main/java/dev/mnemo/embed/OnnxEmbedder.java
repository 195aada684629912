package dev.mnemo.embed;

import ai.djl.huggingface.tokenizers.Encoding;
import ai.djl.huggingface.tokenizers.HuggingFaceTokenizer;
import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import dev.mnemo.InvalidRequestException;
import dev.mnemo.MnemoException;
import dev.mnemo.spi.CacheDirectory;
import dev.mnemo.spi.Embedder;
import dev.mnemo.spi.Vectors;
import java.io.IOException;
import java.io.InputStream;
import java.nio.FloatBuffer;
import java.nio.LongBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * A local {@link Embedder} that runs one of the quantized sentence-embedding models of {@link
 * OnnxModel} in process with ONNX Runtime, its weights and tokenizer read from the class path (the
 * model's LangChain4j jar from Maven Central); the session is opened on an optimized copy of the
 * model that the first process writes to the {@link CacheDirectory} ({@link ModelSessions}: about
 * 300 ms less a start, the same vectors).
 *
 * <p>Contract: queries are embedded as {@link OnnxModel#queryPrefix()} + text and passages as
 * {@link OnnxModel#passagePrefix()} + text, as the model was trained; each text is cut to the
 * model's {@link OnnxModel#maxTokens()}, pooled as the model was trained (mean over its tokens, or
 * its first token) and L2-normalized. Every text runs through the model on its own, so a vector
 * depends only on its text, never on what else was in the call. Nothing touches the network: DJL's
 * telemetry and hub look-ups are switched off before its first use (its tokenizer library is still
 * extracted once under {@code ~/.djl.ai}, or {@code DJL_CACHE_DIR}). Thread-safe; passages of one
 * call are spread over a fixed set of worker threads (by default one per processor). {@link
 * #close()} waits for calls in flight and then frees the native model; later calls fail with a
 * {@link MnemoException}.
 */
public final class OnnxEmbedder implements Embedder {

  static {
    // DJL reads these on every check rather than at class load, so setting them here, before this
    // class can create a tokenizer, is early enough. ai.djl.offline stops hub downloads and the
    // telemetry "call home", which would first probe the EC2 metadata address 169.254.169.254;
    // OPT_OUT_TRACKING (read as an environment variable or a system property) stops telemetry even
    // if someone sets DJL_OFFLINE=false in the environment. (DJL 0.36 only calls home when a
    // tokenizer is made from a hub name; ours comes from a stream. The properties guard the rest.)
    // Forced, not defaulted: Mnemo promises never to use the network for local embeddings.
    System.setProperty("ai.djl.offline", "true");
    System.setProperty("OPT_OUT_TRACKING", "true");
  }

  private final OnnxModel model;
  private final String modelId;
  private final OrtEnvironment environment;
  private final OrtSession session;
  private final boolean wantsTokenTypes;
  private final HuggingFaceTokenizer tokenizer;
  private final int threads;
  private final ExecutorService workers;
  // Calls hold the read lock for their whole duration (workers included), close() the write lock:
  // running a closed native session could crash the JVM rather than throw.
  private final ReadWriteLock lifecycle = new ReentrantReadWriteLock();
  private boolean closed;

  /** Loads {@code model} with one worker thread per available processor. */
  public OnnxEmbedder(OnnxModel model) {
    this(model, Runtime.getRuntime().availableProcessors());
  }

  /**
   * Loads {@code model} (about a second) with {@code threads} worker threads for passages.
   *
   * @throws InvalidRequestException if {@code threads < 1}
   * @throws MnemoException if the model cannot be loaded (for example, its jar is missing)
   */
  public OnnxEmbedder(OnnxModel model, int threads) {
    this(model, threads, CacheDirectory.get());
  }

  /**
   * Loads {@code model}, its session opened on the optimized copy in {@code cacheDir} (null: on the
   * model's bytes, as {@link ModelSessions} explains).
   */
  OnnxEmbedder(OnnxModel model, int threads, Path cacheDir) {
    this.model = java.util.Objects.requireNonNull(model, "model");
    this.modelId = model.id();
    if (threads < 1) {
      throw new InvalidRequestException("threads", threads, "threads must be >= 1, was " + threads);
    }
    this.threads = threads;
    this.environment = OrtEnvironment.getEnvironment();
    java.net.URL weights = resource(model.modelResource());
    // Measured on 2 cores (passages of ~30 tokens; of ~70 in brackets): ONNX's default intra-op
    // pool (a spinning thread per core) fights with any parallelism around it, so stock langchain4j
    // embedAll, one text per pooled thread on such a session, made 191/s (99/s). One intra-op
    // thread and our own `threads` callers sharing one session (OrtSession.run is thread-safe) made
    // 291/s (140/s); a session per worker was no faster (271/s) and costs tens of MB each. Batching
    // (sorted by length, padded, <= 512 tokens a batch) made 315/s (135/s), but the model quantizes
    // activations dynamically with one scale per batch, so a text's vector moved by up to 0.5%
    // cosine with its batch-mates; reproducible vectors are worth more than 8%. The price is
    // single-query latency: ~5 ms for a 20-token query on one core, against ~4 ms on two.
    // The tokenizer (DJL's native library and the tokenizer's JSON, ~70 ms) loads on another
    // thread while the session is made here (~50-130 ms): a short process (the command line) waits
    // for the longer of the two, not for both.
    java.util.concurrent.CompletableFuture<HuggingFaceTokenizer> tokenizerLoad =
        new java.util.concurrent.CompletableFuture<>();
    Thread.ofPlatform()
        .daemon()
        .name("mnemo-tokenizer-load")
        .start(
            () -> {
              try (InputStream json = openResource(model.tokenizerResource())) {
                tokenizerLoad.complete(
                    HuggingFaceTokenizer.newInstance(
                        json,
                        Map.of(
                            "padding", "false",
                            "truncation", "true",
                            "maxLength", Integer.toString(model.maxTokens()))));
              } catch (Throwable t) {
                tokenizerLoad.completeExceptionally(t);
              }
            });
    try {
      this.session =
          ModelSessions.open(
              environment,
              model,
              weights,
              cacheDir,
              OnnxEmbedder::sessionOptions,
              model.modelResource());
      this.wantsTokenTypes = session.getInputNames().contains("token_type_ids");
    } catch (OrtException | RuntimeException e) {
      tokenizerLoad.thenAccept(HuggingFaceTokenizer::close); // loaded for nothing
      if (e instanceof RuntimeException r) throw r;
      throw new MnemoException(
          "cannot load the " + modelId + " model: " + e.getMessage(), false, e);
    }
    try {
      this.tokenizer = tokenizerLoad.join();
    } catch (java.util.concurrent.CompletionException e) {
      closeQuietly(session);
      Throwable cause = e.getCause() == null ? e : e.getCause();
      if (cause instanceof Error err) throw err;
      throw new MnemoException(
          "cannot load the " + modelId + " tokenizer: " + cause.getMessage(), false, cause);
    }
    AtomicInteger workerCount = new AtomicInteger();
    this.workers =
        threads == 1
            ? null
            : Executors.newFixedThreadPool(
                threads,
                r -> {
                  Thread t = new Thread(r, "mnemo-onnx-worker-" + workerCount.incrementAndGet());
                  t.setDaemon(
                      true); // an embedder someone forgot to close must not keep the JVM alive
                  return t;
                });
  }

  @Override
  public String modelId() {
    return modelId;
  }

  @Override
  public int dimension() {
    return model.dimension();
  }

  @Override
  public double unrelatedSimilarity() {
    return model.unrelatedSimilarity();
  }

  /** The model this embedder runs. */
  public OnnxModel model() {
    return model;
  }

  /**
   * Embeds the model's query prefix + {@code text} on the calling thread (a few milliseconds for a
   * short query).
   */
  @Override
  public float[] embedQuery(String text) {
    if (text == null) throw new InvalidRequestException("query", null, "query must not be null");
    lifecycle.readLock().lock();
    try {
      ensureOpen();
      return embed(model.queryPrefix() + text);
    } finally {
      lifecycle.readLock().unlock();
    }
  }

  /** Embeds each passage prefix + text, in order, spread over the worker threads. */
  @Override
  public List<float[]> embedPassages(List<String> texts) {
    Vectors.requireTexts(texts);
    if (texts.isEmpty()) return List.of();
    lifecycle.readLock().lock();
    try {
      ensureOpen();
      float[][] out = new float[texts.size()][];
      int tasks = Math.min(threads, texts.size());
      if (tasks == 1) {
        for (int i = 0; i < out.length; i++) out[i] = embed(model.passagePrefix() + texts.get(i));
      } else {
        runOnWorkers(texts, out, tasks);
      }
      return Arrays.asList(out);
    } finally {
      lifecycle.readLock().unlock();
    }
  }

  /**
   * Runs {@code tasks} workers that each take the next unembedded index until none is left, so that
   * texts of uneven length still keep every worker busy; returns only when all of them have
   * stopped.
   */
  private void runOnWorkers(List<String> texts, float[][] out, int tasks) {
    AtomicInteger next = new AtomicInteger();
    List<Future<?>> running = new ArrayList<>(tasks);
    for (int t = 0; t < tasks; t++) {
      running.add(
          workers.submit(
              () -> {
                for (int i; (i = next.getAndIncrement()) < out.length; ) {
                  out[i] = embed(model.passagePrefix() + texts.get(i));
                }
              }));
    }
    RuntimeException failure = null;
    boolean interrupted = false;
    for (Future<?> f : running) {
      while (true) {
        try {
          f.get();
          break;
        } catch (InterruptedException e) {
          // Stop handing out texts, but wait for the ones being embedded: they use the session, and
          // close() may free it as soon as this call lets go of the lock.
          interrupted = true;
          next.set(out.length);
        } catch (ExecutionException e) {
          next.set(out.length);
          if (failure == null) {
            failure =
                e.getCause() instanceof RuntimeException r
                    ? r
                    : new MnemoException(modelId + " failed: " + e.getCause(), false, e.getCause());
          }
          break;
        }
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
      throw new MnemoException("interrupted while embedding passages", false);
    }
    if (failure != null) throw failure;
  }

  /** Tokenizes, runs the model and pools one already prefixed text. */
  private float[] embed(String prefixed) {
    Encoding encoding = tokenizer.encode(prefixed);
    long[] ids = encoding.getIds();
    long[] mask = encoding.getAttentionMask();
    long[] shape = {1, ids.length};
    try (OnnxTensor idsTensor = OnnxTensor.createTensor(environment, LongBuffer.wrap(ids), shape);
        OnnxTensor maskTensor = OnnxTensor.createTensor(environment, LongBuffer.wrap(mask), shape);
        OnnxTensor typesTensor =
            wantsTokenTypes
                ? OnnxTensor.createTensor(environment, LongBuffer.wrap(new long[ids.length]), shape)
                : null) {
      Map<String, OnnxTensor> inputs = new HashMap<>(4);
      inputs.put("input_ids", idsTensor);
      inputs.put("attention_mask", maskTensor);
      if (typesTensor != null) inputs.put("token_type_ids", typesTensor);
      try (OrtSession.Result result = session.run(inputs)) {
        // last_hidden_state, shape [1, tokens, 384]
        FloatBuffer hidden = ((OnnxTensor) result.get(0)).getFloatBuffer();
        return pool(hidden, mask);
      }
    } catch (OrtException e) {
      throw new MnemoException(modelId + " failed to embed a text: " + e.getMessage(), false, e);
    }
  }

  /**
   * Averages the token vectors whose mask is 1 (all of them: one text, no padding), or takes the
   * first token's ([CLS]) for a model pooled that way, then normalizes.
   */
  private float[] pool(FloatBuffer hidden, long[] mask) {
    int dimension = model.dimension();
    if (hidden.capacity() != mask.length * dimension) {
      throw new MnemoException(
          modelId
              + " returned "
              + hidden.capacity()
              + " values for "
              + mask.length
              + " tokens of "
              + dimension
              + " dimensions",
          false);
    }
    float[] v = new float[dimension];
    if (model.pooling() == OnnxModel.Pooling.CLS) {
      hidden.get(0, v);
      if (!Vectors.normalizeInPlace(v)) {
        throw new MnemoException(modelId + " produced a zero or non-finite vector", false);
      }
      return v;
    }
    int counted = 0;
    for (int token = 0; token < mask.length; token++) {
      if (mask[token] == 0) continue;
      counted++;
      int base = token * dimension;
      for (int d = 0; d < dimension; d++) v[d] += hidden.get(base + d);
    }
    if (counted > 0) {
      for (int d = 0; d < dimension; d++) v[d] /= counted;
    }
    if (!Vectors.normalizeInPlace(v)) {
      throw new MnemoException(modelId + " produced a zero or non-finite vector", false);
    }
    return v;
  }

  /** The number of tokens the model sees for an already prefixed text, special tokens included. */
  int tokenCount(String prefixed) {
    lifecycle.readLock().lock();
    try {
      ensureOpen();
      return tokenizer.encode(prefixed).getIds().length;
    } finally {
      lifecycle.readLock().unlock();
    }
  }

  private void ensureOpen() {
    if (closed) throw new MnemoException("the " + modelId + " embedder is closed", false);
  }

  /**
   * Waits for calls in flight, then frees the ONNX session, the tokenizer and the worker threads.
   */
  @Override
  public void close() {
    lifecycle.writeLock().lock();
    try {
      if (closed) return;
      closed = true;
      if (workers != null) workers.shutdown();
      closeQuietly(session);
      tokenizer.close();
    } finally {
      lifecycle.writeLock().unlock();
    }
  }

  private static void closeQuietly(OrtSession s) {
    try {
      s.close();
    } catch (OrtException e) {
      // Nothing a caller could do about a failure to free native memory while shutting down.
    }
  }

  /** One intra-op thread, sequential: see the constructor. */
  private static OrtSession.SessionOptions sessionOptions(OrtSession.SessionOptions.OptLevel level)
      throws OrtException {
    OrtSession.SessionOptions options = new OrtSession.SessionOptions();
    try {
      options.setIntraOpNumThreads(1);
      options.setInterOpNumThreads(1);
      options.setExecutionMode(OrtSession.SessionOptions.ExecutionMode.SEQUENTIAL);
      options.setOptimizationLevel(level);
      return options;
    } catch (OrtException | RuntimeException e) {
      options.close();
      throw e;
    }
  }

  private InputStream openResource(String name) throws IOException {
    return resource(name).openStream();
  }

  private java.net.URL resource(String name) {
    java.net.URL in = OnnxEmbedder.class.getResource("/" + name);
    if (in == null) {
      throw new MnemoException(
          name
              + " is not on the class path; it ships in "
              + model.artifact()
              + " (add it as a dependency to use "
              + modelId
              + ")",
          false);
    }
    return in;
  }
}

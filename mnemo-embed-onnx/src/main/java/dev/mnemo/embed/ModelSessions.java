package dev.mnemo.embed;

import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import ai.onnxruntime.OrtSession.SessionOptions.OptLevel;
import dev.mnemo.spi.CacheDirectory;
import java.io.IOException;
import java.io.InputStream;
import java.net.JarURLConnection;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Locale;
import java.util.jar.JarEntry;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.zip.CRC32C;

/**
 * Opens a model's ONNX Runtime session from a graph-optimized copy of the model kept in the {@link
 * CacheDirectory}, so that a process (a command-line call is a new one each time) neither inflates
 * the 32 MB model out of its compressed jar nor optimizes its graph again.
 *
 * <p>Measured on 2 cores (BENCHMARKS.md, "CLI start-up"): reading e5's bytes out of the jar took
 * 140-185 ms and a session on them another 130 ms; a session on the mapped optimized copy takes
 * about 45 ms. The copy is written by ONNX Runtime itself ({@code setOptimizedModelFilePath}) at
 * the extended level, which holds no hardware-specific layout; every session, the first included,
 * is then opened on the copy at the full level, as a session on the jar's model always was, so the
 * vectors are the same bit for bit (E5SmallEmbedderIT checks it).
 *
 * <p>The copy's name carries what it was made from: the model's id, the CRC-32 and size of the
 * model in its jar (read from the jar's directory, free), ONNX Runtime's version and the
 * architecture; another jar, model or runtime finds no file of its name and writes its own
 * (removing the copies of the model's other versions). The name ends in the CRC-32C of the file's
 * own bytes, checked on every open on the very mapped bytes the session is made from, so a damaged
 * or half-copied file is never used: it is deleted and written anew. Written to a temporary file
 * and moved into place, so concurrent processes never see half of one. The cache is an optimization
 * only: off, unwritable, or a model that is not a jar entry (a plain file is opened where it is),
 * the session is made from the model's bytes as before, a debug line saying why.
 */
final class ModelSessions {
  private static final Logger LOG = Logger.getLogger(ModelSessions.class.getName());

  /** Makes session options with the embedder's threads and mode at {@code level}. */
  interface Options {
    OrtSession.SessionOptions at(OptLevel level) throws OrtException;
  }

  private ModelSessions() {}

  /**
   * The session of {@code resource} (the model on the class path, {@code name} for messages): on
   * the optimized copy in {@code dir} (the cache directory; null: none) when it can be, else on the
   * model's bytes.
   */
  static OrtSession open(
      OrtEnvironment env, OnnxModel model, URL resource, Path dir, Options options, String name)
      throws OrtException {
    if ("file".equals(resource.getProtocol())) {
      try (OrtSession.SessionOptions o = options.at(OptLevel.ALL_OPT)) {
        return env.createSession(Path.of(resource.toURI()).toString(), o);
      } catch (URISyntaxException | IllegalArgumentException e) {
        LOG.log(Level.FINE, "model " + resource + " is not a plain file; reading its bytes", e);
      }
    }
    byte[] weights = null;
    String stem = dir == null ? null : stem(env, model, resource);
    if (stem != null) {
      Path models = dir.resolve("models");
      try {
        OrtSession cached = openCached(env, models, stem, options);
        if (cached != null) return cached;
        weights = bytes(resource, name);
        write(env, models, model, stem, weights, options);
        cached = openCached(env, models, stem, options);
        if (cached != null) return cached;
      } catch (IOException | OrtException | RuntimeException e) {
        LOG.log(
            Level.FINE, "optimized model cache in " + models + " not usable; reading " + name, e);
      }
    }
    try (OrtSession.SessionOptions o = options.at(OptLevel.ALL_OPT)) {
      return env.createSession(weights != null ? weights : bytes(resource, name), o);
    }
  }

  /**
   * The start of the copy's file name, or null when the model's jar entry does not say its CRC and
   * size (then there is nothing cheap to know a stale copy by).
   */
  static String stem(OrtEnvironment env, OnnxModel model, URL resource) {
    if (!"jar".equals(resource.getProtocol())) return null;
    try {
      JarURLConnection c = (JarURLConnection) resource.openConnection();
      JarEntry entry = c.getJarEntry();
      if (entry == null || entry.getCrc() == -1 || entry.getSize() < 0) return null;
      return String.join(
          "-",
          model.id(),
          String.format(Locale.ROOT, "%08x", entry.getCrc()),
          Long.toString(entry.getSize()),
          "ort" + env.getVersion(),
          System.getProperty("os.arch", "unknown").replaceAll("[^A-Za-z0-9_.]", "_"));
    } catch (IOException | RuntimeException e) {
      LOG.log(Level.FINE, "model " + resource + ": no CRC and size in its jar", e);
      return null;
    }
  }

  /**
   * The session on the copy named {@code stem-<crc32c>.onnx} whose bytes match the CRC-32C in its
   * name, or null when there is none (a copy that does not match is deleted).
   */
  private static OrtSession openCached(
      OrtEnvironment env, Path models, String stem, Options options)
      throws IOException, OrtException {
    if (!Files.isDirectory(models)) return null;
    try (DirectoryStream<Path> files = Files.newDirectoryStream(models, stem + "-*.onnx")) {
      for (Path file : files) {
        String name = file.getFileName().toString();
        String sum = name.substring(stem.length() + 1, name.length() - ".onnx".length());
        MappedByteBuffer bytes = map(file);
        if (bytes != null && sum.equals(crc32c(bytes))) {
          try (OrtSession.SessionOptions o = options.at(OptLevel.ALL_OPT)) {
            return env.createSession(bytes, o);
          }
        }
        LOG.fine("optimized model " + file + " does not match its checksum; deleting it");
        deleteQuietly(file);
      }
    }
    return null;
  }

  /**
   * Writes the optimized copy of {@code weights} as {@code stem-<crc32c>.onnx} and deletes the
   * copies of the model's other versions.
   */
  private static void write(
      OrtEnvironment env,
      Path models,
      OnnxModel model,
      String stem,
      byte[] weights,
      Options options)
      throws IOException, OrtException {
    Files.createDirectories(models);
    Path tmp = Files.createTempFile(models, stem, ".tmp");
    try {
      try (OrtSession.SessionOptions o = options.at(OptLevel.EXTENDED_OPT)) {
        o.setOptimizedModelFilePath(tmp.toString());
        env.createSession(weights, o).close();
      }
      // Read, not mapped: a file mapped on Windows could not be moved.
      CRC32C crc = new CRC32C();
      try (InputStream in = Files.newInputStream(tmp)) {
        byte[] chunk = new byte[1 << 16];
        for (int n; (n = in.read(chunk)) > 0; ) crc.update(chunk, 0, n);
      }
      Path copy = models.resolve(stem + "-" + hex(crc) + ".onnx");
      Files.move(tmp, copy, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } finally {
      deleteQuietly(tmp);
    }
    // The copies of this model made from another jar entry or runtime.
    java.util.regex.Pattern others =
        java.util.regex.Pattern.compile(
            java.util.regex.Pattern.quote(model.id()) + "-[0-9a-f]{8}-[0-9]+-ort.*\\.onnx");
    try (DirectoryStream<Path> files = Files.newDirectoryStream(models, "*.onnx")) {
      for (Path f : files) {
        String n = f.getFileName().toString();
        if (others.matcher(n).matches() && !n.startsWith(stem + "-")) deleteQuietly(f);
      }
    }
  }

  private static void deleteQuietly(Path file) {
    try {
      Files.deleteIfExists(file);
    } catch (IOException e) {
      // A stray file in a cache directory is harmless (on Windows a mapped one cannot go).
      LOG.log(Level.FINE, "cannot delete " + file, e);
    }
  }

  /** The file mapped read-only, or null when it is empty. */
  private static MappedByteBuffer map(Path file) throws IOException {
    try (FileChannel ch = FileChannel.open(file)) {
      long size = ch.size();
      return size == 0 ? null : ch.map(FileChannel.MapMode.READ_ONLY, 0, size);
    }
  }

  private static String crc32c(MappedByteBuffer bytes) {
    CRC32C crc = new CRC32C();
    crc.update(bytes.duplicate());
    return hex(crc);
  }

  private static String hex(CRC32C crc) {
    return String.format(Locale.ROOT, "%08x", crc.getValue());
  }

  static byte[] bytes(URL resource, String name) {
    try (InputStream in = resource.openStream()) {
      return in.readAllBytes();
    } catch (IOException e) {
      throw new dev.mnemo.MnemoException(
          "cannot read " + name + " from the class path: " + e.getMessage(), false, e);
    }
  }
}

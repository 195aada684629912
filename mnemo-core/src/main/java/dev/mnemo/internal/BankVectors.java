package dev.mnemo.internal;

import dev.mnemo.spi.CacheDirectory;
import dev.mnemo.spi.Embedder;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The vectors of the fixed sentence banks ({@code background.txt}, {@code reference.txt}), embedded
 * once per embedder and kept: in this process (every engine of one embedder shares them) and in a
 * cache file, so that a command-line call, a new process each time, does not embed 340 sentences
 * (about 2 s with the local model) before its first recall.
 *
 * <p>The key is the embedder's model id, its dimension and a hash of the sentences, so a changed
 * bank or another model never reads stale vectors. A file is trusted only when its first vector
 * matches the first sentence embedded anew (one short embedding instead of 340): a model replaced
 * under the same id is caught. The file is a cache: when it cannot be read or written the vectors
 * are embedded as if it were not there (a debug line says why), and it is written to a temporary
 * file and moved into place, so a reader never sees half of one.
 *
 * <p>Where: {@link CacheDirectory} (off: the vectors are kept in memory only). Hand-written: a few
 * hundred float arrays in one file need no serialisation library.
 */
final class BankVectors {
  private static final Logger LOG = Logger.getLogger(BankVectors.class.getName());
  private static final int MAGIC = 0x4d4e4256; // "MNBV"
  private static final int VERSION = 1;
  private static final ConcurrentHashMap<String, float[][]> IN_PROCESS = new ConcurrentHashMap<>();

  private BankVectors() {}

  /** The passage vectors of {@code sentences} (the bank named {@code name}) for this embedder. */
  static float[][] of(Embedder embedder, String name, List<String> sentences) {
    String key = key(embedder, name, sentences);
    return IN_PROCESS.computeIfAbsent(key, k -> load(embedder, sentences, file(name, k)));
  }

  /**
   * The vectors, read from {@code file} when it holds this embedder's, else embedded and written.
   */
  static float[][] load(Embedder embedder, List<String> sentences, Path file) {
    if (sentences.isEmpty()) return new float[0][];
    if (file != null && Files.isRegularFile(file)) {
      float[][] cached = read(file, sentences.size(), embedder.dimension());
      if (cached != null && matches(cached[0], embedder.embedPassages(sentences.subList(0, 1)))) {
        return cached;
      }
    }
    float[][] vectors = embedder.embedPassages(sentences).toArray(new float[0][]);
    if (file != null) write(file, vectors);
    return vectors;
  }

  private static boolean matches(float[] cached, List<float[]> fresh) {
    float[] v = fresh.get(0);
    if (v.length != cached.length) return false;
    for (int i = 0; i < v.length; i++) {
      if (Math.abs(v[i] - cached[i]) > 1e-4f) return false;
    }
    return true;
  }

  static String key(Embedder embedder, String name, List<String> sentences) {
    try {
      MessageDigest sha = MessageDigest.getInstance("SHA-256");
      sha.update(
          (embedder.modelId() + "\n" + embedder.dimension() + "\n" + name + "\n")
              .getBytes(StandardCharsets.UTF_8));
      for (String s : sentences) sha.update((s + "\n").getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(sha.digest(), 0, 12);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this Java runtime", e);
    }
  }

  /** The cache file for this key, or null when the cache is off or has no home. */
  static Path file(String name, String key) {
    Path dir = CacheDirectory.get();
    if (dir == null) return null;
    String stem = name.replaceAll("[^A-Za-z0-9]+", "-");
    return dir.resolve("bank-" + stem + "-" + key + ".vec");
  }

  private static float[][] read(Path file, int rows, int dimension) {
    try (InputStream raw = Files.newInputStream(file);
        DataInputStream in = new DataInputStream(new java.io.BufferedInputStream(raw, 1 << 16))) {
      if (in.readInt() != MAGIC || in.readInt() != VERSION) return null;
      if (in.readInt() != rows || in.readInt() != dimension) return null;
      float[][] out = new float[rows][dimension];
      for (float[] row : out) {
        for (int j = 0; j < dimension; j++) row[j] = in.readFloat();
      }
      return out;
    } catch (IOException | RuntimeException e) {
      LOG.log(Level.FINE, "bank vector cache " + file + " unreadable; embedding anew", e);
      return null;
    }
  }

  private static void write(Path file, float[][] vectors) {
    Path tmp = null;
    try {
      Files.createDirectories(file.getParent());
      tmp = Files.createTempFile(file.getParent(), file.getFileName().toString(), ".tmp");
      try (OutputStream raw = Files.newOutputStream(tmp);
          DataOutputStream out =
              new DataOutputStream(new java.io.BufferedOutputStream(raw, 1 << 16))) {
        out.writeInt(MAGIC);
        out.writeInt(VERSION);
        out.writeInt(vectors.length);
        out.writeInt(vectors.length == 0 ? 0 : vectors[0].length);
        for (float[] row : vectors) {
          for (float x : row) out.writeFloat(x);
        }
      }
      Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException | RuntimeException e) {
      LOG.log(Level.FINE, "bank vector cache " + file + " not written", e);
      if (tmp != null) {
        try {
          Files.deleteIfExists(tmp);
        } catch (IOException ignored) {
          // a stray temporary file in a cache directory is harmless
        }
      }
    }
  }
}

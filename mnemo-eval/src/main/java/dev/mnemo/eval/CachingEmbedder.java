package dev.mnemo.eval;

import dev.mnemo.MnemoException;
import dev.mnemo.spi.Embedder;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * An {@link Embedder} that keeps every vector it has computed in a file, so that an evaluation run
 * over the same texts with the same model embeds nothing twice, across runs.
 *
 * <p>Key: the SHA-256 of the kind (query or passage) and the text; the file is {@code DIR/<model
 * id>-<dimension>.vectors}, so another model (or another dimension) never reads this one's vectors.
 * Only models whose vector of a text does not depend on the other texts of its batch may be cached
 * (true of the local e5 and of OpenAI-compatible endpoints). The file is append-only: a header,
 * then records of 32 key bytes and {@code dimension} little-endian floats; new vectors are appended
 * after each call. A torn last record (the process killed during a write) is cut off when the file
 * is opened; a header of another model is an error. The whole cache is held in memory (about 1.6 KB
 * a vector for 384 dimensions). Thread-safe: lookups and appends are synchronized; the inner
 * embedder runs outside the lock.
 *
 * <p>Written by hand: an append-only file of fixed-size records is forty lines, where an embedded
 * key-value store (MapDB, MVStore) would be a dependency for the same thing.
 */
public final class CachingEmbedder implements Embedder {

  private static final int MAGIC = 0x4d4e5643; // "MNVC"
  private static final int VERSION = 1;
  private static final int KEY_BYTES = 32;

  private final Embedder inner;
  private final Path file;
  private final int dimension;
  private final int recordBytes;
  private final Map<Key, float[]> vectors = new HashMap<>();
  private final FileChannel channel;
  private long hits;
  private long misses;
  private final Path dir;
  private CachingEmbedder companion;
  private boolean companionAsked;

  private record Key(byte[] sha) {
    @Override
    public boolean equals(Object o) {
      return o instanceof Key k && Arrays.equals(sha, k.sha);
    }

    @Override
    public int hashCode() {
      return Arrays.hashCode(sha);
    }
  }

  private CachingEmbedder(Embedder inner, Path dir) throws IOException {
    this.inner = inner;
    this.dir = dir;
    this.dimension = inner.dimension();
    this.recordBytes = KEY_BYTES + 4 * dimension;
    Files.createDirectories(dir);
    this.file =
        dir.resolve(
            inner.modelId().replaceAll("[^A-Za-z0-9._-]", "_") + "-" + dimension + ".vectors");
    byte[] header = header(inner.modelId(), dimension);
    if (!Files.exists(file) || Files.size(file) < header.length) {
      Files.write(file, header);
    } else {
      load(header);
    }
    this.channel = FileChannel.open(file, StandardOpenOption.WRITE, StandardOpenOption.APPEND);
  }

  /**
   * Opens (or creates) the cache of {@code inner}'s model in {@code dir}.
   *
   * @throws IllegalArgumentException if the cache file belongs to another model or is not a cache
   * @throws UncheckedIOException if the directory or file cannot be read or written
   */
  public static CachingEmbedder open(Embedder inner, Path dir) {
    Objects.requireNonNull(inner, "inner");
    Objects.requireNonNull(dir, "dir");
    try {
      return new CachingEmbedder(inner, dir);
    } catch (IOException e) {
      throw new UncheckedIOException(
          "cannot open the embedding cache in " + dir + ": " + e.getMessage(), e);
    }
  }

  private static byte[] header(String modelId, int dimension) {
    byte[] id = modelId.getBytes(StandardCharsets.UTF_8);
    return ByteBuffer.allocate(16 + id.length)
        .putInt(MAGIC)
        .putInt(VERSION)
        .putInt(dimension)
        .putInt(id.length)
        .put(id)
        .array();
  }

  private void load(byte[] expected) throws IOException {
    long size = Files.size(file);
    try (InputStream in = Files.newInputStream(file);
        DataInputStream data = new DataInputStream(new java.io.BufferedInputStream(in, 1 << 16))) {
      byte[] header = new byte[expected.length];
      data.readFully(header);
      if (!Arrays.equals(header, expected)) {
        throw new IllegalArgumentException(
            file
                + " is not an embedding cache of "
                + inner.modelId()
                + " with "
                + dimension
                + " dimensions; delete it or choose another cache directory");
      }
      long complete = (size - header.length) / recordBytes;
      byte[] rec = new byte[recordBytes];
      for (long i = 0; i < complete; i++) {
        data.readFully(rec);
        float[] v = new float[dimension];
        ByteBuffer.wrap(rec, KEY_BYTES, 4 * dimension)
            .order(ByteOrder.LITTLE_ENDIAN)
            .asFloatBuffer()
            .get(v);
        vectors.put(new Key(Arrays.copyOf(rec, KEY_BYTES)), v);
      }
      long end = header.length + complete * recordBytes;
      if (end < size) {
        try (FileChannel c = FileChannel.open(file, StandardOpenOption.WRITE)) {
          c.truncate(end); // a torn last record
        }
      }
    } catch (EOFException e) {
      throw new IllegalArgumentException(file + " is shorter than its header says; delete it", e);
    }
  }

  @Override
  public String modelId() {
    return inner.modelId();
  }

  @Override
  public int dimension() {
    return dimension;
  }

  /** The inner embedder's companion, cached in the same directory (its own file). */
  @Override
  public synchronized Embedder companion() {
    if (!companionAsked) {
      companionAsked = true;
      Embedder c = inner.companion();
      if (c != null) companion = open(c, dir);
    }
    return companion;
  }

  @Override
  public double unrelatedSimilarity() {
    return inner.unrelatedSimilarity();
  }

  @Override
  public float[] embedQuery(String text) {
    Key key = key("query", text);
    synchronized (this) {
      float[] v = vectors.get(key);
      if (v != null) {
        hits++;
        return v.clone();
      }
    }
    float[] v = inner.embedQuery(text);
    store(List.of(key), List.of(v));
    return v;
  }

  @Override
  public List<float[]> embedPassages(List<String> texts) {
    Objects.requireNonNull(texts, "texts");
    float[][] out = new float[texts.size()][];
    List<Key> keys = new ArrayList<>(texts.size());
    for (String t : texts) keys.add(key("passage", t));
    List<Integer> missing = new ArrayList<>();
    synchronized (this) {
      for (int i = 0; i < out.length; i++) {
        float[] v = vectors.get(keys.get(i));
        if (v == null) missing.add(i);
        else out[i] = v.clone();
      }
      hits += out.length - missing.size();
    }
    if (!missing.isEmpty()) {
      List<float[]> computed = inner.embedPassages(missing.stream().map(texts::get).toList());
      List<Key> newKeys = new ArrayList<>(missing.size());
      for (int j = 0; j < missing.size(); j++) {
        out[missing.get(j)] = computed.get(j);
        newKeys.add(keys.get(missing.get(j)));
      }
      store(newKeys, computed);
    }
    return Arrays.asList(out);
  }

  private synchronized void store(List<Key> keys, List<float[]> vs) {
    ByteBuffer buf = ByteBuffer.allocate(keys.size() * recordBytes).order(ByteOrder.LITTLE_ENDIAN);
    int added = 0;
    for (int i = 0; i < keys.size(); i++) {
      float[] v = vs.get(i);
      misses++;
      if (v.length != dimension) {
        throw new MnemoException(
            inner.modelId() + " returned " + v.length + " components, expected " + dimension,
            false);
      }
      if (vectors.putIfAbsent(keys.get(i), v.clone()) != null)
        continue; // a repeat within one batch
      buf.put(keys.get(i).sha());
      for (float f : v) buf.putFloat(f);
      added++;
    }
    buf.flip();
    try {
      while (buf.hasRemaining()) channel.write(buf);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot append " + added + " vectors to " + file, e);
    }
  }

  private static Key key(String kind, String text) {
    Objects.requireNonNull(text, "text");
    try {
      MessageDigest sha = MessageDigest.getInstance("SHA-256");
      sha.update(kind.getBytes(StandardCharsets.UTF_8));
      sha.update((byte) 0);
      return new Key(sha.digest(text.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this JVM", e);
    }
  }

  /** Vectors served from the cache so far. */
  public synchronized long hits() {
    return hits;
  }

  /** Vectors the inner embedder computed so far. */
  public synchronized long misses() {
    return misses;
  }

  /** Vectors held (in the file and in memory). */
  public synchronized int size() {
    return vectors.size();
  }

  /** The cache file. */
  public Path file() {
    return file;
  }

  /** Closes the file only: the inner embedder's close closes its companion. */
  private synchronized void closeFileOnly() {
    try {
      channel.close();
    } catch (IOException e) {
      // nothing buffered is lost: every append was written when it was made
    }
  }

  /** Closes the file and the inner embedder. */
  @Override
  public synchronized void close() {
    try {
      if (companion != null) companion.closeFileOnly();
      channel.close();
    } catch (IOException e) {
      // nothing buffered is lost: every append was written when it was made
    } finally {
      inner.close();
    }
  }
}

package dev.mnemo.embed;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The optimized model copy in the cache directory: the same vectors, and never a bad copy used. */
class ModelSessionsIT {

  private static final List<String> TEXTS = new ArrayList<>(E5SmallEmbedderIT.UNRELATED);

  /** Vectors of the session on the model's own bytes (no cache directory), as before the cache. */
  private static List<float[]> reference;

  @BeforeAll
  static void embedWithoutTheCache() {
    TEXTS.add("");
    TEXTS.add("word ".repeat(700)); // cut to 512 tokens
    reference = vectors(null);
  }

  @Test
  void theWrittenCopyAndTheReadCopyGiveTheVectorsOfTheJarsModelBitForBit(@TempDir Path cache)
      throws IOException {
    assertSame(vectors(cache), "the process that writes the copy");
    Path copy = onlyCopy(cache);
    long written = Files.getLastModifiedTime(copy).toMillis();
    assertSame(vectors(cache), "a later process, on the copy");
    assertThat(onlyCopy(cache)).isEqualTo(copy);
    assertThat(Files.getLastModifiedTime(copy).toMillis()).isEqualTo(written);
    assertThat(copy.getFileName().toString())
        .startsWith("e5-small-v2-q-")
        .endsWith("-" + crc32c(copy) + ".onnx");
  }

  @Test
  void aLaterProcessRunsTheCopy(@TempDir Path cache) throws IOException {
    vectors(cache);
    Path copy = onlyCopy(cache);
    // Another valid model of the same shape in its place, under the name its checksum gives: a
    // session that ran the jar's model instead of the copy would still give the reference.
    byte[] bge;
    try (var in = ModelSessionsIT.class.getResourceAsStream("/bge-small-en-v1.5-q.onnx")) {
      bge = in.readAllBytes();
    }
    Files.delete(copy);
    Path replaced = Files.write(copy, bge);
    Path renamed =
        replaced.resolveSibling(
            copy.getFileName().toString().replaceAll("[0-9a-f]{8}\\.onnx$", "")
                + crc32c(replaced)
                + ".onnx");
    Files.move(replaced, renamed);
    List<float[]> got = vectors(cache);
    assertThat(got.get(0)).isNotEqualTo(reference.get(0));
  }

  @Test
  void aDamagedCopyIsNeverUsedButWrittenAnew(@TempDir Path cache) throws IOException {
    vectors(cache);
    Path copy = onlyCopy(cache);
    byte[] bytes = Files.readAllBytes(copy);
    bytes[bytes.length / 2] ^= 0x5a; // a weight, so that the graph still parses
    Files.write(copy, bytes);
    assertSame(vectors(cache), "after the copy was damaged");
    assertThat(crc32c(onlyCopy(cache)))
        .as("the copy was rewritten")
        .isEqualTo(
            onlyCopy(cache).getFileName().toString().replaceAll(".*-([0-9a-f]{8})\\.onnx$", "$1"));
    assertThat(Files.readAllBytes(onlyCopy(cache))).isNotEqualTo(bytes);
  }

  @Test
  void copiesOfTheModelsOtherVersionsAreRemovedWhenANewOneIsWritten(@TempDir Path cache)
      throws IOException {
    Path models = Files.createDirectories(cache.resolve("models"));
    Path older =
        Files.writeString(
            models.resolve("e5-small-v2-q-0badc0de-12-ort1.0.0-amd64-00000000.onnx"), "x");
    Path other =
        Files.writeString(
            models.resolve("bge-small-en-v1.5-q-0badc0de-12-ort1.0.0-amd64-00000000.onnx"), "x");
    vectors(cache);
    assertThat(older).doesNotExist();
    assertThat(other).as("another model's copy").exists();
  }

  @Test
  void anUnusableCacheDirectoryFallsBackToTheJarsModel(@TempDir Path tmp) throws IOException {
    Path notADirectory = Files.writeString(tmp.resolve("file"), "x");
    assertSame(vectors(notADirectory), "with a cache directory that is a file");
  }

  private static void assertSame(List<float[]> got, String when) {
    assertThat(got).as(when).hasSameSizeAs(reference);
    for (int i = 0; i < got.size(); i++) {
      assertThat(got.get(i)).as(when + ", vector " + i).containsExactly(reference.get(i));
    }
  }

  /** Each text's query and passage vector from a new embedder with that cache directory. */
  private static List<float[]> vectors(Path cache) {
    OnnxEmbedder e = new OnnxEmbedder(OnnxModel.E5_SMALL_V2_Q, 2, cache);
    try {
      List<float[]> out = new ArrayList<>();
      for (String t : TEXTS) out.add(e.embedQuery(t));
      out.addAll(e.embedPassages(TEXTS));
      return out;
    } finally {
      e.close();
    }
  }

  private static Path onlyCopy(Path cache) throws IOException {
    try (Stream<Path> files = Files.list(cache.resolve("models"))) {
      List<Path> all = files.toList();
      assertThat(all).as("files in the cache").hasSize(1);
      return all.get(0);
    }
  }

  private static String crc32c(Path file) throws IOException {
    CRC32C crc = new CRC32C();
    crc.update(Files.readAllBytes(file));
    return String.format("%08x", crc.getValue());
  }
}

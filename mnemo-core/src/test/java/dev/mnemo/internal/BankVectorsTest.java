package dev.mnemo.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.spi.Embedder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BankVectorsTest {

  /** A deterministic embedder that counts the texts it embeds; {@code salt} changes its vectors. */
  private static final class Counting implements Embedder {
    final String id;
    final int salt;
    int embedded;

    Counting(String id, int salt) {
      this.id = id;
      this.salt = salt;
    }

    @Override
    public String modelId() {
      return id;
    }

    @Override
    public int dimension() {
      return 8;
    }

    @Override
    public float[] embedQuery(String text) {
      return vector(text);
    }

    @Override
    public List<float[]> embedPassages(List<String> texts) {
      embedded += texts.size();
      List<float[]> out = new ArrayList<>();
      for (String t : texts) out.add(vector(t));
      return out;
    }

    private float[] vector(String text) {
      float[] v = new float[8];
      for (int i = 0; i < text.length(); i++) v[(text.charAt(i) + salt) % 8] += 1;
      return v;
    }
  }

  private static final List<String> BANK =
      List.of("Ana keeps bees.", "Ben drives a van.", "Cleo swims at dawn.", "Dev bakes bread.");

  @Test
  void secondProcess_readsTheFile_andEmbedsOnlyTheCheckSentence(@TempDir Path dir) {
    Path file = dir.resolve("bank.vec");
    Counting first = new Counting("m", 0);
    float[][] a = BankVectors.load(first, BANK, file);
    assertThat(first.embedded).isEqualTo(4);
    assertThat(file).exists();

    Counting second = new Counting("m", 0);
    float[][] b = BankVectors.load(second, BANK, file);
    assertThat(second.embedded).as("one sentence embedded to check the file").isEqualTo(1);
    assertThat(b).isDeepEqualTo(a);
  }

  @Test
  void aModelReplacedUnderTheSameId_isCaught_andTheFileRewritten(@TempDir Path dir) {
    Path file = dir.resolve("bank.vec");
    BankVectors.load(new Counting("m", 0), BANK, file);
    Counting replaced = new Counting("m", 3);
    float[][] got = BankVectors.load(replaced, BANK, file);
    assertThat(replaced.embedded).isEqualTo(1 + 4);
    assertThat(got[2]).isEqualTo(replaced.embedQuery(BANK.get(2)));
    Counting again = new Counting("m", 3);
    BankVectors.load(again, BANK, file);
    assertThat(again.embedded).isEqualTo(1);
  }

  @Test
  void aDamagedFile_isIgnored_andReplaced(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("bank.vec");
    BankVectors.load(new Counting("m", 0), BANK, file);
    byte[] bytes = Files.readAllBytes(file);
    Files.write(file, java.util.Arrays.copyOf(bytes, bytes.length / 2));
    Counting c = new Counting("m", 0);
    float[][] got = BankVectors.load(c, BANK, file);
    assertThat(c.embedded).isEqualTo(4);
    assertThat(got[3]).isEqualTo(c.embedQuery(BANK.get(3)));
    assertThat(Files.size(file)).isEqualTo(bytes.length);
  }

  @Test
  void anUnwritableCache_stillGivesTheVectors(@TempDir Path dir) throws Exception {
    Path notADirectory = dir.resolve("plain-file");
    Files.writeString(notADirectory, "x");
    Counting c = new Counting("m", 0);
    float[][] got = BankVectors.load(c, BANK, notADirectory.resolve("bank.vec"));
    assertThat(got).hasNumberOfRows(4);
    assertThat(BankVectors.load(c, BANK, null)).isDeepEqualTo(got);
  }

  @Test
  void theKey_changesWithModelDimensionAndSentences() {
    String k = BankVectors.key(new Counting("m", 0), "reference.txt", BANK);
    assertThat(BankVectors.key(new Counting("m", 5), "reference.txt", BANK)).isEqualTo(k);
    assertThat(BankVectors.key(new Counting("other", 0), "reference.txt", BANK)).isNotEqualTo(k);
    assertThat(BankVectors.key(new Counting("m", 0), "reference.txt", BANK.subList(0, 3)))
        .isNotEqualTo(k);
    assertThat(BankVectors.key(new Counting("m", 0), "background.txt", BANK)).isNotEqualTo(k);
  }
}

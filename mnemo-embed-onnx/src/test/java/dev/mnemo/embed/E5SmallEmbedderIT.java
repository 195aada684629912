package dev.mnemo.embed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.langchain4j.model.embedding.onnx.e5smallv2q.E5SmallV2QuantizedEmbeddingModel;
import dev.mnemo.InvalidRequestException;
import dev.mnemo.MnemoException;
import dev.mnemo.spi.Embedder;
import dev.mnemo.spi.Providers;
import dev.mnemo.testkit.EmbedderContract;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class E5SmallEmbedderIT extends EmbedderContract {

  /**
   * Twenty everyday sentences on unrelated topics, written for this test: the median cosine between
   * the query of one and the passage of another is {@link OnnxModel#unrelatedSimilarity()}.
   */
  static final List<String> UNRELATED =
      List.of(
          "I need to buy milk and eggs on the way home.",
          "The train to the airport leaves every twenty minutes.",
          "My daughter started piano lessons last week.",
          "Remember to water the tomatoes before it gets too hot.",
          "The dentist appointment was moved to next Thursday.",
          "He prefers his coffee black with no sugar.",
          "Our team lost the football match on Saturday.",
          "The laptop battery drains much faster than it used to.",
          "We are painting the living room a pale shade of green.",
          "She is allergic to cats and dogs.",
          "The library closes early on public holidays.",
          "I finally finished reading that long novel about the war.",
          "The rent is due on the first day of every month.",
          "It rained all weekend, so the picnic was cancelled.",
          "The new phone takes much sharper photos at night.",
          "My grandfather grew up on a farm near the coast.",
          "Please send the invoice to the accounting department.",
          "The soup needs more salt and a little pepper.",
          "We booked a cabin in the mountains for the winter holidays.",
          "The password for the guest wifi changed yesterday.");

  private static E5SmallEmbedder embedder;

  @BeforeAll
  static void load() {
    embedder = new E5SmallEmbedder();
  }

  @AfterAll
  static void release() {
    embedder.close();
  }

  @Override
  protected Embedder embedder() {
    return embedder;
  }

  @Test
  void describesItself() {
    assertThat(embedder.modelId()).isEqualTo("e5-small-v2-q");
    assertThat(embedder.dimension()).isEqualTo(384);
    assertThat(embedder.embedQuery("hello")).hasSize(384);
  }

  @Test
  void unrelatedSimilarityIsTheMedianCosineOfUnrelatedSentences() {
    assertThat(medianUnrelatedCosine(embedder))
        .as("median unrelated cosine; update OnnxModel's unrelated similarity if the model changed")
        .isCloseTo(embedder.unrelatedSimilarity(), Offset.offset(0.05));
  }

  /**
   * The median cosine between the query of one {@link #UNRELATED} sentence and the passage of
   * another.
   */
  static double medianUnrelatedCosine(Embedder embedder) {
    List<float[]> passages = embedder.embedPassages(UNRELATED);
    List<Double> cosines = new ArrayList<>();
    for (int q = 0; q < UNRELATED.size(); q++) {
      float[] query = embedder.embedQuery(UNRELATED.get(q));
      for (int p = 0; p < UNRELATED.size(); p++) {
        if (p != q) cosines.add(dot(query, passages.get(p)));
      }
    }
    Collections.sort(cosines);
    return (cosines.get(cosines.size() / 2 - 1) + cosines.get(cosines.size() / 2)) / 2;
  }

  @Test
  void queriesAndPassagesUseDifferentPrefixes() {
    String text = "the meeting moved to Thursday";
    assertThat(embedder.embedQuery(text))
        .isNotEqualTo(embedder.embedPassages(List.of(text)).get(0));
  }

  @Test
  void agreesWithStockLangchain4j() {
    // Same model, same pooling: our session options, truncation and threading must not change the
    // vectors.
    var stock = new E5SmallV2QuantizedEmbeddingModel();
    for (String text :
        List.of(
            "passage: The cat is sleeping on the sofa.",
            "query: when is the dentist appointment?")) {
      float[] theirs = stock.embed(text).content().vector();
      float[] ours =
          text.startsWith("query: ")
              ? embedder.embedQuery(text.substring("query: ".length()))
              : embedder.embedPassages(List.of(text.substring("passage: ".length()))).get(0);
      assertThat(dot(ours, theirs)).as(text).isGreaterThan(0.9999);
    }
  }

  @Test
  void longTextsAreCutTo512Tokens() {
    String longText = String.join(" ", Collections.nCopies(700, "memory"));
    assertThat(embedder.tokenCount(E5SmallEmbedder.PASSAGE_PREFIX + longText)).isEqualTo(512);
    // Both are cut to the same 512 tokens, so they embed alike; the model itself would fail past
    // 512.
    String longer = longText + " " + String.join(" ", Collections.nCopies(300, "different"));
    List<float[]> v = embedder.embedPassages(List.of(longText, longer));
    assertThat(v.get(1)).containsExactly(v.get(0));
  }

  @Test
  void emptyTextsStillEmbed() {
    // The prefix alone is a valid input; refusing empty text is the engine's call, not the model's.
    assertThat(embedder.embedQuery("")).hasSize(384);
    assertThat(embedder.embedPassages(List.of("", " "))).hasSize(2);
  }

  @Test
  void manyPassagesKeepTheirOrderAcrossWorkers() {
    List<String> texts = new ArrayList<>();
    for (int i = 0; i < 40; i++)
      texts.add(UNRELATED.get(i % UNRELATED.size()) + " (note " + i + ")");
    List<float[]> all = embedder.embedPassages(texts);
    for (int i : new int[] {0, 7, 19, 39}) {
      assertThat(all.get(i)).containsExactly(embedder.embedPassages(List.of(texts.get(i))).get(0));
    }
  }

  @Test
  void refusesNulls() {
    assertThatThrownBy(() -> embedder.embedQuery(null)).isInstanceOf(InvalidRequestException.class);
    assertThatThrownBy(() -> embedder.embedPassages(Arrays.asList("a", null)))
        .isInstanceOf(InvalidRequestException.class)
        .hasMessageContaining("texts[1]");
  }

  @Test
  void keepsDjlOffline() {
    assertThat(System.getProperty("ai.djl.offline")).isEqualTo("true");
    assertThat(System.getProperty("OPT_OUT_TRACKING")).isEqualTo("true");
  }

  @Test
  void isFoundByNameAndFailsClearlyOnceClosed() {
    assertThat(Providers.hasEmbedder("e5-small-v2-q")).isTrue();
    Embedder e = Providers.embedder("e5-small-v2-q", Map.of("threads", "1"));
    float[] v = e.embedPassages(List.of("hello there")).get(0);
    assertThat(v).containsExactly(embedder.embedPassages(List.of("hello there")).get(0));
    e.close();
    e.close(); // idempotent
    assertThatThrownBy(() -> e.embedQuery("hello"))
        .isInstanceOf(MnemoException.class)
        .hasMessageContaining("closed")
        .matches(x -> !((MnemoException) x).retriable());
  }

  @Test
  void refusesABadThreadCount() {
    assertThatThrownBy(() -> Providers.embedder("e5-small-v2-q", Map.of("threads", "0")))
        .isInstanceOf(InvalidRequestException.class)
        .hasMessageContaining("threads");
  }
}

package dev.mnemo.embed;

import static org.assertj.core.api.Assertions.assertThat;

import dev.langchain4j.model.embedding.EmbeddingModel;
import dev.mnemo.spi.Embedder;
import dev.mnemo.testkit.EmbedderContract;
import java.util.Collections;
import java.util.List;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The checks every selectable {@link OnnxModel} besides e5 passes (e5 has its own, older, {@link
 * E5SmallEmbedderIT}): the embedder contract, agreement with the model's stock LangChain4j class,
 * the recorded unrelated similarity, truncation.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class OnnxModelTests extends EmbedderContract {

  private OnnxEmbedder embedder;

  abstract OnnxModel model();

  /** The model's stock LangChain4j class, which embeds texts exactly as given, no prefix. */
  abstract EmbeddingModel stock();

  @BeforeAll
  void load() {
    embedder = new OnnxEmbedder(model());
  }

  @AfterAll
  void release() {
    embedder.close();
  }

  @Override
  protected Embedder embedder() {
    return embedder;
  }

  @Test
  void describesItself() {
    assertThat(embedder.modelId()).isEqualTo(model().id());
    assertThat(embedder.dimension()).isEqualTo(384);
    assertThat(embedder.embedQuery("hello")).hasSize(384);
  }

  @Test
  void unrelatedSimilarityIsTheMedianCosineOfUnrelatedSentences() {
    double median = E5SmallEmbedderIT.medianUnrelatedCosine(embedder);
    System.out.printf("%s median unrelated cosine %.4f%n", model().id(), median);
    assertThat(median)
        .as("median unrelated cosine; update OnnxModel's unrelated similarity if the model changed")
        .isCloseTo(embedder.unrelatedSimilarity(), Offset.offset(0.05));
  }

  @Test
  void agreesWithStockLangchain4j() {
    // Same weights and pooling: our session options, truncation and threading must not change the
    // vectors. The stock class adds no prefix, so the prefix goes into its input.
    EmbeddingModel stock = stock();
    String passage = "The cat is sleeping on the sofa.";
    String query = "when is the dentist appointment?";
    float[] theirs = stock.embed(model().passagePrefix() + passage).content().vector();
    assertThat(dot(embedder.embedPassages(List.of(passage)).get(0), theirs)).isGreaterThan(0.9999);
    theirs = stock.embed(model().queryPrefix() + query).content().vector();
    assertThat(dot(embedder.embedQuery(query), theirs)).isGreaterThan(0.9999);
  }

  @Test
  void longTextsAreCutToTheModelsLength() {
    String longText = String.join(" ", Collections.nCopies(model().maxTokens() + 100, "memory"));
    assertThat(embedder.tokenCount(model().passagePrefix() + longText))
        .isEqualTo(model().maxTokens());
    String longer = longText + " " + String.join(" ", Collections.nCopies(300, "different"));
    List<float[]> v = embedder.embedPassages(List.of(longText, longer));
    assertThat(v.get(1)).containsExactly(v.get(0));
  }
}

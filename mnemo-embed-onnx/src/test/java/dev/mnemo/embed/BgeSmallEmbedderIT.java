package dev.mnemo.embed;

import static org.assertj.core.api.Assertions.assertThat;

import dev.langchain4j.model.embedding.EmbeddingModel;
import dev.langchain4j.model.embedding.onnx.bgesmallenv15q.BgeSmallEnV15QuantizedEmbeddingModel;
import java.util.List;
import org.junit.jupiter.api.Test;

class BgeSmallEmbedderIT extends OnnxModelTests {
  @Override
  OnnxModel model() {
    return OnnxModel.BGE_SMALL_EN_V15_Q;
  }

  @Override
  EmbeddingModel stock() {
    return new BgeSmallEnV15QuantizedEmbeddingModel();
  }

  @Test
  void queriesCarryTheRetrievalInstructionAndPassagesNothing() {
    String text = "the meeting moved to Thursday";
    assertThat(embedder().embedQuery(text))
        .isNotEqualTo(embedder().embedPassages(List.of(text)).get(0));
  }
}

package dev.mnemo.embed;

import static org.assertj.core.api.Assertions.assertThat;

import dev.langchain4j.model.embedding.EmbeddingModel;
import dev.langchain4j.model.embedding.onnx.allminilml6v2q.AllMiniLmL6V2QuantizedEmbeddingModel;
import java.util.List;
import org.junit.jupiter.api.Test;

class MiniLmEmbedderIT extends OnnxModelTests {
  @Override
  OnnxModel model() {
    return OnnxModel.ALL_MINILM_L6_V2_Q;
  }

  @Override
  EmbeddingModel stock() {
    return new AllMiniLmL6V2QuantizedEmbeddingModel();
  }

  @Test
  void queriesAndPassagesEmbedAlike() {
    String text = "the meeting moved to Thursday";
    assertThat(embedder().embedQuery(text))
        .containsExactly(embedder().embedPassages(List.of(text)).get(0));
  }
}

package dev.mnemo.spi;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ForwardingEmbedderTest {

  @Test
  void everyMethodOfTheInterfaceIsOverridden() {
    List<String> missing = new ArrayList<>();
    for (Method m : Embedder.class.getMethods()) {
      if (Modifier.isStatic(m.getModifiers())) continue;
      try {
        ForwardingEmbedder.class.getDeclaredMethod(m.getName(), m.getParameterTypes());
      } catch (NoSuchMethodException e) {
        missing.add(m.toString());
      }
    }
    assertThat(missing).as("Embedder methods ForwardingEmbedder does not forward").isEmpty();
  }

  @Test
  void aSharedViewForwardsTheCompanionSharedAndClosesNothing() {
    List<String> closed = new ArrayList<>();
    class Model implements Embedder {
      final String id;
      final Embedder companion;

      Model(String id, Embedder companion) {
        this.id = id;
        this.companion = companion;
      }

      @Override
      public String modelId() {
        return id;
      }

      @Override
      public int dimension() {
        return 2;
      }

      @Override
      public float[] embedQuery(String text) {
        return new float[] {1, 0};
      }

      @Override
      public List<float[]> embedPassages(List<String> texts) {
        return texts.stream().map(t -> new float[] {0, 1}).toList();
      }

      @Override
      public Embedder companion() {
        return companion;
      }

      @Override
      public void close() {
        closed.add(id);
      }
    }
    Embedder shared = Embedder.shared(new Model("main", new Model("second", null)));
    assertThat(shared.modelId()).isEqualTo("main");
    assertThat(shared.companion().modelId()).isEqualTo("second");
    shared.companion().close();
    shared.close();
    assertThat(closed).isEmpty();
  }
}

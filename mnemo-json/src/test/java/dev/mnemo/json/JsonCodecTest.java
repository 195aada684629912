package dev.mnemo.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JsonCodecTest {
  @Test
  void noMapperIsShared_onlyImmutableReadersAndWriters() {
    for (Field f : JsonCodec.class.getDeclaredFields()) {
      if (Modifier.isPublic(f.getModifiers())) {
        assertThat(Modifier.isFinal(f.getModifiers())).as(f.getName()).isTrue();
        assertThat(ObjectMapper.class.isAssignableFrom(f.getType())).as(f.getName()).isFalse();
      }
    }
    assertThat(Arrays.stream(JsonCodec.class.getMethods()).map(m -> m.getReturnType()))
        .noneMatch(ObjectMapper.class::isAssignableFrom);
  }

  @Test
  void readerAndWriter_roundTrip_andTheStrictReaderRefusesWhatTheOtherTolerates() throws Exception {
    var tree = JsonCodec.READER.readTree("{\"a\":[1,\"x\"]}");
    assertThat(JsonCodec.WRITER.writeValueAsString(tree)).isEqualTo("{\"a\":[1,\"x\"]}");
    assertThat(JsonCodec.PRETTY.writeValueAsString(tree)).contains("\n");
    assertThat(JsonCodec.READER.readTree("{\"a\":1,\"a\":2}").get("a").asInt()).isEqualTo(2);
    assertThatThrownBy(() -> JsonCodec.STRICT_READER.readTree("{\"a\":1,\"a\":2}"))
        .isInstanceOf(JsonProcessingException.class)
        .hasMessageContaining("Duplicate field 'a'");
    assertThatThrownBy(() -> JsonCodec.STRICT_READER.readTree("{} {}"))
        .isInstanceOf(JsonProcessingException.class);
  }

  @Test
  void treesAndConversions() {
    assertThat(JsonCodec.tree(Map.of("k", List.of(1, 2))).toString()).isEqualTo("{\"k\":[1,2]}");
    Map<String, Object> m =
        JsonCodec.convert(
            JsonCodec.object().put("k", "v"), new TypeReference<Map<String, Object>>() {});
    assertThat(m).isEqualTo(Map.of("k", "v"));
    assertThat(JsonCodec.array().add(1).toString()).isEqualTo("[1]");
    assertThat(JsonCodec.nullNode().isNull()).isTrue();
  }

  @Test
  void read_parsesAFile(@TempDir Path dir) throws Exception {
    Path f = dir.resolve("x.json");
    Files.writeString(f, "{\"ok\":true}", StandardCharsets.UTF_8);
    assertThat(JsonCodec.read(f).get("ok").asBoolean()).isTrue();
  }
}

package dev.mnemo.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.mnemo.json.JsonCodec;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The README's Server section against the server: its route table, its settings example. */
class ReadmeTest {
  private static final Path README = Path.of("../README.md");

  /** A route in a table cell: `GET /v1/owners?q=&offset=` is GET /v1/owners. */
  private static final Pattern ROUTE =
      Pattern.compile("`(GET|POST|PUT|PATCH|DELETE) (/[^`?\\s]*)[^`]*`");

  @Test
  void theRouteTable_listsExactlyTheRoutesOfTheOpenApiDocument() throws Exception {
    Set<String> readme = new TreeSet<>();
    boolean inTable = false;
    for (String line : section("Server")) {
      if (line.startsWith("| route |")) inTable = true;
      else if (inTable && !line.startsWith("|")) break;
      else if (inTable && !line.startsWith("|---")) {
        String firstCell = line.substring(1, line.indexOf('|', 1));
        Matcher m = ROUTE.matcher(firstCell);
        while (m.find()) readme.add(m.group(1) + " " + m.group(2));
      }
    }
    assertThat(readme).isNotEmpty();
    JsonNode spec;
    try (InputStream in = MnemoServer.class.getResourceAsStream("openapi.json")) {
      spec = JsonCodec.READER.readTree(in);
    }
    Set<String> documented = new TreeSet<>();
    for (Map.Entry<String, JsonNode> path : spec.get("paths").properties()) {
      path.getValue()
          .fieldNames()
          .forEachRemaining(method -> documented.add(method.toUpperCase() + " " + path.getKey()));
    }
    assertThat(readme).isEqualTo(documented);
  }

  @Test
  void theSettingsExample_loadsAsItSays(@TempDir Path dir) throws Exception {
    List<String> lines = section("Server");
    int start = -1;
    for (int i = 0; i < lines.size() && start < 0; i++)
      if (lines.get(i).startsWith("```yaml")) start = i;
    assertThat(start).isNotNegative();
    StringBuilder yaml = new StringBuilder();
    for (int i = start + 1; !lines.get(i).startsWith("```"); i++)
      yaml.append(lines.get(i)).append('\n');
    Path file = Files.writeString(dir.resolve("mnemo.yaml"), yaml);
    ServerConfig c = ServerConfig.load(file, Map.of(), Map.of());
    assertThat(c.port()).isEqualTo(8080);
    assertThat(c.data()).isEqualTo(Path.of("/var/lib/mnemo"));
    assertThat(c.maxBatchRecords()).isEqualTo(128);
    assertThat(c.traceTenants()).containsExactly("acme");
  }

  /** The lines of the README section with this heading, up to the next heading of its level. */
  private static List<String> section(String heading) throws Exception {
    List<String> all = Files.readAllLines(README);
    int from = all.indexOf("## " + heading);
    assertThat(from).as("README section " + heading).isNotNegative();
    int to = from + 1;
    while (to < all.size() && !all.get(to).startsWith("## ")) to++;
    return all.subList(from, to);
  }
}

package dev.mnemo.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.server.ServerConfig;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** What a new user meets when {@code serve} cannot start, and in its help. */
class ServeCommandTest {
  @TempDir Path dir;
  @RegisterExtension final StdStreams std = new StdStreams();

  @Test
  void portInUse_isOneLineSuggestingPort_andWritesNoAdminKey() throws Exception {
    try (ServerSocket busy = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      String port = String.valueOf(busy.getLocalPort());
      Path data = dir.resolve("server");

      assertThat(Main.run("serve", "--port", port, "--data", data.toString(), "--embedder", "none"))
          .isEqualTo(1);
      assertThat(std.err.toString().strip())
          .isEqualTo(
              "error: cannot listen on 127.0.0.1:"
                  + port
                  + " (the port is in use, perhaps by another mnemo serve): choose another with --port N (0 picks a free one)");
      assertThat(data.resolve("keys.json")).doesNotExist(); // no key generated that nobody saw
    }
  }

  @Test
  void adminKeyNotice_showsAGeneratedKey_elseWhereTheStoredOneCameFromAndHowToReplaceIt() {
    ServerConfig c = ServerConfig.load(null, Map.of(), Map.of("data", dir.toString()));
    assertThat(ServeCommand.adminKeyNotice("mnemo_abc_def", c))
        .hasValueSatisfying(l -> assertThat(l).endsWith(": mnemo_abc_def"));
    assertThat(ServeCommand.adminKeyNotice(null, c))
        .hasValueSatisfying(
            l ->
                assertThat(l)
                    .contains("the one printed at the first start")
                    .contains("keys.json")
                    .contains("MNEMO_ADMIN_KEY"));
    ServerConfig withEnv =
        ServerConfig.load(
            null,
            Map.of("MNEMO_ADMIN_KEY", "0123456789abcdef0123456789abcdef"),
            Map.of("data", dir.toString()));
    assertThat(ServeCommand.adminKeyNotice(null, withEnv)).isEmpty();
  }

  @Test
  void serveHelp_statesTheServersDefaultDataDirectory() {
    assertThat(Main.run("serve", "--help")).isZero();
    assertThat(std.out.toString()).contains("default .mnemo/server").doesNotContain(".mnemo/data");
  }
}

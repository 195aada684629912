package dev.mnemo.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ServerConfigTest {
  @TempDir Path dir;

  @Test
  void noFile_noEnv_givesTheDefaults() {
    ServerConfig c = ServerConfig.load(null, Map.of(), Map.of());
    assertThat(c).isEqualTo(ServerConfig.defaults());
    assertThat(c.port()).isEqualTo(8080);
    assertThat(c.host()).isEqualTo("127.0.0.1");
    assertThat(c.data()).isEqualTo(Path.of(".mnemo/server"));
    assertThat(c.groupCommit()).isTrue();
  }

  @Test
  void capacity_isReadFromFileAndEnvironment_derivedWhenZero_andBadValuesNamed() throws Exception {
    Path f = dir.resolve("capacity.yaml");
    Files.writeString(
        f,
        """
        tenants:
          max_open: 12
        limits:
          idle_timeout_ms: 500
        """);
    ServerConfig c = ServerConfig.load(f, Map.of("MNEMO_LIMITS_MAX_CONNECTIONS", "40"), Map.of());
    assertThat(c.capacity()).isEqualTo(new ServerConfig.Capacity(12, 40, Duration.ofMillis(500)));
    assertThat(ServerConfig.defaults().capacity()).isEqualTo(ServerConfig.Capacity.DERIVED);
    assertThat(Descriptors.maxOpenTenants(12, 20_000)).isEqualTo(12);
    assertThat(Descriptors.maxOpenTenants(0, 20_000)).isEqualTo(625);
    assertThat(Descriptors.maxOpenTenants(0, 256)).isEqualTo(8);
    assertThat(Descriptors.maxOpenTenants(0, 1L << 30)).isEqualTo(Descriptors.MAX_DERIVED_TENANTS);
    assertThat(Descriptors.maxConnections(0, 20_000)).isEqualTo(5_000);
    assertThat(Descriptors.maxConnections(0, 100)).isEqualTo(64);
    assertThat(Descriptors.pressure(17_999, 20_000)).isNull();
    assertThat(Descriptors.pressure(18_000, 20_000)).contains("18000 of the limit 20000");
    assertThat(Descriptors.pressure(-1, 20_000)).as("unknown: no verdict").isNull();
    assertThatThrownBy(
            () -> ServerConfig.load(null, Map.of("MNEMO_TENANTS_MAX_OPEN", "-1"), Map.of()))
        .hasMessageContaining("tenants.max_open must be >= 0, was -1");
    assertThatThrownBy(
            () -> ServerConfig.load(null, Map.of(), Map.of("limits.idle_timeout_ms", "10")))
        .hasMessageContaining("limits.idle_timeout_ms must be >= 100");
  }

  @Test
  void diskThresholds_areReadFromFileAndEnvironment_andBadValuesNamed() throws Exception {
    assertThat(ServerConfig.defaults().disk())
        .isEqualTo(new ServerConfig.Disk(16L << 20, 1L << 30))
        .isEqualTo(ServerConfig.Disk.DEFAULT);
    Path f = dir.resolve("disk.yaml");
    Files.writeString(
        f,
        """
        disk:
          min_free_bytes: 1_048_576
          warn_free_bytes: 67108864
        """);
    assertThat(ServerConfig.load(f, Map.of(), Map.of()).disk())
        .isEqualTo(new ServerConfig.Disk(1L << 20, 64L << 20));
    assertThat(
            ServerConfig.load(f, Map.of("MNEMO_DISK_WARN_FREE_BYTES", "2097152"), Map.of()).disk())
        .isEqualTo(new ServerConfig.Disk(1L << 20, 2L << 20));
    assertThat(ServerConfig.load(null, Map.of("MNEMO_DISK_MIN_FREE_BYTES", "0"), Map.of()).disk())
        .as("0: refuse only what the file system refuses")
        .isEqualTo(new ServerConfig.Disk(0, 1L << 30));
    assertThat(ServerConfig.defaults().withDisk(new ServerConfig.Disk(5, 10)).toString())
        .contains("disk_min_free_bytes=5", "disk_warn_free_bytes=10");

    assertThatThrownBy(
            () -> ServerConfig.load(null, Map.of("MNEMO_DISK_MIN_FREE_BYTES", "16MB"), Map.of()))
        .hasMessageContaining("disk.min_free_bytes must be an integer, was '16MB'")
        .hasMessageContaining("environment variable MNEMO_DISK_MIN_FREE_BYTES");
    assertThatThrownBy(
            () -> ServerConfig.load(null, Map.of("MNEMO_DISK_MIN_FREE_BYTES", "-1"), Map.of()))
        .hasMessageContaining("disk.min_free_bytes must be >= 0, was -1");
    Path low = dir.resolve("low.yaml");
    Files.writeString(
        low,
        """
        disk:
          min_free_bytes: 2000
          warn_free_bytes: 1000
        """);
    assertThatThrownBy(() -> ServerConfig.load(low, Map.of(), Map.of()))
        .hasMessageContaining(
            "disk.warn_free_bytes must be >= disk.min_free_bytes (2000), was 1000");
    Path typo = dir.resolve("typo.yaml");
    Files.writeString(typo, "disk:\n  min_free: 10\n");
    assertThatThrownBy(() -> ServerConfig.load(typo, Map.of(), Map.of()))
        .hasMessageContaining("unknown setting 'disk.min_free'");
  }

  @Test
  void file_thenEnvironment_thenOverrides_laterWins() throws Exception {
    Path f = dir.resolve("mnemo.yaml");
    Files.writeString(
        f,
        """
        port: 9000
        data: /srv/mnemo
        limits:
          max_batch_records: 64
        group_commit:
          max_wait_ms: 2
        log:
          trace_tenants: [acme, beta]
        """);
    ServerConfig c =
        ServerConfig.load(
            f,
            Map.of(
                "MNEMO_PORT",
                "9100",
                "MNEMO_LIMITS_MAX_TEXT_CHARS",
                "4000",
                "MNEMO_ADMIN_KEY",
                "s3cret-admin-key-0123456789abcdef"),
            Map.of("port", "9200"));
    assertThat(c.port()).isEqualTo(9200);
    assertThat(c.data()).isEqualTo(Path.of("/srv/mnemo"));
    assertThat(c.maxBatchRecords()).isEqualTo(64);
    assertThat(c.maxTextChars()).isEqualTo(4000);
    assertThat(c.groupCommitMaxWait()).isEqualTo(Duration.ofMillis(2));
    assertThat(c.traceTenants()).isEqualTo(Set.of("acme", "beta"));
    assertThat(c.adminKey()).isEqualTo("s3cret-admin-key-0123456789abcdef");
    assertThat(c.toString()).doesNotContain("s3cret");
  }

  @Test
  void aShortAdminKey_isRefused_naming_theMinimum() {
    assertThatThrownBy(() -> ServerConfig.load(null, Map.of("MNEMO_ADMIN_KEY", "x"), Map.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("at least 32 characters");
  }

  @Test
  void unknownKeys_badValues_andSecretsInTheFile_areRefusedByName() throws Exception {
    Path f = dir.resolve("bad.yaml");
    Files.writeString(f, "limits:\n  max_batch: 5\n");
    assertThatThrownBy(() -> ServerConfig.load(f, Map.of(), Map.of()))
        .hasMessageContaining("limits.max_batch");
    Files.writeString(f, "admin_key: x\n");
    assertThatThrownBy(() -> ServerConfig.load(f, Map.of(), Map.of()))
        .hasMessageContaining("MNEMO_ADMIN_KEY");
    assertThatThrownBy(() -> ServerConfig.load(null, Map.of("MNEMO_PORT", "eighty"), Map.of()))
        .hasMessageContaining("port")
        .hasMessageContaining("eighty")
        .hasMessageContaining("MNEMO_PORT");
    assertThatThrownBy(
            () -> ServerConfig.load(null, Map.of("MNEMO_GROUP_COMMIT_ENABLED", "maybe"), Map.of()))
        .hasMessageContaining("group_commit.enabled");
    assertThatThrownBy(() -> ServerConfig.load(null, Map.of(), Map.of("port", "70000")))
        .hasMessageContaining("port");
  }

  @Test
  void everyKeyHasAnEnvironmentVariable() {
    for (String k : ServerConfig.KEYS) assertThat(ServerConfig.envName(k)).matches("MNEMO_[A-Z_]+");
    assertThat(ServerConfig.envName("limits.max_request_bytes"))
        .isEqualTo("MNEMO_LIMITS_MAX_REQUEST_BYTES");
  }
}

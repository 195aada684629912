package dev.mnemo.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A disk that fills and empties, on a real small file system: a 32 MB tmpfs mounted by the test
 * (root only; skipped, saying why, where it cannot mount). A ballast file leaves a few megabytes;
 * writes go on until the disk refuses them. Refusals are 507 with {@code Retry-After} and their own
 * problem type, readiness says "disk full" with the path, and retries faster than the reopen
 * back-off (set to a minute here) do not keep the tenant failed: once the ballast is deleted the
 * very next write succeeds. Every write acknowledged before, during and after is there, also after
 * a restart.
 */
class DiskFullIT {
  @TempDir Path dir;
  private Path mount;
  private boolean mounted;

  @BeforeEach
  void mountTmpfs() throws Exception {
    mount = dir.resolve("small");
    Files.createDirectories(mount);
    String why;
    try {
      Process p =
          new ProcessBuilder("mount", "-t", "tmpfs", "-o", "size=32m", "tmpfs", mount.toString())
              .redirectErrorStream(true)
              .start();
      boolean done = p.waitFor(20, TimeUnit.SECONDS);
      String out = new String(p.getInputStream().readAllBytes()).strip();
      mounted = done && p.exitValue() == 0;
      why = done ? "mount exited " + p.exitValue() + ": " + out : "mount did not finish in 20 s";
    } catch (IOException e) {
      why = "cannot run mount: " + e.getMessage();
    }
    Assumptions.assumeTrue(
        mounted, "needs a 32 MB tmpfs mounted by the test (root, mount(8)); " + why);
  }

  @AfterEach
  void unmount() throws Exception {
    if (mounted)
      new ProcessBuilder("umount", "-l", mount.toString()).start().waitFor(20, TimeUnit.SECONDS);
  }

  private static TestServer server(Path data) {
    return new TestServer(
        data,
        c -> c.withDisk(new ServerConfig.Disk(512L << 10, 4L << 20)),
        b -> b.reopenBackoff(Duration.ofMinutes(1)));
  }

  private static String batch(int n, int from) {
    StringBuilder b = new StringBuilder("{\"records\":[");
    for (int i = 0; i < n; i++) {
      if (i > 0) b.append(',');
      // distinct words per record (about 3,000 characters): no two records are near-duplicates
      java.util.Random words = new java.util.Random(from + i);
      b.append("{\"owner\":\"o\",\"text\":\"record ").append(from + i);
      for (int w = 0; w < 300; w++)
        b.append(" w").append(Integer.toString(words.nextInt(1 << 24), 36));
      b.append("\"}");
    }
    return b.append("]}").toString();
  }

  @Test
  void aFullDisk_answers507_readinessSaysSo_andTheFirstWriteAfterSpaceReturnsSucceeds()
      throws Exception {
    Path data = mount.resolve("data");
    Path ballast = mount.resolve("ballast");
    List<String> acked = new ArrayList<>();
    try (TestServer s = server(data)) {
      String key = s.key("acme");
      TestServer.Response first = s.send("POST", "/v1/memories", key, batch(4, 0));
      assertThat(first.status()).as(first.toString()).isEqualTo(201);
      first.json().get("ids").forEach(id -> acked.add(id.asText()));
      long free = Files.getFileStore(mount).getUsableSpace();
      try (OutputStream out = Files.newOutputStream(ballast)) {
        byte[] mb = new byte[1 << 20];
        for (long left = free - (2L << 20); left > 0; left -= mb.length)
          out.write(mb, 0, (int) Math.min(mb.length, left));
      }

      TestServer.Response refused = null;
      int written = 4;
      for (int i = 0; i < 400 && refused == null; i++) {
        TestServer.Response r = s.send("POST", "/v1/memories", key, batch(8, written));
        if (r.status() == 201) {
          r.json().get("ids").forEach(id -> acked.add(id.asText()));
          written += 8;
        } else {
          refused = r;
        }
      }
      assertThat(refused).as("the disk filled within 400 batches").isNotNull();
      assertThat(refused.status()).as(refused.toString()).isEqualTo(507);
      assertThat(refused.contentType()).startsWith(Problems.CONTENT_TYPE);
      JsonNode p = refused.json();
      assertThat(p.get("type").asText()).isEqualTo(Problems.TYPE_PREFIX + "insufficient-storage");
      assertThat(p.get("detail").asText()).contains("disk full", "nothing was written");
      assertThat(p.get("disk").get("path").asText()).startsWith(mount.toString());
      assertThat(refused.headers().firstValue("Retry-After")).isPresent();

      TestServer.Response ready = s.send("GET", "/health/ready", null, null);
      assertThat(ready.status()).isEqualTo(200);
      assertThat(ready.json().get("disk").get("state").asText()).isEqualTo("full");
      // the thresholds are the configuration's (disk.min_free_bytes, disk.warn_free_bytes)
      assertThat(ready.json().get("disk").get("min_free_bytes").asLong()).isEqualTo(512L << 10);
      assertThat(ready.json().get("disk").get("warn_free_bytes").asLong()).isEqualTo(4L << 20);
      assertThat(ready.json().get("disk").get("message").asText())
          .contains("disk full", mount.toString());
      // without a key nothing names a tenant; the admin key's answer says which and why
      assertThat(ready.json().get("tenants_failed").asInt()).isEqualTo(1);
      assertThat(ready.json().has("failed_tenants")).isFalse();
      JsonNode admin = s.send("GET", "/health/ready", TestServer.ADMIN, null).json();
      assertThat(admin.get("failed_tenants").findValuesAsText("failure"))
          .containsExactly("disk-full");
      assertThat(admin.get("failed_tenants").findValuesAsText("error").get(0))
          .contains("disk full", mount.toString());

      // Clients retrying faster than the back-off: every retry is a 507, none a 500, and reads go
      // on.
      for (int i = 0; i < 5; i++) {
        TestServer.Response r = s.send("POST", "/v1/memories", key, batch(1, 100_000 + i));
        assertThat(r.status()).as(r.toString()).isEqualTo(507);
        assertThat(s.send("GET", "/v1/owners/o/memories/" + acked.get(0), key, null).status())
            .isEqualTo(200);
      }

      Files.delete(ballast);
      TestServer.Response healed = s.send("POST", "/v1/memories", key, batch(1, 200_000));
      assertThat(healed.status())
          .as("the first write after space returned, with a 1 min back-off: " + healed)
          .isEqualTo(201);
      acked.add(healed.json().get("ids").get(0).asText());
      TestServer.Response after = s.send("GET", "/health/ready", TestServer.ADMIN, null);
      assertThat(after.json().get("failed_tenants")).isEmpty();
      assertThat(after.json().get("disk").get("state").asText()).isNotEqualTo("full");

      for (String id : acked) {
        assertThat(s.send("GET", "/v1/owners/o/memories/" + id, key, null).status())
            .as("acknowledged " + id)
            .isEqualTo(200);
      }
    }
    try (TestServer s = server(data)) {
      String key = s.key("acme");
      for (String id : acked) {
        assertThat(s.send("GET", "/v1/owners/o/memories/" + id, key, null).status())
            .as("acknowledged " + id + ", after a restart")
            .isEqualTo(200);
      }
    }
  }
}

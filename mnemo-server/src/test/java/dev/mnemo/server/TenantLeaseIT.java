package dev.mnemo.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every REST request gives back its lease on the tenant's store when it ends, whether it succeeded,
 * was refused or streamed: after the requests, the idle close (every store idle after 1 ns) closes
 * the tenant; a lease left behind would keep it open.
 */
class TenantLeaseIT {
  @TempDir Path dir;

  @Test
  void requestsOfEveryOutcome_releaseTheirLease_soTheIdleCloseClosesTheTenant() {
    try (TestServer s = new TestServer(dir, c -> c.withTenantIdle(Duration.ofNanos(1)), b -> b)) {
      String key = s.key("t");
      assertThat(
              s.send(
                      "POST",
                      "/v1/memories",
                      key,
                      "{\"owner\":\"o\",\"text\":\"Maya's dog is called Biscuit.\"}")
                  .status())
          .isEqualTo(201);
      assertThat(s.send("POST", "/v1/memories", key, "{\"owner\":\"o\"}").status()).isEqualTo(422);
      assertThat(s.send("GET", "/v1/owners/o/memories/no-such-id", key, null).status())
          .isEqualTo(404);
      assertThat(s.send("POST", "/v1/recall", key, "{\"owner\":\"o\",\"query\":\"dog\"}").status())
          .isEqualTo(200);
      assertThat(s.send("GET", "/v1/export", key, null).status()).isEqualTo(200);
      assertThat(openTenants(s)).isEqualTo(1);

      s.server.closeIdleTenants();
      assertThat(openTenants(s)).as("no request kept its lease").isZero();
      // and the next request reopens it
      assertThat(s.send("GET", "/v1/owners/o/export", key, null).body()).contains("Biscuit");
    }
  }

  private static int openTenants(TestServer s) {
    return s.send("GET", "/health/ready", null, null).json().get("tenants_open").asInt();
  }
}

package dev.mnemo.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.Mnemo;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Deleting a tenant over REST purges its data kept outside its directory at once (the factory's
 * {@link EngineFactory#purge}, which the Solr store implements), after its engine is closed; a
 * purge that fails keeps the tenant's directory, so the deletion can be retried.
 */
class TenantDeletionIT {
  @TempDir Path dir;

  @Test
  void deletingATenant_purgesItsDataElsewhere_afterClosingItsEngine() {
    List<String> events = new CopyOnWriteArrayList<>();
    boolean[] failPurge = {false};
    EngineFactory factory =
        new EngineFactory() {
          @Override
          public Mnemo open(String tenant, Path d, int maxTextChars) {
            events.add("open " + tenant);
            return TestServer.engine(tenant, d, maxTextChars);
          }

          @Override
          public void purge(String tenant, Path d) {
            if (failPurge[0]) throw new dev.mnemo.MnemoException("the Solr cluster is down", true);
            events.add("purge " + tenant + " dir exists " + Files.isDirectory(d));
          }
        };
    ServerConfig c =
        ServerConfig.defaults()
            .withPort(0)
            .withData(dir)
            .withAdminKey(TestServer.ADMIN)
            .withLogRequests(false);
    try (TestServer s = new TestServer(MnemoServer.builder(c, factory).build().start())) {
      String acme = s.key("acme");
      String beta = s.key("beta");
      assertThat(
              s.send(
                      "POST",
                      "/v1/memories",
                      acme,
                      "{\"owner\":\"ann\",\"text\":\"Ann likes tea.\"}")
                  .status())
          .isEqualTo(201);
      assertThat(
              s.send(
                      "POST",
                      "/v1/memories",
                      beta,
                      "{\"owner\":\"bo\",\"text\":\"Bo likes coffee.\"}")
                  .status())
          .isEqualTo(201);

      failPurge[0] = true;
      assertThat(s.send("DELETE", "/v1/tenants/acme", TestServer.ADMIN, null).status())
          .isEqualTo(503);
      assertThat(dir.resolve("tenants/acme")).as("kept for a retry").isDirectory();
      failPurge[0] = false;

      TestServer.Response deleted = s.send("DELETE", "/v1/tenants/acme", TestServer.ADMIN, null);
      assertThat(deleted.status()).as(deleted.toString()).isEqualTo(200);
      assertThat(deleted.json().get("store_deleted").asBoolean()).isTrue();
      assertThat(events).containsSubsequence("open acme", "purge acme dir exists true");
      assertThat(events).noneMatch(e -> e.startsWith("purge beta"));
      assertThat(dir.resolve("tenants/acme")).doesNotExist();
      assertThat(
              s.send(
                      "POST",
                      "/v1/recall",
                      beta,
                      "{\"owner\":\"bo\",\"text\":\"What does Bo like?\"}")
                  .body())
          .contains("coffee");
    }
  }
}

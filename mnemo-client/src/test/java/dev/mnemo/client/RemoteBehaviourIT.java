package dev.mnemo.client;

import dev.mnemo.Mnemo;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

/** The shared behaviour through {@link MnemoClient} against the real server. */
class RemoteBehaviourIT extends MnemoBehaviourContract {
  @TempDir static Path dir;
  static LocalServer server;
  static MnemoClient client;

  @BeforeAll
  static void start() {
    server = new LocalServer(dir);
    client = server.client("acme");
  }

  @AfterAll
  static void stop() {
    client.close();
    server.close();
  }

  @Override
  Mnemo mnemo() {
    return client;
  }
}

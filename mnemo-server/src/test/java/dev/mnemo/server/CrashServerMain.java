package dev.mnemo.server;

import java.nio.file.Path;
import java.util.Map;

/**
 * The real server as its own process, for {@link CrashIT}: Lucene stores with the hashing embedder,
 * configured as {@code mnemo serve} is (environment, then flags), on a free port that it prints as
 * {@code PORT=n}.
 */
public final class CrashServerMain {
  private CrashServerMain() {}

  public static void main(String[] args) {
    ServerConfig config =
        ServerConfig.load(
            null, System.getenv(), Map.of("port", "0", "data", Path.of(args[0]).toString()));
    MnemoServer server = MnemoServer.builder(config, TestServer::engine).build().start();
    Runtime.getRuntime().addShutdownHook(new Thread(server::close));
    System.out.println("PORT=" + server.port());
    System.out.flush();
  }
}

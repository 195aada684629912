package dev.mnemo.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.mnemo.MemoryRecord;
import dev.mnemo.Mnemo;
import dev.mnemo.NewMemory;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code GET /v1/export} streams: the client reads the first lines while the store is still in the
 * middle of its export. The tenant's engine pauses its export after {@link #HOLD_AT} records until
 * the client has read a line; a server that collected the records before answering would send
 * nothing while the store waits, and the store would wait in vain.
 */
class ExportStreamingIT {
  private static final int RECORDS = 2_000;
  private static final int HOLD_AT = 1_200;

  @TempDir Path dir;

  @Test
  void export_ofThousandsOfRecords_reachesTheClientBeforeTheStoreHasFinished() throws Exception {
    CountDownLatch clientHasALine = new CountDownLatch(1);
    AtomicInteger delivered = new AtomicInteger();
    AtomicBoolean heldUntilTheClientRead = new AtomicBoolean();
    EngineFactory engines =
        (tenant, d, max) ->
            pausingExport(
                TestServer.engine(tenant, d, max),
                r -> {
                  if (delivered.incrementAndGet() == HOLD_AT) {
                    try {
                      heldUntilTheClientRead.set(clientHasALine.await(60, TimeUnit.SECONDS));
                    } catch (InterruptedException e) {
                      Thread.currentThread().interrupt();
                    }
                  }
                });
    ServerConfig c =
        ServerConfig.defaults()
            .withPort(0)
            .withData(dir)
            .withAdminKey(TestServer.ADMIN)
            .withLogRequests(false);
    try (TestServer s = new TestServer(MnemoServer.builder(c, engines).build().start())) {
      String key = s.key("t");
      Mnemo m = s.server.memory("t");
      Set<String> written = new HashSet<>();
      for (int from = 0; from < RECORDS; from += 500) {
        List<NewMemory> batch = new ArrayList<>();
        for (int i = from; i < from + 500; i++) {
          batch.add(
              NewMemory.builder(
                      "o-" + (i % 7),
                      "Entry "
                          + i
                          + " of the field journal: station "
                          + i
                          + " logged "
                          + (i * 31 % 997)
                          + " millimetres of rain")
                  .build());
        }
        m.rememberAll(batch).forEach(r -> written.add(r.id()));
      }

      HttpRequest get =
          HttpRequest.newBuilder(URI.create(s.base + "/v1/export"))
              .header("Authorization", "Bearer " + key)
              .GET()
              .build();
      HttpResponse<InputStream> r = s.http.send(get, HttpResponse.BodyHandlers.ofInputStream());
      assertThat(r.statusCode()).isEqualTo(200);
      ObjectMapper json = new ObjectMapper();
      Set<String> exported = new HashSet<>();
      int lines = 0;
      try (BufferedReader in =
          new BufferedReader(new InputStreamReader(r.body(), StandardCharsets.UTF_8))) {
        for (String line = in.readLine(); line != null; line = in.readLine()) {
          if (lines++ == 0) {
            assertThat(delivered.get())
                .as("the store is still exporting when the first line arrives")
                .isLessThanOrEqualTo(HOLD_AT);
            clientHasALine.countDown();
          }
          JsonNode node = json.readTree(line);
          assertThat(exported.add(node.get("id").asText())).as("each record once").isTrue();
        }
      }
      assertThat(heldUntilTheClientRead)
          .as("the store's export waited for the client's first line, and got it")
          .isTrue();
      assertThat(lines).isEqualTo(delivered.get()).isGreaterThan(HOLD_AT);
      assertThat(exported).containsAll(written);
    }
  }

  /**
   * {@code engine}, whose {@link Mnemo#export} calls {@code tap} after handing each record to the
   * sink.
   */
  @SuppressWarnings("unchecked")
  private static Mnemo pausingExport(Mnemo engine, Consumer<MemoryRecord> tap) {
    return (Mnemo)
        Proxy.newProxyInstance(
            Mnemo.class.getClassLoader(),
            new Class<?>[] {Mnemo.class},
            (p, method, args) -> {
              Object[] a = args;
              if (method.getName().equals("export")
                  && args != null
                  && args.length == 2
                  && args[1] instanceof Consumer<?>) {
                Consumer<MemoryRecord> sink = (Consumer<MemoryRecord>) args[1];
                a =
                    new Object[] {
                      args[0],
                      (Consumer<MemoryRecord>)
                          rec -> {
                            sink.accept(rec);
                            tap.accept(rec);
                          }
                    };
              }
              try {
                return method.invoke(engine, a);
              } catch (InvocationTargetException e) {
                throw e.getCause();
              }
            });
  }
}

package dev.mnemo.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Several tenants with several keys each, the same owner names in every tenant, and a seeded random
 * mix of every call, aimed as often at another tenant's ids and owners as at its own. No response
 * ever shows another tenant's record, another tenant's id is always 404, and at the end every
 * tenant's store holds exactly what that tenant wrote and did not delete, and lists exactly its own
 * owners and their records. A failure names its seed (rerun with -Dmnemo.seed=N).
 */
class CrossTenantIT {
  @TempDir Path dir;

  @Test
  void randomizedCalls_neverReadWriteOrDeleteAcrossTenants() {
    long seed = Long.getLong("mnemo.seed", System.nanoTime());
    Random rnd = new Random(seed);
    String why = "seed " + seed + " (rerun with -Dmnemo.seed=" + seed + ")";
    String[] owners = {"alice", "bob", "carol"};
    int tenantCount = 4;
    try (TestServer s = new TestServer(dir)) {
      List<String> tenants = new ArrayList<>();
      Map<String, List<String>> keysOf = new HashMap<>();
      // tenant -> owner -> live ids
      Map<String, Map<String, Set<String>>> model = new HashMap<>();
      Map<String, String> tenantOfId = new HashMap<>();
      for (int t = 0; t < tenantCount; t++) {
        String name = "tenant" + t;
        tenants.add(name);
        keysOf.put(name, List.of(s.key(name), s.key(name)));
        Map<String, Set<String>> byOwner = new HashMap<>();
        for (String o : owners) byOwner.put(o, new HashSet<>());
        model.put(name, byOwner);
      }
      List<String> allIds = new ArrayList<>();
      for (int op = 0; op < 300; op++) {
        String t = tenants.get(rnd.nextInt(tenantCount));
        String key = keysOf.get(t).get(rnd.nextInt(2));
        String owner = owners[rnd.nextInt(owners.length)];
        int kind = rnd.nextInt(10);
        if (kind < 4 || allIds.isEmpty()) {
          String text =
              "[" + t + "] " + owner + " likes topic" + rnd.nextInt(5) + " and shared words";
          TestServer.Response r =
              s.send(
                  "POST",
                  "/v1/memories",
                  key,
                  "{\"owner\":\""
                      + owner
                      + "\",\"text\":\""
                      + text
                      + "\",\"fact_key\":\"pref"
                      + op
                      + "\"}");
          assertThat(r.status()).as(why + " " + r).isEqualTo(201);
          String id = r.json().get("ids").get(0).asText();
          model.get(t).get(owner).add(id);
          tenantOfId.put(id, t);
          allIds.add(id);
          continue;
        }
        String id = allIds.get(rnd.nextInt(allIds.size()));
        String idTenant = tenantOfId.get(id);
        String idOwner = ownerOf(model.get(idTenant), id);
        boolean mine = idTenant.equals(t) && idOwner != null;
        String pathOwner = idOwner != null && rnd.nextBoolean() ? idOwner : owner;
        switch (kind) {
          case 4 -> { // recall: only own tenant's records, only the asked owner's
            TestServer.Response r =
                s.send(
                    "POST",
                    "/v1/recall",
                    key,
                    "{\"owner\":\""
                        + owner
                        + "\",\"text\":\"likes topic shared words\",\"k\":20,\"threshold\":0,\"budget_tokens\":2000}");
            assertThat(r.status()).as(why).isEqualTo(200);
            for (JsonNode rec : r.json().get("records")) {
              assertThat(rec.get("text").asText()).as(why).startsWith("[" + t + "] " + owner + " ");
              assertThat(model.get(t).get(owner)).as(why).contains(rec.get("id").asText());
            }
            assertThat(r.json().get("block").asText())
                .as(why)
                .doesNotContain("[tenant" + other(t, tenantCount) + "]");
          }
          case 5 -> { // get by id
            TestServer.Response r =
                s.send("GET", "/v1/owners/" + pathOwner + "/memories/" + id, key, null);
            if (mine && pathOwner.equals(idOwner)) {
              assertThat(r.status()).as(why).isEqualTo(200);
              assertThat(r.json().get("text").asText()).as(why).startsWith("[" + t + "]");
            } else {
              assertThat(r.status())
                  .as(why + " get of " + idTenant + "'s id by " + t)
                  .isEqualTo(404);
              assertThat(r.body()).as(why).doesNotContain("[" + idTenant + "]");
            }
          }
          case 6 -> { // delete by id
            TestServer.Response r =
                s.send("DELETE", "/v1/owners/" + pathOwner + "/memories/" + id, key, null);
            if (mine && pathOwner.equals(idOwner)) {
              assertThat(r.status()).as(why).isEqualTo(200);
              model.get(t).get(idOwner).remove(id);
            } else {
              assertThat(r.status())
                  .as(why + " delete of " + idTenant + "'s id by " + t)
                  .isEqualTo(404);
            }
          }
          case 7 -> { // mark used: another tenant's ids are unknown ids
            TestServer.Response r =
                s.send(
                    "POST", "/v1/owners/" + pathOwner + "/used", key, "{\"ids\":[\"" + id + "\"]}");
            assertThat(r.status()).as(why).isEqualTo(200);
            int expected = mine && pathOwner.equals(idOwner) ? 1 : 0;
            assertThat(r.json().get("updated").asInt()).as(why).isEqualTo(expected);
          }
          case 8 -> { // export an owner: own tenant's records only
            TestServer.Response r = s.send("GET", "/v1/owners/" + owner + "/export", key, null);
            Set<String> ids = new HashSet<>();
            for (String line : r.body().split("\n")) {
              if (line.isBlank()) continue;
              JsonNode rec = new TestServer.Response(200, "", line, null).json();
              assertThat(rec.get("text").asText()).as(why).startsWith("[" + t + "] " + owner + " ");
              ids.add(rec.get("id").asText());
            }
            assertThat(ids).as(why).isEqualTo(model.get(t).get(owner));
          }
          default -> { // forget an owner: only in the own tenant (rarely, so that data accumulates)
            if (rnd.nextInt(4) != 0) continue;
            TestServer.Response r = s.send("DELETE", "/v1/owners/" + owner, key, null);
            assertThat(r.status()).as(why).isEqualTo(200);
            assertThat(r.json().get("deleted").asInt())
                .as(why)
                .isEqualTo(model.get(t).get(owner).size());
            model.get(t).get(owner).clear();
          }
        }
      }
      for (String t : tenants) {
        TestServer.Response r = s.send("GET", "/v1/export", keysOf.get(t).get(0), null);
        Set<String> ids = new HashSet<>();
        for (String line : r.body().split("\n")) {
          if (line.isBlank()) continue;
          JsonNode rec = new TestServer.Response(200, "", line, null).json();
          assertThat(rec.get("text").asText()).as(why).startsWith("[" + t + "]");
          ids.add(rec.get("id").asText());
        }
        Set<String> expected = new HashSet<>();
        model.get(t).values().forEach(expected::addAll);
        assertThat(ids).as(why + " final store of " + t).isEqualTo(expected);
        // the browsing routes (the inspector's): the tenant's own owners and records, nobody else's
        Set<String> listed = new HashSet<>();
        s.send("GET", "/v1/owners?limit=1000", keysOf.get(t).get(1), null)
            .json()
            .get("owners")
            .forEach(o -> listed.add(o.get("owner").asText()));
        Set<String> live = new HashSet<>();
        model
            .get(t)
            .forEach(
                (o, set) -> {
                  if (!set.isEmpty()) live.add(o);
                });
        assertThat(listed).as(why + " owners of " + t).isEqualTo(live);
        for (String o : owners) {
          Set<String> page = new HashSet<>();
          s.send("GET", "/v1/owners/" + o + "/memories?limit=1000", keysOf.get(t).get(0), null)
              .json()
              .get("memories")
              .forEach(rec -> page.add(rec.get("id").asText()));
          assertThat(page).as(why + " records of " + t + "/" + o).isEqualTo(model.get(t).get(o));
        }
      }
    }
  }

  private static String ownerOf(Map<String, Set<String>> byOwner, String id) {
    for (var e : byOwner.entrySet()) if (e.getValue().contains(id)) return e.getKey();
    return null;
  }

  private static int other(String t, int count) {
    return (Integer.parseInt(t.substring("tenant".length())) + 1) % count;
  }
}

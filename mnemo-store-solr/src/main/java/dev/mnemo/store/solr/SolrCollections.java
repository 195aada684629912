package dev.mnemo.store.solr;

import dev.mnemo.MnemoException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.apache.solr.client.solrj.SolrClient;
import org.apache.solr.client.solrj.SolrServerException;
import org.apache.solr.client.solrj.request.CollectionAdminRequest;
import org.apache.solr.client.solrj.request.ConfigSetAdminRequest;
import org.apache.solr.common.SolrException;
import org.apache.solr.common.util.ContentStreamBase;

/**
 * Creates Mnemo's collection: uploads the configset shipped in this module (schema and solrconfig,
 * with the embedder's vector dimension filled in) through the ConfigSets API and creates a
 * compositeId-routed collection on it, so each owner's records share a shard; and the turn log's
 * collection beside it ({@link #turnLogName}, one shard, its own small schema).
 */
public final class SolrCollections {
  private SolrCollections() {}

  /** The files of the configset, under {@code dev/mnemo/store/solr/configset/} in this jar. */
  static final List<String> FILES =
      List.of("schema.xml", "solrconfig.xml", "lang/english_stop.txt");

  /** The configset's name for vectors of {@code dimension} components. */
  public static String configName(int dimension) {
    return "mnemo-" + dimension;
  }

  /** The configset as a zip, with vectors of {@code dimension} components. */
  public static byte[] configsetZip(int dimension) {
    if (dimension < 1)
      throw new IllegalArgumentException("dimension must be >= 1, was " + dimension);
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ZipOutputStream zip = new ZipOutputStream(bytes)) {
      for (String f : FILES) {
        byte[] content;
        try (InputStream in = SolrCollections.class.getResourceAsStream("configset/" + f)) {
          if (in == null)
            throw new IllegalStateException("configset file missing from the jar: " + f);
          content = in.readAllBytes();
        }
        if (f.equals("schema.xml")) {
          content =
              new String(content, StandardCharsets.UTF_8)
                  .replace("@DIMENSION@", Integer.toString(dimension))
                  .getBytes(StandardCharsets.UTF_8);
        }
        zip.putNextEntry(new ZipEntry(f));
        zip.write(content);
        zip.closeEntry();
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return bytes.toByteArray();
  }

  /**
   * Uploads the configset (replacing one of the same name) and creates {@code collection} with
   * {@code shards} shards of {@code replicas} replicas each. Fails with the cluster's message when
   * the collection exists or there are not enough nodes.
   */
  public static void create(
      SolrClient client, String collection, int shards, int replicas, int dimension) {
    if (shards < 1) throw new IllegalArgumentException("shards must be >= 1, was " + shards);
    if (replicas < 1) throw new IllegalArgumentException("replicas must be >= 1, was " + replicas);
    String config = configName(dimension);
    try {
      upload(client, config, configsetZip(dimension));
      CollectionAdminRequest.createCollection(collection, config, shards, replicas)
          .setRouterName("compositeId")
          .process(client);
      ensureTurnLog(client, turnLogName(collection), replicas);
    } catch (SolrServerException | IOException | SolrException e) {
      throw new MnemoException(
          "creating the Solr collection '" + collection + "' failed: " + e.getMessage(),
          !(e instanceof SolrException se) || se.code() >= 500,
          e);
    }
  }

  /**
   * Uploads this module's configset over the one of {@code dimension} in the cluster and reloads
   * {@code collection} so its cores use it: how a collection created by an earlier version gets
   * fields added since (the access labels, the stored vector bytes). Field names are the stored
   * format and are only ever added, so records already written stay readable; fields they lack (a
   * vector's bytes written before {@code vec_b}) are only filled by writing them again (an export
   * and import into a new collection, then {@link #pointAlias}).
   */
  public static void upgradeConfigset(SolrClient client, String collection, int dimension) {
    String config = configName(dimension);
    try {
      upload(client, config, configsetZip(dimension));
      CollectionAdminRequest.reloadCollection(collection).process(client);
    } catch (SolrServerException | IOException | SolrException e) {
      throw failed("upgrading the configset of '" + collection + "'", e);
    }
  }

  /**
   * Points the alias {@code alias} at {@code collection} (creating or moving it in one ZooKeeper
   * update): servers started with {@code --collection ALIAS} read and write the new collection from
   * their next request, so a reindex into a new collection swaps without a restart.
   */
  public static void pointAlias(SolrClient client, String alias, String collection) {
    try {
      CollectionAdminRequest.createAlias(alias, collection).process(client);
    } catch (SolrServerException | IOException | SolrException e) {
      throw failed("pointing the alias '" + alias + "' at '" + collection + "'", e);
    }
  }

  /**
   * The health of {@code collection} as the cluster state says: per shard, how many replicas are
   * active on a live node and whether it has a leader. A shard without an active replica cannot
   * answer its owners' recalls; one with a single active replica answers but has no spare.
   */
  public static Health health(SolrClient client, String collection) {
    if (!(client instanceof org.apache.solr.client.solrj.impl.CloudSolrClient cloud))
      throw new IllegalArgumentException(
          "the health of a collection needs a cloud client, was " + client.getClass().getName());
    try {
      var state = cloud.getClusterStateProvider().getClusterState();
      var liveNodes = state.getLiveNodes();
      // an alias (a reindex's swap, pointAlias) reports the collection it points at
      var coll =
          state.getCollectionOrNull(cloud.getClusterStateProvider().resolveSimpleAlias(collection));
      java.util.Map<String, int[]> shards = new java.util.TreeMap<>();
      if (coll != null) {
        for (var slice : coll.getActiveSlices()) {
          int active = 0;
          for (var r : slice.getReplicas()) if (r.isActive(liveNodes)) active++;
          var leader = slice.getLeader();
          shards.put(
              slice.getName(),
              new int[] {
                active,
                slice.getReplicas().size(),
                leader != null && leader.isActive(liveNodes) ? 1 : 0
              });
        }
      }
      return new Health(collection, coll != null, liveNodes.size(), shards);
    } catch (SolrException e) {
      throw failed("reading the health of '" + collection + "'", e);
    }
  }

  /**
   * A collection's health: whether it exists, the live nodes, and per shard {@code [active
   * replicas, replicas, has an active leader (1/0)]}.
   */
  public record Health(
      String collection, boolean exists, int liveNodes, java.util.Map<String, int[]> shards) {
    /** Every shard has an active leader: every owner's recall and write can be answered. */
    public boolean serving() {
      return exists && !shards.isEmpty() && shards.values().stream().allMatch(s -> s[2] == 1);
    }

    /** Every replica of every shard is active: one more node can fail without an outage. */
    public boolean complete() {
      return serving() && shards.values().stream().allMatch(s -> s[0] == s[1]);
    }

    /**
     * {@code serving} (every replica active), {@code degraded} (serving, some replica down) or
     * {@code down}.
     */
    public String status() {
      return complete() ? "serving" : serving() ? "degraded" : "down";
    }

    /** {@code status}, live nodes and shards as one JSON object. */
    public String json() {
      StringBuilder b =
          new StringBuilder("{\"collection\":\"")
              .append(collection.replace("\\", "\\\\").replace("\"", "\\\""))
              .append("\",\"status\":\"")
              .append(status())
              .append("\",\"live_nodes\":")
              .append(liveNodes)
              .append(",\"shards\":{");
      String sep = "";
      for (var e : shards.entrySet()) {
        b.append(sep)
            .append('"')
            .append(e.getKey())
            .append("\":{\"active\":")
            .append(e.getValue()[0])
            .append(",\"replicas\":")
            .append(e.getValue()[1])
            .append(",\"leader\":")
            .append(e.getValue()[2] == 1)
            .append('}');
        sep = ",";
      }
      return b.append("}}").toString();
    }
  }

  private static void upload(SolrClient client, String config, byte[] zip)
      throws SolrServerException, IOException {
    ConfigSetAdminRequest.Upload upload = new ConfigSetAdminRequest.Upload();
    upload.setConfigSetName(config);
    upload.setOverwrite(true);
    upload.setUploadStream(
        new ContentStreamBase.ByteArrayStream(zip, config + ".zip", "application/zip"));
    upload.process(client);
  }

  private static MnemoException failed(String what, Exception e) {
    return new MnemoException(
        what + " failed: " + e.getMessage(),
        !(e instanceof SolrException se) || se.code() >= 500,
        e);
  }

  /** The turn log's configset name. */
  static final String TURNS_CONFIG = "mnemo-turns";

  /** The turn log's collection for the records' {@code collection}: {@code <collection>_turns}. */
  public static String turnLogName(String collection) {
    return collection + "_turns";
  }

  /**
   * The turn log's configset as a zip: its own schema, the records' solrconfig (fsynced update
   * log).
   */
  static byte[] turnsConfigsetZip() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ZipOutputStream zip = new ZipOutputStream(bytes)) {
      for (String[] f :
          new String[][] {
            {"turns/schema.xml", "schema.xml"}, {"configset/solrconfig.xml", "solrconfig.xml"}
          }) {
        try (InputStream in = SolrCollections.class.getResourceAsStream(f[0])) {
          if (in == null)
            throw new IllegalStateException("configset file missing from the jar: " + f[0]);
          zip.putNextEntry(new ZipEntry(f[1]));
          zip.write(in.readAllBytes());
          zip.closeEntry();
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return bytes.toByteArray();
  }

  /**
   * Creates the turn log's collection {@code name} (one shard of {@code replicas} replicas) with
   * its configset, unless it exists. Returns whether it created it.
   */
  public static boolean ensureTurnLog(SolrClient client, String name, int replicas) {
    try {
      if (CollectionAdminRequest.listCollections(client).contains(name)) return false;
      upload(client, TURNS_CONFIG, turnsConfigsetZip());
      CollectionAdminRequest.createCollection(name, TURNS_CONFIG, 1, Math.max(1, replicas))
          .process(client);
      return true;
    } catch (SolrServerException | IOException | SolrException e) {
      throw new MnemoException(
          "creating the Solr turn log collection '" + name + "' failed: " + e.getMessage(),
          !(e instanceof SolrException se) || se.code() >= 500,
          e);
    }
  }
}

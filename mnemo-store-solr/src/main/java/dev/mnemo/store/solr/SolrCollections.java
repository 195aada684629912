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
      ConfigSetAdminRequest.Upload upload = new ConfigSetAdminRequest.Upload();
      upload.setConfigSetName(config);
      upload.setOverwrite(true);
      upload.setUploadStream(
          new ContentStreamBase.ByteArrayStream(
              configsetZip(dimension), config + ".zip", "application/zip"));
      upload.process(client);
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
      ConfigSetAdminRequest.Upload upload = new ConfigSetAdminRequest.Upload();
      upload.setConfigSetName(TURNS_CONFIG);
      upload.setOverwrite(true);
      upload.setUploadStream(
          new ContentStreamBase.ByteArrayStream(
              turnsConfigsetZip(), TURNS_CONFIG + ".zip", "application/zip"));
      upload.process(client);
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

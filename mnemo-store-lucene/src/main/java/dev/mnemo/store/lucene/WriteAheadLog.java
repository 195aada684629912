package dev.mnemo.store.lucene;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mnemo.MemoryRecord;
import dev.mnemo.MnemoException;
import dev.mnemo.json.JsonCodec;
import dev.mnemo.json.RecordJson;
import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.zip.CRC32C;
import org.apache.lucene.util.IOUtils;

/**
 * The store's write-ahead log: a write is durable once its entry is appended here and the file
 * synced, long before the Lucene commit that makes the index hold it (a commit writes and syncs
 * several files: 6.7 ms at the median on a quiet machine here, tens of ms on a busy one; waiting
 * for the log's sync took 0.5 ms, BENCHMARKS.md "Write path: the write-ahead log"). Lucene commits
 * at checkpoints ({@link LuceneMemoryStore}); every commit records the highest entry its index
 * holds ({@code wal_seq} in the commit data), and on open the entries after it are applied again.
 *
 * <p>Hand-written because no library on Maven Central does this for Lucene: Lucene has no log of
 * its own (Solr's update log is part of Solr), and a general one (e.g. a key-value store) would
 * bring a second storage engine for one file format.
 *
 * <p>Files: {@code NNN.wal} in one folder, named by the sequence number of their first entry (the
 * newest file, which always exists, carries the numbering across checkpoints that delete the older
 * ones). A file starts with a header, {@code MNEMOWAL} and the format version (int, {@link
 * #FORMAT}); a version this Mnemo does not read is refused on open ({@link FormatVersion}), and a
 * file without the header (written before it existed) is version 1. Then the entries. An entry:
 * payload length (int), sequence number (long), payload, CRC-32C of sequence and payload (int). The
 * payload: the length of a UTF-8 JSON object (int), the object (the call's upserts as {@link
 * RecordJson} without their vectors, and its deleted ids), then each upsert's vector as its
 * dimension (int, -1: none) and its floats, raw: writing 384 floats as JSON text cost more than the
 * rest of a batch's write. A crash can leave the newest file's last entry torn: it was never
 * acknowledged (its sync had not returned), so reading stops there and the file is cut back. Damage
 * anywhere else is refused with the file and offset: an acknowledged write must not vanish
 * silently.
 *
 * <p>Not thread-safe for appends and {@link #seal}: the store calls them under its write lock.
 * {@link #sync} may run concurrently with appends (that is what lets writers share syncs).
 */
final class WriteAheadLog implements Closeable {
  /** One logged call: its sequence number, the records it upserted, the ids it deleted. */
  record Entry(long seq, List<MemoryRecord> upserts, List<String> deletes) {}

  static final String SUFFIX = ".wal";

  /** An entry's bytes besides its payload: length, sequence number, checksum. */
  private static final int FRAME = 4 + 8 + 4;

  /** The format version the header of every new file declares, and the newest this log reads. */
  static final int FORMAT = 1;

  /**
   * A file's first bytes. A file from before the header starts with an entry's length and the high
   * half of its sequence number, which can never spell this (a length of 1.3 GB and a sequence
   * number above 5 x 10^18).
   */
  private static final byte[] MAGIC = "MNEMOWAL".getBytes(StandardCharsets.US_ASCII);

  /** The header's bytes: the magic and the version. */
  static final int HEADER = MAGIC.length + 4;

  private final Path folder;
  private final Object rollLock = new Object();
  private FileChannel current;
  private Path currentFile;
  private long lastSeq;
  private volatile long bytes;

  private WriteAheadLog(Path folder) {
    this.folder = folder;
  }

  /**
   * Opens the log in {@code folder} (created if needed) and reads it: the entries to apply again,
   * oldest first. A new log numbers its first entry after {@code floor} (the highest sequence
   * number any index's commit recorded), so a log lost or removed by hand never reuses numbers.
   */
  static WriteAheadLog open(Path folder, java.util.function.LongSupplier floor, List<Entry> entries)
      throws IOException {
    Files.createDirectories(folder);
    WriteAheadLog log = new WriteAheadLog(folder);
    List<Path> files = log.files();
    // the newest file's name carries the numbering; without any file, the indexes' commits do
    long last = files.isEmpty() ? floor.getAsLong() : 0;
    for (int i = 0; i < files.size(); i++) {
      Path f = files.get(i);
      last = Math.max(last, firstSeq(f) - 1);
      last = Math.max(last, read(f, i == files.size() - 1, entries));
    }
    log.lastSeq = last;
    if (files.isEmpty()) log.roll(last + 1);
    else {
      log.currentFile = files.get(files.size() - 1);
      log.current = FileChannel.open(log.currentFile, StandardOpenOption.WRITE);
      log.current.position(log.current.size());
    }
    return log;
  }

  /** The log's files, oldest first. */
  private List<Path> files() throws IOException {
    try (var list = Files.list(folder)) {
      return list.filter(p -> p.getFileName().toString().endsWith(SUFFIX))
          .sorted(java.util.Comparator.comparingLong(WriteAheadLog::firstSeq))
          .toList();
    }
  }

  private static long firstSeq(Path f) {
    String n = f.getFileName().toString();
    try {
      return Long.parseLong(n.substring(0, n.length() - SUFFIX.length()));
    } catch (NumberFormatException e) {
      throw new MnemoException("unexpected file in the write-ahead log's folder: " + f, false);
    }
  }

  /**
   * Reads the entries of {@code f} into {@code out}; returns the highest sequence number read (0:
   * none). The newest file is cut back to its last whole entry.
   */
  private static long read(Path f, boolean newest, List<Entry> out) throws IOException {
    long last = 0;
    long at = header(f, newest);
    long size = Files.size(f);
    String damage = null;
    // streamed, an entry at a time: a file is about 32 MB, but one call's entry may be larger
    try (var in =
        new java.io.DataInputStream(
            new java.io.BufferedInputStream(Files.newInputStream(f), 1 << 16))) {
      in.skipNBytes(at);
      while (at < size) {
        if (size - at < FRAME) {
          damage = "a partial entry";
          break;
        }
        int length = in.readInt();
        if (length < 0 || length > size - at - FRAME) {
          damage = "an entry whose length is cut";
          break;
        }
        long seq = in.readLong();
        byte[] payload = in.readNBytes(length);
        int sum = in.readInt();
        CRC32C crc = new CRC32C();
        crc.update(ByteBuffer.allocate(8).putLong(0, seq));
        crc.update(payload);
        if ((int) crc.getValue() != sum) {
          damage = "an entry whose checksum does not match";
          break;
        }
        Entry e = decode(seq, payload, f, at);
        out.add(e);
        last = e.seq();
        at += FRAME + length;
      }
    }
    if (damage != null) {
      if (!newest)
        throw new MnemoException(
            "the write-ahead log "
                + f
                + " is damaged at byte "
                + at
                + " ("
                + damage
                + "); it holds acknowledged writes that are not in the index yet, so the store is"
                + " not opened: restore the folder from a backup",
            false);
      // the newest file's torn tail: its sync never returned, nothing there was acknowledged
      try (FileChannel c = FileChannel.open(f, StandardOpenOption.WRITE)) {
        c.truncate(at);
        c.force(true);
      }
    }
    return last;
  }

  /**
   * Checks the header of {@code f} and returns where its entries start: after the header, or at 0
   * in a file from before it (version 1). The newest file's header may be torn (a crash as the file
   * was started, before anything was logged in it): it is written again.
   */
  private static long header(Path f, boolean newest) throws IOException {
    byte[] head;
    try (var in = Files.newInputStream(f)) {
      head = in.readNBytes(HEADER);
    }
    int magic = Math.min(head.length, MAGIC.length);
    boolean magicSoFar = java.util.Arrays.equals(head, 0, magic, MAGIC, 0, magic);
    if (head.length == HEADER && magicSoFar) {
      FormatVersion.check("write-ahead log", f, ByteBuffer.wrap(head).getInt(MAGIC.length), FORMAT);
      return HEADER;
    }
    if (!magicSoFar || (head.length == 0 && !newest)) return 0;
    // a torn header: nothing was logged after it
    if (!newest)
      throw new MnemoException(
          "the write-ahead log "
              + f
              + " is damaged (a partial header); restore the folder from a backup",
          false);
    try (FileChannel c = FileChannel.open(f, StandardOpenOption.WRITE)) {
      c.truncate(0);
      writeHeader(c);
    }
    return HEADER;
  }

  private static void writeHeader(FileChannel c) throws IOException {
    ByteBuffer b = ByteBuffer.allocate(HEADER).put(MAGIC).putInt(FORMAT).flip();
    while (b.hasRemaining()) c.write(b);
    c.force(true);
  }

  private static Entry decode(long seq, byte[] payload, Path f, long at) {
    try {
      ByteBuffer b = ByteBuffer.wrap(payload);
      int jsonLength = b.getInt();
      JsonNode n = JsonCodec.READER.readTree(payload, 4, jsonLength);
      b.position(4 + jsonLength);
      List<MemoryRecord> upserts = new ArrayList<>();
      for (JsonNode r : n.path("upserts")) {
        MemoryRecord rec = RecordJson.readAnswer(r);
        int dim = b.getInt();
        if (dim >= 0) {
          float[] v = new float[dim];
          b.asFloatBuffer().get(v);
          b.position(b.position() + 4 * dim);
          rec = rec.withEmbedding(v, rec.embeddingModel());
        }
        upserts.add(rec);
      }
      List<String> deletes = new ArrayList<>();
      for (JsonNode d : n.path("deletes")) deletes.add(d.asText());
      return new Entry(seq, upserts, deletes);
    } catch (IOException | RuntimeException e) {
      throw new MnemoException(
          "the write-ahead log " + f + " has an unreadable entry at byte " + at + ": " + e, false);
    }
  }

  /**
   * Appends a call's changes (not yet durable: {@link #sync}); returns its sequence number. A
   * failure leaves the log unusable (the store fails and must be reopened).
   */
  long append(List<MemoryRecord> upserts, Collection<String> deletes) throws IOException {
    ObjectNode o = JsonCodec.object();
    ArrayNode u = o.putArray("upserts");
    int floats = 0;
    for (MemoryRecord r : upserts) {
      u.add(RecordJson.write(r, false));
      if (r.embedding() != null) floats += r.embedding().length;
    }
    ArrayNode d = o.putArray("deletes");
    deletes.forEach(d::add);
    byte[] json = JsonCodec.WRITER.writeValueAsBytes(o);
    ByteBuffer p = ByteBuffer.allocate(4 + json.length + 4 * upserts.size() + 4 * floats);
    p.putInt(json.length).put(json);
    for (MemoryRecord r : upserts) {
      float[] v = r.embedding();
      p.putInt(v == null ? -1 : v.length);
      if (v != null) {
        p.asFloatBuffer().put(v);
        p.position(p.position() + 4 * v.length);
      }
    }
    byte[] payload = p.array();
    long seq = lastSeq + 1;
    ByteBuffer b = ByteBuffer.allocate(FRAME + payload.length);
    b.putInt(payload.length).putLong(seq).put(payload);
    CRC32C crc = new CRC32C();
    crc.update(ByteBuffer.allocate(8).putLong(0, seq));
    crc.update(payload);
    b.putInt((int) crc.getValue()).flip();
    while (b.hasRemaining()) current.write(b);
    lastSeq = seq;
    bytes += FRAME + payload.length;
    return seq;
  }

  /** The sequence number of the last entry appended (or, with none yet, the floor). */
  long lastSeq() {
    return lastSeq;
  }

  /** Bytes appended since the last {@link #seal} (or since open). */
  long bytesSinceSeal() {
    return bytes;
  }

  /** Syncs the newest file: every entry appended before the call is durable when it returns. */
  void sync() throws IOException {
    synchronized (rollLock) {
      current.force(false);
    }
  }

  /**
   * Ends the newest file (synced, closed) and starts the next: entries from here on go to a file
   * the next {@link #deleteSealed} keeps. Returns the sealed files.
   */
  List<Path> seal() throws IOException {
    synchronized (rollLock) {
      List<Path> sealed = new ArrayList<>(files());
      if (firstSeq(currentFile) == lastSeq + 1) {
        // nothing in the newest file yet: it stays the newest
        sealed.remove(currentFile);
        return sealed;
      }
      current.force(false);
      current.close();
      roll(lastSeq + 1);
      bytes = 0;
      return sealed;
    }
  }

  /** Deletes files {@link #seal} returned, once every index holds their entries durably. */
  void deleteSealed(List<Path> sealed) throws IOException {
    if (sealed.isEmpty()) return; // nothing deleted: the folder has nothing to sync
    for (Path f : sealed) Files.deleteIfExists(f);
    IOUtils.fsync(folder, true);
  }

  private void roll(long first) throws IOException {
    currentFile = folder.resolve(String.format(java.util.Locale.ROOT, "%020d", first) + SUFFIX);
    current =
        FileChannel.open(currentFile, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
    writeHeader(current);
    // the new file's name carries the numbering: it must survive a crash
    IOUtils.fsync(folder, true);
  }

  @Override
  public void close() throws IOException {
    synchronized (rollLock) {
      current.close();
    }
  }
}

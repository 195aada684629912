package dev.mnemo.store.lucene;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mnemo.Authority;
import dev.mnemo.Category;
import dev.mnemo.ConflictPolicy;
import dev.mnemo.MemoryRecord;
import dev.mnemo.MnemoException;
import dev.mnemo.json.RecordJson;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The log's file format: what is read back, a torn tail, damage, numbering across files. */
class WriteAheadLogTest {
  @TempDir Path dir;

  /** A record with every field set, a vector whose floats must come back bit for bit. */
  static MemoryRecord full(String id, String owner, String text) {
    Instant t = Instant.parse("2026-03-01T10:15:30.123Z");
    float[] v = new float[16];
    for (int i = 0; i < v.length; i++) v[i] = (float) Math.sin(i * 1.7 + id.length()) / 3f;
    return new MemoryRecord(
        id,
        owner,
        "project-x",
        Category.SEMANTIC,
        text,
        "from the call",
        List.of("turn-1", "turn-2"),
        "ep-7",
        3,
        t,
        t.plusSeconds(60),
        t.minusSeconds(3600),
        t.plusSeconds(7200),
        "home.city",
        2,
        "extractor",
        0.8,
        Authority.EXPLICIT,
        ConflictPolicy.SUPERSEDE,
        List.of("Maya", "Lisbon"),
        4,
        t.plusSeconds(5),
        v,
        "e5-small-v2",
        Map.of("k", "v", "lang", "en"),
        List.of("team-a"));
  }

  private static String json(MemoryRecord r) {
    return RecordJson.write(r, true).toString();
  }

  private List<WriteAheadLog.Entry> reopen(List<WriteAheadLog.Entry> into) throws IOException {
    WriteAheadLog.open(dir, () -> 0, into).close();
    return into;
  }

  @Test
  void entriesComeBackWhole() throws IOException {
    MemoryRecord a = full("a", "maya", "Maya moved to Lisbon");
    MemoryRecord b = full("b", "omar", "Omar prefers tea, “always”");
    try (WriteAheadLog log = WriteAheadLog.open(dir, () -> 0, new ArrayList<>())) {
      assertThat(log.append(List.of(a), List.of())).isEqualTo(1);
      assertThat(log.append(List.of(b), List.of("old-1", "old-2"))).isEqualTo(2);
      log.sync();
    }
    List<WriteAheadLog.Entry> read = reopen(new ArrayList<>());
    assertThat(read).hasSize(2);
    assertThat(read.get(0).seq()).isEqualTo(1);
    assertThat(read.get(0).upserts()).hasSize(1);
    assertThat(json(read.get(0).upserts().get(0))).isEqualTo(json(a));
    assertThat(read.get(0).upserts().get(0).embedding()).containsExactly(a.embedding());
    assertThat(read.get(1).deletes()).containsExactly("old-1", "old-2");
    assertThat(json(read.get(1).upserts().get(0))).isEqualTo(json(b));
  }

  @Test
  void numberingGoesOnAcrossSealedAndDeletedFiles() throws IOException {
    try (WriteAheadLog log = WriteAheadLog.open(dir, () -> 40, new ArrayList<>())) {
      assertThat(log.append(List.of(), List.of("x"))).isEqualTo(41);
      List<Path> sealed = log.seal();
      assertThat(log.append(List.of(), List.of("y"))).isEqualTo(42);
      log.deleteSealed(sealed);
    }
    List<WriteAheadLog.Entry> read = new ArrayList<>();
    // the floor is not asked for while a file names the numbering
    try (WriteAheadLog log =
        WriteAheadLog.open(
            dir,
            () -> {
              throw new AssertionError("floor read with a log file present");
            },
            read)) {
      assertThat(read).extracting(WriteAheadLog.Entry::seq).containsExactly(42L);
      List<Path> sealed = log.seal();
      log.deleteSealed(sealed);
      assertThat(log.append(List.of(), List.of("z"))).isEqualTo(43);
    }
  }

  @Test
  void aTornLastEntryIsCutAwayAndItsNumberReused() throws IOException {
    try (WriteAheadLog log = WriteAheadLog.open(dir, () -> 0, new ArrayList<>())) {
      log.append(List.of(full("a", "maya", "one")), List.of());
      log.append(List.of(full("b", "maya", "two")), List.of());
      log.append(List.of(full("c", "maya", "three")), List.of());
      log.sync();
    }
    Path file = onlyFile();
    long whole = Files.size(file);
    try (FileChannel c = FileChannel.open(file, StandardOpenOption.WRITE)) {
      c.truncate(whole - 10); // the last entry's write stopped short
    }
    List<WriteAheadLog.Entry> read = new ArrayList<>();
    try (WriteAheadLog log = WriteAheadLog.open(dir, () -> 0, read)) {
      assertThat(read).extracting(WriteAheadLog.Entry::seq).containsExactly(1L, 2L);
      assertThat(log.append(List.of(full("d", "maya", "four")), List.of())).isEqualTo(3);
      log.sync();
    }
    assertThat(reopen(new ArrayList<>()))
        .extracting(e -> e.upserts().get(0).id())
        .containsExactly("a", "b", "d");
  }

  @Test
  void garbageAfterTheLastEntryIsCutAway() throws IOException {
    try (WriteAheadLog log = WriteAheadLog.open(dir, () -> 0, new ArrayList<>())) {
      log.append(List.of(full("a", "maya", "one")), List.of());
      log.sync();
    }
    Path file = onlyFile();
    long whole = Files.size(file);
    // a length that fits and a checksum that does not: a write whose pages were half persisted
    byte[] junk = new byte[64];
    junk[3] = 20;
    Files.write(file, junk, StandardOpenOption.APPEND);
    assertThat(reopen(new ArrayList<>())).hasSize(1);
    assertThat(Files.size(file)).isEqualTo(whole);
  }

  @Test
  void damageInAnOlderFileIsRefusedNamingTheFile() throws IOException {
    try (WriteAheadLog log = WriteAheadLog.open(dir, () -> 0, new ArrayList<>())) {
      log.append(List.of(full("a", "maya", "one")), List.of());
      log.seal();
      log.append(List.of(full("b", "maya", "two")), List.of());
      log.sync();
    }
    Path older =
        dir.resolve(String.format(java.util.Locale.ROOT, "%020d", 1) + WriteAheadLog.SUFFIX);
    byte[] bytes = Files.readAllBytes(older);
    bytes[bytes.length / 2] ^= 0x55;
    Files.write(older, bytes);
    assertThatThrownBy(() -> reopen(new ArrayList<>()))
        .isInstanceOf(MnemoException.class)
        .hasMessageContaining(older.toString())
        .hasMessageContaining("damaged");
  }

  @Test
  void aFileWithoutTheHeaderIsVersionOneAndStillOpens() throws IOException {
    // what the log wrote before the header existed: the same entries from byte 0
    try (WriteAheadLog log = WriteAheadLog.open(dir, () -> 0, new ArrayList<>())) {
      log.append(List.of(full("a", "maya", "one")), List.of());
      log.append(List.of(), List.of("gone"));
      log.sync();
    }
    Path file = onlyFile();
    byte[] bytes = Files.readAllBytes(file);
    Files.write(file, java.util.Arrays.copyOfRange(bytes, WriteAheadLog.HEADER, bytes.length));
    List<WriteAheadLog.Entry> read = new ArrayList<>();
    try (WriteAheadLog log = WriteAheadLog.open(dir, () -> 0, read)) {
      assertThat(read).extracting(WriteAheadLog.Entry::seq).containsExactly(1L, 2L);
      assertThat(json(read.get(0).upserts().get(0))).isEqualTo(json(full("a", "maya", "one")));
      assertThat(log.append(List.of(full("b", "maya", "two")), List.of())).isEqualTo(3);
      log.sync();
    }
    assertThat(reopen(new ArrayList<>()))
        .extracting(WriteAheadLog.Entry::seq)
        .containsExactly(1L, 2L, 3L);
  }

  @Test
  void anEmptyFileWithoutTheHeaderGetsOne() throws IOException {
    // the newest file as the log left it before the header: created, nothing in it yet
    Files.createDirectories(dir);
    Path file =
        dir.resolve(String.format(java.util.Locale.ROOT, "%020d", 8) + WriteAheadLog.SUFFIX);
    Files.createFile(file);
    try (WriteAheadLog log = WriteAheadLog.open(dir, () -> 0, new ArrayList<>())) {
      assertThat(log.append(List.of(), List.of("x"))).isEqualTo(8);
      log.sync();
    }
    assertThat(Files.readAllBytes(file))
        .startsWith("MNEMOWAL".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
    assertThat(reopen(new ArrayList<>())).extracting(WriteAheadLog.Entry::seq).containsExactly(8L);
  }

  @Test
  void aTornHeaderInTheNewestFileIsWrittenAgain() throws IOException {
    WriteAheadLog.open(dir, () -> 4, new ArrayList<>()).close();
    Path file = onlyFile();
    try (FileChannel c = FileChannel.open(file, StandardOpenOption.WRITE)) {
      c.truncate(5); // the crash came as the file was started
    }
    try (WriteAheadLog log = WriteAheadLog.open(dir, () -> 0, new ArrayList<>())) {
      assertThat(log.append(List.of(), List.of("x"))).isEqualTo(5);
      log.sync();
    }
    assertThat(reopen(new ArrayList<>())).extracting(WriteAheadLog.Entry::seq).containsExactly(5L);
  }

  @Test
  void aNewerFormatVersionIsRefusedAndTheFileLeftAsItIs() throws IOException {
    try (WriteAheadLog log = WriteAheadLog.open(dir, () -> 0, new ArrayList<>())) {
      log.append(List.of(full("a", "maya", "one")), List.of());
      log.sync();
    }
    Path file = onlyFile();
    byte[] bytes = Files.readAllBytes(file);
    java.nio.ByteBuffer.wrap(bytes).putInt(WriteAheadLog.HEADER - 4, WriteAheadLog.FORMAT + 1);
    Files.write(file, bytes);
    assertThatThrownBy(() -> reopen(new ArrayList<>()))
        .isInstanceOf(MnemoException.class)
        .hasMessageContaining(file.toString())
        .hasMessageContaining("format version " + (WriteAheadLog.FORMAT + 1))
        .hasMessageContaining("reads format version 1");
    assertThat(Files.readAllBytes(file)).isEqualTo(bytes);
  }

  private Path onlyFile() throws IOException {
    try (var list = Files.list(dir)) {
      List<Path> files = list.toList();
      assertThat(files).hasSize(1);
      return files.get(0);
    }
  }
}

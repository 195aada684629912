package dev.mnemo.store.lucene;

import dev.mnemo.MnemoException;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.store.Directory;

/**
 * The format version every file the Lucene store keeps on disk declares (the write-ahead log's
 * header, the partition table's first line, the turn and retrieval logs' commit data), checked when
 * it is opened: a version this Mnemo does not know (a newer Mnemo wrote it) is refused with a
 * message instead of being misread. Files from before the versions were written declare none and
 * are version 1, the format they are in.
 */
final class FormatVersion {
  private FormatVersion() {}

  /** The key of the version in a Lucene index's commit data. */
  static final String COMMIT_KEY = "mnemo_format";

  /** The turn log's and the retrieval log's format (the version of their Lucene documents). */
  static final int SIDE_INDEX = 1;

  /**
   * Returns {@code declared} as a version after checking that this Mnemo reads it ({@code null}:
   * none declared, version 1); refuses any other with a message naming {@code what}.
   */
  static int check(String what, Path where, String declared, int readable) {
    if (declared == null) return 1;
    int found;
    try {
      found = Integer.parseInt(declared.trim());
    } catch (NumberFormatException e) {
      throw refused(what, where, "an unknown format version '" + declared + "'", readable);
    }
    check(what, where, found, readable);
    return found;
  }

  /** Refuses {@code found} unless it is from 1 to {@code readable}. */
  static void check(String what, Path where, int found, int readable) {
    if (found < 1 || found > readable)
      throw refused(what, where, "format version " + found, readable);
  }

  private static MnemoException refused(String what, Path where, String found, int readable) {
    return new MnemoException(
        "the "
            + what
            + " "
            + where
            + " is in "
            + found
            + "; this version of Mnemo reads format version"
            + (readable == 1 ? " 1" : "s 1 to " + readable)
            + ", so it is not opened (a newer Mnemo wrote it?): open it with the Mnemo that wrote"
            + " it, or move the data with ./mnemo export, then ./mnemo import into a new directory",
        false);
  }

  /**
   * For a Lucene index beside the store's own (turn log, retrieval log): checks the version its
   * last commit declares, if it exists, against {@code readable}.
   */
  static void checkIndex(String what, Path where, Directory d, int readable) throws IOException {
    if (!DirectoryReader.indexExists(d)) return;
    var commits = DirectoryReader.listCommits(d);
    check(what, where, commits.get(commits.size() - 1).getUserData().get(COMMIT_KEY), readable);
  }

  /**
   * Makes the writer's next commit declare {@code version}, unless its last commit already does:
   * setting commit data is a change, and a writer with a change commits (fsyncing every file of the
   * index) as it closes, so a process that only read the index would pay for a commit.
   */
  static void stamp(IndexWriter w, int version) {
    String v = Integer.toString(version);
    var live = w.getLiveCommitData();
    if (live != null)
      for (var e : live) if (e.getKey().equals(COMMIT_KEY) && v.equals(e.getValue())) return;
    w.setLiveCommitData(Map.of(COMMIT_KEY, v).entrySet());
  }
}

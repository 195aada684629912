package dev.mnemo.internal;

import dev.mnemo.Category;
import dev.mnemo.ConflictPolicy;
import dev.mnemo.InvalidRequestException;
import dev.mnemo.MemoryRecord;
import dev.mnemo.NewMemory;
import dev.mnemo.spi.MemoryStore;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * An episode's extractive summary and how it follows its sources: {@link dev.mnemo.Mnemo#summarize}
 * writes one, and every change the write path, retention or a forget applies is handed to {@link
 * #followSources}, which re-derives (or expires, or scrubs) the summaries it made stale. Apart from
 * {@link Engine} because it is one rule (a summary never says what its sources no longer say) with
 * its own text building and access-label reasoning, used from three places (writes, retention,
 * forgetting); it writes through the {@link WritePath} like any caller and runs under the owner's
 * write lock its caller holds (or takes it, for {@link #summarize}).
 */
final class Summaries {
  private final MemoryStore store;
  private final WritePath writes;
  private final WriteLocks locks;
  private final InstantSource clock;
  private final int maxTextChars;

  Summaries(
      MemoryStore store,
      WritePath writes,
      WriteLocks locks,
      InstantSource clock,
      int maxTextChars) {
    this.store = store;
    this.writes = writes;
    this.locks = locks;
    this.clock = clock;
    this.maxTextChars = maxTextChars;
  }

  /** Records of an episode an extractive summary takes, most important first. */
  static final int SUMMARY_SENTENCES = 5;

  /**
   * The offline, extractive summary: the episode's {@value #SUMMARY_SENTENCES} most important
   * current records (believed, and valid now or later) (ties: earlier first), in episode order,
   * joined after {@code "Summary of EPISODE: "}; semantic; sources = every source of every current
   * record of the episode; valid from the earliest of them; importance their maximum; fact key
   * {@code summary/EPISODE}, so a second summary of the same episode is a new version of the first.
   */
  Optional<MemoryRecord> summarize(String owner, String episode) {
    dev.mnemo.InputRules.requireOwner("owner", owner);
    if (episode == null || episode.isBlank()) {
      throw new InvalidRequestException(
          "episode", episode, "episode must not be blank, was " + episode);
    }
    WriteLocks.Held held = locks.owner(owner);
    try {
      return summaryOf(owner, episode, null)
          .map(m -> writes.write(java.util.Collections.singletonList(m), true, locks).get(0));
    } finally {
      held.release();
    }
  }

  /** The key of an episode's summary: a new summary is a new version of the old one. */
  static String summaryKey(String episode) {
    return "summary/" + episode;
  }

  private static boolean isSummary(MemoryRecord r) {
    return "summary".equals(r.metadata().get("kind"));
  }

  /**
   * Summaries follow their sources: when a record of an episode stops being current (corrected,
   * superseded, expired by retention) or is forgotten, the episode's current summary, which was
   * derived from it, is re-derived from the episode's current records as a new version that
   * corrects the old one (metadata {@code rederived} says why), or expired when no current record
   * is left; a forgotten source takes every version of the summary with it (they may quote it), so
   * its text survives nowhere. Runs under the owner's write lock right after the change is applied,
   * so a recall never sees the stale summary as current once the change is acknowledged.
   */
  void followSources(Collection<MemoryRecord> changed, Collection<MemoryRecord> deleted) {
    Map<String, String> why = new java.util.LinkedHashMap<>(); // owner \0 episode -> reason
    Set<String> scrub = new HashSet<>();
    for (MemoryRecord r : changed) {
      if (r.expiredAt() != null && r.episode() != null && !isSummary(r)) {
        why.putIfAbsent(
            r.owner() + "\u0000" + r.episode(), "source " + r.id() + " is no longer current");
      }
    }
    for (MemoryRecord r : deleted) {
      if (r.episode() != null && !isSummary(r)) {
        String k = r.owner() + "\u0000" + r.episode();
        why.put(k, "source " + r.id() + " was forgotten");
        scrub.add(k);
      }
    }
    for (var e : why.entrySet()) {
      int cut = e.getKey().indexOf('\u0000');
      rederive(
          e.getKey().substring(0, cut),
          e.getKey().substring(cut + 1),
          e.getValue(),
          scrub.contains(e.getKey()));
    }
  }

  private void rederive(String owner, String episode, String reason, boolean scrub) {
    List<MemoryRecord> versions = store.versions(owner, summaryKey(episode));
    MemoryRecord current =
        versions.stream().filter(r -> r.expiredAt() == null).findFirst().orElse(null);
    if (current == null) return;
    Optional<NewMemory> next = summaryOf(owner, episode, current.validFrom());
    if (scrub) store.apply(List.of(), versions.stream().map(MemoryRecord::id).toList());
    if (next.isPresent()) {
      Map<String, String> meta = new java.util.LinkedHashMap<>(next.get().metadata());
      meta.put("rederived", "stale: " + reason + "; re-derived from the episode's current records");
      writes.write(List.of(Records.with(next.get(), meta)), true, locks);
    }
    // Under other access labels the new version does not supersede the old one (write rules per
    // label set): the stale one is expired here.
    if (!scrub
        && (next.isEmpty()
            || !current.access().equals(dev.mnemo.Access.normalize(next.get().access())))) {
      String note =
          "stale: "
              + reason
              + (next.isEmpty()
                  ? "; no current record of the episode left, expired"
                  : "; re-derived under other access labels, expired");
      store.apply(
          List.of(
              Records.noted(
                  current.withExpiredAt(
                      clock.instant().truncatedTo(java.time.temporal.ChronoUnit.MILLIS)),
                  note)),
          List.of());
    }
  }

  /**
   * The summary of an episode's current records, or empty when it has none; valid from the earliest
   * of them, or from {@code notAfter} when that is earlier (a re-derived summary covers its old
   * version's whole interval, so no clipped copy of the stale text stays believed).
   */
  private Optional<NewMemory> summaryOf(String owner, String episode, Instant notAfter) {
    List<MemoryRecord> records = new ArrayList<>();
    Instant now = clock.instant();
    // Believed and not ended: a summary is open-ended, so what it says must still hold (the part
    // of a corrected fact clipped to before its correction is history, not the summary's).
    store.export(
        owner,
        r -> {
          if (episode.equals(r.episode())
              && r.expiredAt() == null
              && (r.validTo() == null || r.validTo().isAfter(now))
              && !isSummary(r)) {
            records.add(r);
          }
        });
    List<String> access = summaryAccess(records);
    if (records.isEmpty()) return Optional.empty();
    records.sort(
        Comparator.comparingInt(MemoryRecord::seq).thenComparing(MemoryRecord::recordedAt));
    List<MemoryRecord> top = new ArrayList<>(records);
    top.sort(
        Comparator.comparingDouble(MemoryRecord::importance)
            .reversed()
            .thenComparingInt(records::indexOf));
    Set<MemoryRecord> chosen =
        new HashSet<>(top.subList(0, Math.min(SUMMARY_SENTENCES, top.size())));
    StringBuilder text = new StringBuilder("Summary of " + episode + ":");
    List<String> sources = new ArrayList<>();
    for (MemoryRecord r : records) {
      for (String src : r.sources()) if (!sources.contains(src)) sources.add(src);
      if (chosen.contains(r)) text.append(' ').append(r.text().strip());
    }
    String summary =
        text.length() > maxTextChars ? text.substring(0, maxTextChars) : text.toString();
    Instant from =
        records.stream().map(MemoryRecord::validFrom).min(Comparator.naturalOrder()).orElseThrow();
    if (notAfter != null && notAfter.isBefore(from)) from = notAfter;
    double importance = records.stream().mapToDouble(MemoryRecord::importance).max().orElse(0.5);
    NewMemory m =
        new NewMemory(
            owner,
            summary,
            null,
            Category.SEMANTIC,
            null,
            sources,
            episode,
            null,
            null,
            from,
            null,
            summaryKey(episode),
            importance,
            null,
            notAfter == null ? null : ConflictPolicy.CORRECT,
            List.of(),
            Map.of(
                "kind",
                "summary",
                "episode",
                episode,
                "summarized",
                Integer.toString(records.size())),
            null,
            access);
    return Optional.of(m);
  }

  /**
   * The access labels of a summary of {@code records}, leaving out of {@code records} what it may
   * not show. A summary must never be visible to a caller who could not see every line of it: it
   * carries the labels every labelled record shares (whoever holds one of them sees each of those
   * records), none when no record is labelled. When the labelled records share none, they are left
   * out and the summary covers the unlabelled records alone.
   */
  static List<String> summaryAccess(List<MemoryRecord> records) {
    Set<String> shared = null;
    for (MemoryRecord r : records) {
      if (r.access().isEmpty()) continue;
      if (shared == null) shared = new java.util.TreeSet<>(r.access());
      else shared.retainAll(r.access());
    }
    if (shared == null) return List.of();
    if (shared.isEmpty()) records.removeIf(r -> !r.access().isEmpty());
    return List.copyOf(shared);
  }
}

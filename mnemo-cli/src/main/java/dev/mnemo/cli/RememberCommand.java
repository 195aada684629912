package dev.mnemo.cli;

import dev.mnemo.Authority;
import dev.mnemo.Category;
import dev.mnemo.ConflictPolicy;
import dev.mnemo.MemoryRecord;
import dev.mnemo.Mnemo;
import dev.mnemo.NewMemory;
import dev.mnemo.json.JsonCodec;
import dev.mnemo.json.RecordJson;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** Writes one memory and prints its id once it is durable. */
@Command(
    name = "remember",
    mixinStandardHelpOptions = true,
    description = "Write one memory (durable when the id is printed).")
final class RememberCommand implements Callable<Integer> {
  @Mixin EngineOptions engine;

  @Option(names = "--owner", required = true, description = "Whose memory this is.")
  String owner;

  @Parameters(index = "0", paramLabel = "TEXT", description = "The memory text.")
  String text;

  @Option(
      names = "--fact-key",
      description = "Identity of the fact; a later record with the same key supersedes this one.")
  String factKey;

  @Option(names = "--category", description = "episodic, semantic (default), procedural or task.")
  String category;

  @Option(names = "--scope", description = "Task or project scope.")
  String scope;

  @Option(names = "--importance", description = "0..1 (default 0.5).")
  Double importance;

  @Option(names = "--authority", description = "explicit (default), derived or verified.")
  String authority;

  @Option(
      names = "--valid-from",
      paramLabel = "DATE",
      description = "When the fact became true (default: now).")
  String validFrom;

  @Option(names = "--valid-to", paramLabel = "DATE", description = "When it stopped being true.")
  String validTo;

  @Option(
      names = "--recorded-at",
      paramLabel = "INSTANT",
      description = "Transaction time (default: now).")
  String recordedAt;

  @Option(names = "--source", description = "Source event id(s).")
  List<String> sources;

  @Option(
      names = "--keep-both",
      description =
          "Keep earlier versions of the fact key as a conflict instead of superseding them.")
  boolean keepBoth;

  @Option(
      names = "--correct",
      description =
          "A retroactive correction: replace every overlapping version, even one that starts after --valid-from (by default an older open-ended fact is history and ends where the current version begins).")
  boolean correct;

  @Option(
      names = "--lower-authority",
      paramLabel = "POLICY",
      description =
          "When a current version has higher authority: keep_both (default: kept beside it as a conflict) or refuse.")
  String lowerAuthority;

  @Option(names = "--meta", paramLabel = "KEY=VALUE", description = "Metadata entries.")
  Map<String, String> metadata;

  @Option(
      names = "--access",
      paramLabel = "LABEL",
      split = ",",
      description =
          "Access labels (team:NAME, role:NAME, person:NAME, comma-separated): only a caller holding one of them recalls the memory (default: every caller of the owner).")
  java.util.List<String> access;

  @Option(names = "--json", description = "Print the stored record as JSON.")
  boolean json;

  @Override
  public Integer call() throws Exception {
    NewMemory.Builder b =
        NewMemory.builder(owner, text)
            .factKey(factKey)
            .scope(scope)
            .sources(sources)
            .validFrom(Times.parse("valid_from", validFrom))
            .validTo(Times.parse("valid_to", validTo))
            .recordedAt(Times.parse("recorded_at", recordedAt))
            .metadata(metadata)
            .access(access);
    if (category != null) b.category(Category.fromCode("category", category));
    if (authority != null) b.authority(Authority.fromCode("authority", authority));
    if (importance != null) b.importance(importance);
    if (keepBoth && correct)
      throw new dev.mnemo.InvalidRequestException(
          "conflict_policy", "keep_both, correct", "give --keep-both or --correct, not both");
    if (keepBoth) b.conflictPolicy(ConflictPolicy.KEEP_BOTH);
    if (correct) b.conflictPolicy(ConflictPolicy.CORRECT);
    if (lowerAuthority != null)
      b.lowerAuthority(dev.mnemo.LowerAuthority.fromCode("lower_authority", lowerAuthority));
    try (Mnemo m = engine.open()) {
      MemoryRecord r = m.remember(b.build());
      System.out.println(
          json ? JsonCodec.PRETTY.writeValueAsString(RecordJson.write(r, false)) : r.id());
    } finally {
      engine.closeEmbedder();
    }
    return 0;
  }
}

package dev.mnemo.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mnemo.Category;
import dev.mnemo.Mnemo;
import dev.mnemo.RetentionPolicy;
import dev.mnemo.RetentionReport;
import dev.mnemo.json.JsonCodec;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** Applies a retention policy to one owner's records of some categories (and old unnamed turns). */
@Command(
    name = "retain",
    mixinStandardHelpOptions = true,
    description = {
      "Apply a retention policy to an owner's current records of the given categories: a record older "
          + "than --max-age, or whose importance decayed with --half-life below --drop-below, is expired (not deleted: "
          + "history and known_at still show it) unless its importance is at least --keep-if. Turns older than "
          + "--turns-max-age that no record names are deleted. Safe to interrupt and run again.",
      "Durations are ISO-8601: P90D, PT12H."
    })
final class RetainCommand implements Callable<Integer> {
  @Mixin EngineOptions engine;

  @Option(
      names = "--owner",
      paramLabel = "OWNER",
      required = true,
      description = "Whose records the policy applies to (required).")
  String owner;

  @Option(
      names = "--category",
      required = true,
      split = ",",
      paramLabel = "CATEGORY",
      description =
          "Categories the policy applies to (episodic, semantic, procedural, task); others keep everything.")
  List<String> categories;

  @Option(
      names = "--max-age",
      paramLabel = "DURATION",
      description = "Drop records older than this (since recorded or last used).")
  Duration maxAge;

  @Option(
      names = "--half-life",
      paramLabel = "DURATION",
      description = "Decay importance with this half-life ...")
  Duration halfLife;

  @Option(
      names = "--drop-below",
      paramLabel = "X",
      defaultValue = "0",
      description = "... and drop below this (0..1).")
  double dropBelow;

  @Option(
      names = "--keep-if",
      paramLabel = "X",
      defaultValue = "0",
      description = "Keep records whose importance is at least this, whatever their age (0: off).")
  double keepIf;

  @Option(
      names = "--turns-max-age",
      paramLabel = "DURATION",
      description = "Delete turns older than this that no record names.")
  Duration turnsMaxAge;

  @Option(names = "--json", description = "Print the report as JSON.")
  boolean json;

  @Override
  public Integer call() throws Exception {
    RetentionPolicy policy = new RetentionPolicy(maxAge, halfLife, dropBelow, keepIf);
    Map<Category, RetentionPolicy> policies = new EnumMap<>(Category.class);
    for (String c : categories) policies.put(Category.fromCode("category", c.trim()), policy);
    RetentionReport r;
    try (Mnemo m = engine.open()) {
      r = EngineOptions.maintenance(m).retain(owner, policies, turnsMaxAge, Instant.now());
    } finally {
      engine.closeEmbedder();
    }
    if (json) {
      ObjectNode o = JsonCodec.object();
      o.put("owner", owner)
          .put("examined", r.examined())
          .put("expired", r.expired())
          .put("turns_deleted", r.turnsDeleted());
      System.out.println(o);
    } else {
      System.out.printf(
          Locale.ROOT,
          "owner %s: %d current records examined, %d expired, %d turns deleted%n",
          owner,
          r.examined(),
          r.expired(),
          r.turnsDeleted());
    }
    return 0;
  }
}

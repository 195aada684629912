package dev.mnemo.cli;

import dev.mnemo.CandidateTrace;
import dev.mnemo.LoggedRecall;
import dev.mnemo.Mnemo;
import dev.mnemo.RecallLogQuery;
import dev.mnemo.RecallResult;
import dev.mnemo.RecallStats;
import dev.mnemo.eval.LogScenarios;
import dev.mnemo.json.FieldReader;
import dev.mnemo.json.JsonCodec;
import dev.mnemo.json.RecallLogJson;
import java.io.BufferedWriter;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** Searches the retrieval log: which recalls ran, what they selected and left out, and why. */
@Command(
    name = "log",
    mixinStandardHelpOptions = true,
    description = {
      "Search the retrieval log (every recall, newest first): by owner, time, outcome, text, record.",
      "With --record ID: when was this record a candidate, and to which questions; with --outcome selected, when was it shown."
    },
    subcommands = {LogCommand.Stats.class, LogCommand.Export.class})
final class LogCommand implements Callable<Integer> {
  @Mixin EngineOptions engine;
  @Mixin Filters filters = new Filters();

  @Option(
      names = "--id",
      paramLabel = "ID",
      description = "Print one recall whole: request, candidates, reasons.")
  String id;

  @Option(
      names = "--json",
      description =
          "One JSON object per line and recall (id, owner, text, asked_at, selected, omitted...); with --id the whole entry.")
  boolean json;

  /** The search options every log command shares. */
  static final class Filters {
    @Option(names = "--owner", description = "Only this owner's recalls.")
    String owner;

    @Option(
        names = "--from",
        paramLabel = "DATE",
        description = "Logged at or after (ISO date or instant).")
    String from;

    @Option(
        names = "--to",
        paramLabel = "DATE",
        description = "Logged before (ISO date or instant).")
    String to;

    @Option(
        names = "--outcome",
        description =
            "selected or empty (the recall's); with --record also omitted, below_threshold, beyond_k, over_budget, duplicate.")
    String outcome;

    @Option(names = "--text", description = "Words of the query.")
    String text;

    @Option(
        names = "--record",
        paramLabel = "ID",
        description = "Recalls in which this record was a candidate.")
    String record;

    @Option(
        names = "--limit",
        defaultValue = "20",
        description = "At most this many recalls (default ${DEFAULT-VALUE}).")
    int limit;

    @Option(names = "--offset", defaultValue = "0", description = "Skip this many (newest first).")
    int offset;

    RecallLogQuery query() {
      Args.id("--record", record);
      return RecallLogQuery.checked(
          owner,
          FieldReader.parseInstant("--from", from),
          FieldReader.parseInstant("--to", to),
          outcome,
          text,
          record,
          offset,
          limit,
          java.util.List.of("--owner", "--from", "--to", "--outcome", "--text", "--record"));
    }
  }

  @Override
  public Integer call() throws Exception {
    engine.embedder = "none"; // reading the log needs no model
    Args.id("--id", id);
    RecallLogQuery q = id == null ? filters.query() : null;
    try (Mnemo m = engine.open()) {
      PrintStream out = System.out;
      if (id != null) {
        Optional<LoggedRecall> e = engine.retrievalLog(m).loggedRecall(id);
        if (e.isEmpty()) {
          System.err.println(
              "error: --id: no logged recall '" + Args.shown(id) + "' in " + engine.data);
          return 1;
        }
        if (json) out.println(JsonCodec.WRITER.writeValueAsString(RecallLogJson.entry(e.get())));
        else print(e.get(), out);
        return 0;
      }
      var entries = engine.retrievalLog(m).recalls(q);
      if (json) {
        for (LoggedRecall e : entries)
          out.println(JsonCodec.WRITER.writeValueAsString(RecallLogJson.summary(e)));
        return 0;
      }
      long total = engine.retrievalLog(m).countRecalls(q);
      if (entries.isEmpty()) {
        out.println("no logged recalls match (" + total + ")");
        return 0;
      }
      out.printf(
          Locale.ROOT,
          "%-22s %-24s %-14s %4s %4s %-14s %s%n",
          "id",
          "logged_at",
          "owner",
          "sel",
          "cand",
          filters.record == null ? "" : "record",
          "text");
      for (LoggedRecall e : entries) {
        String rec = "";
        if (filters.record != null) {
          rec =
              e.trace().candidates().stream()
                  .filter(c -> c.id().equals(filters.record))
                  .findFirst()
                  .map(c -> c.outcome() == null ? "unranked" : c.outcome().code())
                  .orElse("-");
        }
        out.printf(
            Locale.ROOT,
            "%-22s %-24s %-14s %4d %4d %-14s %s%n",
            e.id(),
            e.loggedAt(),
            trim(e.owner(), 14),
            e.selected().size(),
            e.trace().candidates().size(),
            rec,
            trim(e.request().query(), 70));
      }
      out.println(
          entries.size()
              + " of "
              + total
              + " shown"
              + (total > q.offset() + entries.size() ? " (--offset, --limit for more)" : ""));
    }
    return 0;
  }

  static void print(LoggedRecall e, PrintStream out) {
    out.println("recall " + e.id() + " logged " + e.loggedAt() + " owner " + e.owner());
    out.println("query: " + e.request().query());
    out.println(
        "engine: " + new java.util.TreeMap<>(e.engine()) + "   store state: " + e.storeState());
    out.println("eligibility removed (of the owner's records): " + e.ineligible());
    if (!e.used().isEmpty()) out.println("reported used: " + e.used());
    out.println();
    ExplainPrinter.print(
        new RecallResult(
            java.util.List.of(),
            "",
            e.trace().tokensUsed(),
            e.renderedTokens(),
            RecallResult.Withheld.of(e.trace()),
            e.trace()),
        out);
    out.println("selected: " + e.selected());
    for (CandidateTrace c : e.omitted()) {
      out.println(
          "omitted "
              + c.id()
              + ": "
              + (c.outcome() == null ? "unranked" : c.outcome().code())
              + " ("
              + c.reason()
              + ")");
    }
  }

  private static String trim(String s, int n) {
    String one = s.replace('\n', ' ');
    return one.length() > n ? one.substring(0, n - 3) + "..." : one;
  }

  /** The runtime rates. */
  @Command(
      name = "stats",
      mixinStandardHelpOptions = true,
      description =
          "Fetch rate, abstention rate, mean injected tokens and use rate (with usage feedback) of the logged recalls.")
  static final class Stats implements Callable<Integer> {
    @Mixin EngineOptions engine;
    @Mixin Filters filters = new Filters();

    @Option(names = "--json", description = "JSON output.")
    boolean json;

    @Override
    public Integer call() throws Exception {
      engine.embedder = "none";
      try (Mnemo m = engine.open()) {
        RecallStats s = engine.retrievalLog(m).recallStats(filters.query());
        if (json) {
          System.out.println(JsonCodec.WRITER.writeValueAsString(RecallLogJson.stats(s)));
          return 0;
        }
        System.out.printf(
            Locale.ROOT,
            "recalls %d   fetch rate %s   abstention rate %s   mean injected tokens %s   use rate %s (%d of %d selected reported used)%n",
            s.recalls(),
            pct(s.fetchRate()),
            pct(s.abstentionRate()),
            Double.isNaN(s.meanInjectedTokens())
                ? "-"
                : String.format(Locale.ROOT, "%.1f", s.meanInjectedTokens()),
            pct(s.useRate()),
            s.used(),
            s.selected());
      }
      return 0;
    }

    private static String pct(double x) {
      return Double.isNaN(x) ? "-" : String.format(Locale.ROOT, "%.1f %%", 100 * x);
    }
  }

  /** Logged recalls as scenarios. */
  @Command(
      name = "export",
      mixinStandardHelpOptions = true,
      description = {
        "Write logged recalls, with the records they saw, as scenarios (one per line; see eval scenarios).",
        "Each expects what was selected then: edit expect/forbid to what should have been, and keep it as a regression test."
      })
  static final class Export implements Callable<Integer> {
    @Mixin EngineOptions engine;
    @Mixin Filters filters = new Filters();

    @Option(
        names = "--as-scenarios",
        required = true,
        description = "The scenario format (the only one so far).")
    boolean asScenarios;

    @Option(
        names = "--out",
        paramLabel = "FILE",
        description = "Write here instead of standard output.")
    Path outFile;

    @Override
    public Integer call() throws Exception {
      engine.embedder = "none";
      try (Mnemo m = engine.open();
          Writer w =
              outFile == null
                  ? new BufferedWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8))
                  : Files.newBufferedWriter(outFile, StandardCharsets.UTF_8)) {
        int n = 0;
        for (LoggedRecall e : engine.retrievalLog(m).recalls(filters.query())) {
          w.write(
              JsonCodec.WRITER.writeValueAsString(
                  LogScenarios.scenario(e, id -> m.get(e.owner(), id))));
          w.write('\n');
          n++;
        }
        w.flush();
        if (outFile != null) System.err.println("wrote " + n + " scenarios to " + outFile);
      }
      return 0;
    }
  }
}

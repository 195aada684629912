package dev.mnemo.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

/**
 * The CLI's door (issue 36, item 1): every option and parameter of every command that takes a date,
 * an owner, an id, a text or a number, found in picocli's {@link CommandSpec} (so a new option or
 * command is swept unedited), gets a corpus of hostile values: dates at +-1e9 years and malformed,
 * empty, zero-width and over-long owners, control characters, invalid ids, over-long texts, huge,
 * negative and non-finite numbers. Each run happens in-process against a temporary store with
 * {@code --embedder none}, and must end with a non-zero exit, one line on stderr naming the option,
 * no stack trace, and the store's data files as they were.
 *
 * <p>The other options are a store's or a model's set-up (the {@link EngineOptions} mixin: data
 * directory, store, embedder...) or name files, not values a store keeps. Commands that serve,
 * evaluate or generate ({@link #NOT_SWEPT}) are left out, each with its reason; every other command
 * is swept.
 */
class HostileOptionsTest {
  @TempDir static Path dir;
  @RegisterExtension final StdStreams std = new StdStreams();

  /** The test's standard output, before {@link StdStreams} captures it. */
  private static final java.io.PrintStream REAL_OUT = System.out;

  /** Commands not swept, and why. */
  private static final Map<String, String> NOT_SWEPT =
      Map.of(
          "serve", "runs a server until stopped (its doors: HostileRoutesIT)",
          "mcp", "reads MCP from stdin until it ends (its doors: StdioTransportIT)",
          "demo", "takes no value a store keeps, runs on its own store",
          "eval", "runs benchmarks on generated data sets",
          "completion", "prints a shell script",
          "solr", "administers a SolrCloud cluster (needs one)",
          "help", "prints help");

  private static final String LONG_OWNER = "o".repeat(300);
  private static final List<String> DATES =
      List.of(
          "+1000000000-01-01T00:00:00Z",
          "-1000000000-01-01T00:00:00Z",
          "+1000000000-01-01",
          "2026-13-45",
          "2026-02-30T10:00:00Z",
          "2026-01-01T25:61:00Z",
          "not a date",
          "",
          "2026-01-01\u0000",
          "99999999999999999999");
  private static final List<String> OWNERS =
      List.of("", " ", "\u200B", LONG_OWNER, "ali\u0000ce", "bob\u202Eevil", "eve\nmallory");
  private static final List<String> IDS =
      List.of("", " ", "\u0000", "id\u0007bell", "x".repeat(5_000), "id\nwith a newline");
  private static final List<String> TEXTS = List.of("word ".repeat(30_000));
  private static final List<String> SHORT_TEXTS = List.of("y".repeat(2_000));
  private static final List<String> INTEGERS =
      List.of("-5", "99999999999999999999", "-2147483649", "1e400", "abc", "");
  private static final List<String> DECIMALS = List.of("-5", "NaN", "abc", "");

  /** Options with an upper bound of their own (k, the token budget): a billion is refused. */
  private static final Pattern BOUNDED = Pattern.compile("--(k|budget)");

  private enum Kind {
    DATE,
    OWNER,
    ID,
    TEXT,
    SHORT_TEXT,
    INTEGER,
    DECIMAL
  }

  private static Path data;
  private static Path emptyFile;
  private static String knownId;
  private static String recallId;

  @BeforeEach
  void store() throws IOException {
    if (data != null) return;
    data = dir.resolve("data");
    emptyFile = Files.writeString(dir.resolve("empty.jsonl"), "");
    assertThat(
            std.run(
                "remember",
                "--data",
                data.toString(),
                "--embedder",
                "none",
                "--owner",
                "u",
                "--fact-key",
                "bike",
                "--json",
                "Ines keeps her bike in shed 7."))
        .as(std.err.toString())
        .isZero();
    knownId =
        com.fasterxml.jackson.databind.json.JsonMapper.builder()
            .build()
            .readTree(std.out.toString())
            .get("id")
            .asText();
    logARecall();
  }

  /** A logged recall's id: the id that {@code replay} and {@code log --id} take. */
  private void logARecall() throws IOException {
    assertThat(
            std.run(
                "recall", "--data", data.toString(), "--embedder", "none", "--owner", "u", "bike"))
        .as(std.err.toString())
        .isZero();
    assertThat(std.run("log", "--data", data.toString(), "--json")).isZero();
    recallId =
        com.fasterxml.jackson.databind.json.JsonMapper.builder()
            .build()
            .readTree(std.out.toString().lines().findFirst().orElseThrow())
            .get("id")
            .asText();
  }

  /** What kind of value an option or parameter takes, or null when it is none of the swept. */
  private static Kind kind(ArgSpec a) {
    Class<?> t = a.type();
    String name =
        a instanceof OptionSpec o
            ? o.longestName()
            : a.paramLabel().toLowerCase(java.util.Locale.ROOT);
    if (t == boolean.class || t == Boolean.class || Path.class.isAssignableFrom(t)) return null;
    if (t == int.class || t == Integer.class || t == long.class || t == Long.class)
      return Kind.INTEGER;
    if (t == double.class || t == Double.class || t == float.class || t == Float.class)
      return Kind.DECIMAL;
    if (name.equals("--owner") || name.equals("owner")) return Kind.OWNER;
    if (Pattern.matches("--id|--record|--[a-z-]+-id|id", name)) return Kind.ID;
    if (Pattern.matches("--(valid-from|valid-to|from|to|at|[a-z-]+-at)|date", name))
      return Kind.DATE;
    if (a instanceof PositionalParamSpec) return name.contains("file") ? null : Kind.TEXT;
    if (name.equals("--text") || name.equals("--query")) return Kind.TEXT;
    return Kind.SHORT_TEXT;
  }

  private static List<String> corpus(ArgSpec a) {
    Kind k = kind(a);
    if (k == Kind.INTEGER
        && a instanceof OptionSpec o
        && BOUNDED.matcher(o.longestName()).matches())
      return java.util.stream.Stream.concat(INTEGERS.stream(), Stream.of("1000000000")).toList();
    return switch (k) {
      case DATE -> DATES;
      case OWNER -> OWNERS;
      case ID -> IDS;
      case TEXT -> TEXTS;
      case SHORT_TEXT -> SHORT_TEXTS;
      case INTEGER -> INTEGERS;
      case DECIMAL -> DECIMALS;
    };
  }

  /** A value of the kind that the command accepts, for the arguments it needs besides the swept. */
  private static String benign(ArgSpec a) {
    Kind k = kind(a);
    if (k == null)
      return a.paramLabel().toLowerCase(java.util.Locale.ROOT).contains("file")
          ? emptyFile.toString()
          : "x";
    return switch (k) {
      case DATE -> "2026-01-01";
      case OWNER -> "u";
      case ID -> a.command().name().equals("replay") ? recallId : knownId;
      case TEXT -> "Where is the bike?";
      case SHORT_TEXT -> "semantic";
      case INTEGER -> "3";
      case DECIMAL -> "0.5";
    };
  }

  /** Options of the set-up mixins: a store's, an embedder's, a model's, not a stored value. */
  private static Set<ArgSpec> setUp(CommandSpec spec) {
    Set<ArgSpec> out = new java.util.HashSet<>();
    for (CommandSpec m : spec.mixins().values()) {
      Object o = m.userObject();
      if (o instanceof EngineOptions
          || o instanceof LlmOptions
          || o instanceof EmbedCacheOptions
          || o instanceof Progress.Options) {
        out.addAll(m.options());
        out.addAll(setUp(m));
      }
    }
    return out;
  }

  private static void commands(CommandLine cl, String path, Map<String, CommandLine> out) {
    for (var e : cl.getSubcommands().entrySet()) {
      String name = path.isEmpty() ? e.getKey() : path + " " + e.getKey();
      if (NOT_SWEPT.containsKey(name.split(" ")[0])) continue;
      if (!e.getValue().getCommandSpec().name().equals(e.getKey())) continue; // an alias
      out.put(name, e.getValue());
      commands(e.getValue(), name, out);
    }
  }

  @Test
  void everyValueOption_ofEveryCommand_refusesHostileValues_namingTheOption_writingNothing()
      throws IOException {
    Map<String, CommandLine> commands = new TreeMap<>();
    commands(Main.commandLine(), "", commands);
    assertThat(commands).containsKeys("remember", "recall", "forget", "log", "show", "history");
    Map<String, String> before = files(data);
    List<String> findings = new ArrayList<>();
    Map<String, Integer> swept = new LinkedHashMap<>();
    int runs = 0;
    for (var c : commands.entrySet()) {
      CommandSpec spec = c.getValue().getCommandSpec();
      Set<ArgSpec> setUp = setUp(spec);
      List<ArgSpec> args = new ArrayList<>();
      spec.options().stream()
          .filter(o -> !setUp.contains(o) && !o.usageHelp() && !o.versionHelp())
          .forEach(args::add);
      args.addAll(spec.positionalParameters());
      for (ArgSpec target : args) {
        Kind k = kind(target);
        if (k == null) continue;
        swept.merge(c.getKey(), 1, Integer::sum);
        for (String value : corpus(target)) {
          List<String> argv = new ArrayList<>(List.of(c.getKey().split(" ")));
          if (spec.findOption("--data") != null) argv.addAll(List.of("--data", data.toString()));
          if (spec.findOption("--embedder") != null) argv.addAll(List.of("--embedder", "none"));
          for (OptionSpec o : spec.options())
            if (o.required() && o != target) {
              argv.add(o.longestName());
              if (o.arity().max() > 0) argv.add(benign(o));
            }
          if (c.getKey().equals("forget") && target != spec.findOption("--id"))
            argv.addAll(List.of("--id", knownId));
          if (target instanceof OptionSpec o) argv.addAll(List.of(o.longestName(), value));
          for (PositionalParamSpec p : spec.positionalParameters()) {
            if (p == target) argv.add(value);
            else if (p.arity().min() > 0) argv.add(benign(p));
          }
          runs++;
          String problem = check(argv, target, value);
          if (problem != null) findings.add(problem);
        }
      }
    }
    REAL_OUT.printf("hostile CLI options: %d runs, options swept per command %s%n", runs, swept);
    assertThat(runs).as("runs").isGreaterThan(250);
    assertThat(findings).as("of %d runs", runs).isEmpty();
    assertThat(files(data)).as("the store's files").isEqualTo(before);
  }

  /** What is wrong with the run's answer, or null when it refused cleanly. */
  private String check(List<String> argv, ArgSpec target, String value) {
    Map<String, String> before;
    try {
      before = files(data);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    int code = std.run(argv.toArray(String[]::new));
    String err = std.err.toString(StandardCharsets.UTF_8);
    String shown = shorten(value);
    String what =
        String.join(" ", argv.subList(0, Math.min(2, argv.size())))
            + " "
            + (target instanceof OptionSpec o ? o.longestName() : target.paramLabel())
            + " "
            + shown;
    if (code == 0) return what + ": accepted (exit 0), out " + shorten(std.out.toString());
    List<String> lines = err.lines().filter(l -> !l.isBlank() && !l.startsWith("Try '")).toList();
    if (err.contains("\tat ") || err.contains("Exception in"))
      return what + ": a stack trace: " + shorten(err);
    if (lines.size() != 1) return what + ": " + lines.size() + " lines on stderr: " + shorten(err);
    if (!namesTheArgument(lines.get(0), target))
      return what + ": the message does not name it: " + shorten(lines.get(0));
    try {
      Map<String, String> after = files(data);
      if (!after.equals(before))
        return what + ": the store's files changed: " + diff(before, after);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    return null;
  }

  private static String diff(Map<String, String> before, Map<String, String> after) {
    List<String> out = new ArrayList<>();
    for (var e : after.entrySet())
      if (!e.getValue().equals(before.get(e.getKey()))) out.add("+" + e.getKey());
    for (String k : before.keySet()) if (!after.containsKey(k)) out.add("-" + k);
    return String.join(" ", out);
  }

  private static boolean namesTheArgument(String line, ArgSpec a) {
    List<String> names = new ArrayList<>();
    if (a instanceof OptionSpec o) {
      for (String n : o.names()) {
        names.add(n);
        names.add(n.replaceFirst("^-+", "").replace('-', '_'));
      }
    } else {
      names.add(a.paramLabel());
      names.add(a.paramLabel().toLowerCase(java.util.Locale.ROOT));
    }
    return names.stream().anyMatch(line::contains);
  }

  private static String shorten(String s) {
    String v = s.replace("\u0000", "\\0").replace("\n", "\\n");
    return v.length() > 160 ? v.substring(0, 160) + "...(" + v.length() + " chars)" : v;
  }

  /**
   * Every data file of the store with its size. Opening and closing a store commits a new {@code
   * segments_N} (a commit point naming the same segments), so those are left out; a record written
   * or deleted adds segment files (or a deletions file) of new names.
   */
  private static Map<String, String> files(Path root) throws IOException {
    Map<String, String> out = new TreeMap<>();
    try (Stream<Path> s = Files.walk(root)) {
      for (Path p : s.filter(Files::isRegularFile).toList()) {
        String name = p.getFileName().toString();
        if (name.equals("write.lock") || name.startsWith("segments_")) continue;
        out.put(root.relativize(p).toString(), String.valueOf(Files.size(p)));
      }
    }
    return out;
  }
}

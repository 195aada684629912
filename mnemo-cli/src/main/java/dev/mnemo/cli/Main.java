package dev.mnemo.cli;

import dev.mnemo.InvalidRequestException;
import dev.mnemo.MnemoException;
import java.io.PrintWriter;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code mnemo} command line: the composition root that wires the Lucene store, the ONNX
 * embedder and the engine. Exit codes: 0 success, 1 runtime failure, 2 bad input or usage.
 */
@Command(
    name = "mnemo",
    mixinStandardHelpOptions = true,
    version = "mnemo 0.1.0-SNAPSHOT",
    description =
        "Long-term memory for LLM agents: the right few memories, from the right owner, true at the right time.")
public final class Main implements Runnable {

  /**
   * The commands, in the order the help lists them. Not in {@code @Command(subcommands)}: picocli
   * builds every command it is given, and {@link #commandLine(String)} gives it one.
   */
  static final List<Class<?>> COMMANDS =
      List.of(
          DemoCommand.class,
          RememberCommand.class,
          RecallCommand.class,
          HistoryCommand.class,
          ListCommand.class,
          ShowCommand.class,
          RetainCommand.class,
          SummarizeCommand.class,
          RecategorizeCommand.class,
          ForgetCommand.class,
          ReindexCommand.class,
          LogCommand.class,
          ReplayCommand.class,
          ImportCommand.class,
          IngestCommand.class,
          ExportCommand.class,
          EvalCommand.class,
          ServeCommand.class,
          McpCommand.class,
          CompletionCommand.class,
          SolrCommand.class,
          CommandLine.HelpCommand.class);

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }

  /**
   * Lucene says through java.util.logging whether it uses the Vector API (an INFO line with it, a
   * WARNING suggesting it without): the launcher chooses by command, so the line is noise on
   * stderr, which an MCP client shows as server errors. Kept in a field: JUL holds loggers weakly.
   * A user's own {@code -Djava.util.logging.config.file} is left alone.
   */
  private static final java.util.logging.Logger LUCENE_VECTORIZATION =
      java.util.logging.Logger.getLogger("org.apache.lucene.internal.vectorization");

  public static void main(String[] args) {
    if (System.getProperty("java.util.logging.config.file") == null) {
      LUCENE_VECTORIZATION.setLevel(java.util.logging.Level.SEVERE);
    }
    System.exit(run(args));
  }

  /** Runs the command line and returns the exit code (for tests). */
  public static int run(String... args) {
    CommandLine cl = commandLine(args.length > 0 ? args[0] : null);
    if (args.length > 0 && args[0].equals("bench") && !cl.getSubcommands().containsKey("bench")) {
      // The benchmarks (JMH and all) are not in the product jar: the launcher runs
      // mnemo-bench-cli's jar for them.
      cl.getErr()
          .println(
              "error: 'mnemo bench' is not in this jar: the benchmarks live in the mnemo-bench-cli module; "
                  + "run ./mnemo bench from a checkout of the repository (it builds mnemo-bench-cli/target/mnemo-bench.jar)");
      return 2;
    }
    if (args.length > 1
        && args[0].equals("eval")
        && args[1].equals("fit-relevance")
        && !cl.getSubcommands().get("eval").getSubcommands().containsKey("fit-relevance")) {
      // The fit (XGBoost, Scala, Kryo) is developer tooling, not in the product jar.
      cl.getErr()
          .println(
              "error: 'mnemo eval fit-relevance' is not in this jar: the fit lives in the mnemo-fit module; "
                  + "run ./mnemo eval fit-relevance from a checkout of the repository (it builds mnemo-bench-cli/target/mnemo-bench.jar)");
      return 2;
    }
    return cl.execute(args);
  }

  /** The command line with every command. */
  static CommandLine commandLine() {
    return commandLine(null);
  }

  /**
   * The command line to run a call whose first argument is {@code first}: when it names a command,
   * with that command alone (and its subcommands), else with all. Building a command reflects over
   * its options and mixins, and building the thirty or so of them took a third of a second of every
   * short call (BENCHMARKS.md, "CLI start-up"); a command neither sees nor parses its siblings, so
   * its parsing, errors and help are the same either way. {@code help} and {@code completion} list
   * the others: they get all.
   */
  static CommandLine commandLine(String first) {
    CommandLine cl = new CommandLine(new Main());
    boolean alone =
        first != null
            && !first.equals("help")
            && !first.equals(CompletionCommand.class.getAnnotation(Command.class).name())
            && COMMANDS.stream().anyMatch(c -> name(c).equals(first));
    for (Class<?> c : COMMANDS) {
      if (!alone || name(c).equals(first)) cl.addSubcommand(c);
    }
    // Commands of modules outside the product jar (mnemo-bench-cli's 'bench', mnemo-fit's 'eval
    // fit-relevance'), when on the class path.
    for (CommandPlugin plugin : java.util.ServiceLoader.load(CommandPlugin.class)) {
      String top = plugin.parent() != null ? plugin.parent() : name(plugin.getClass());
      if (alone && !top.equals(first)) continue;
      if (plugin.parent() == null) cl.addSubcommand(plugin);
      else cl.getSubcommands().get(plugin.parent()).addSubcommand(plugin);
    }
    CommandLine serve = cl.getSubcommands().get("serve");
    if (serve != null) ServeCommand.describeDataOption(serve);
    HelpLayout.apply(cl);
    // A bad option value is one line naming the option and a hint, not the whole usage (which a
    // script would have to scroll past to find what was wrong).
    cl.setParameterExceptionHandler(
        (ex, args) -> {
          CommandLine cmd = ex.getCommandLine();
          PrintWriter err = cmd.getErr();
          err.println("error: " + Args.shown(ex.getMessage()));
          if (ex instanceof CommandLine.UnmatchedArgumentException u
              && !u.getSuggestions().isEmpty())
            err.println("Did you mean: " + String.join(", ", u.getSuggestions()) + "?");
          err.println(
              "Try '" + cmd.getCommandSpec().qualifiedName() + " --help' for more information.");
          return cmd.getCommandSpec().exitCodeOnInvalidInput();
        });
    cl.setExecutionExceptionHandler(
        (ex, cmd, parsed) -> {
          PrintWriter err = cmd.getErr();
          if (ex instanceof InvalidRequestException ire) {
            err.println("error: " + Args.shown(Args.message(cmd.getCommandSpec(), ire)));
            return 2;
          }
          if (ex instanceof MnemoException me) {
            err.println("error: " + me.getMessage() + (me.retriable() ? " (retriable)" : ""));
            return 1;
          }
          if (ex instanceof IllegalArgumentException iae) {
            err.println("error: " + iae.getMessage());
            return 2;
          }
          err.println("error: " + ex);
          ex.printStackTrace(err);
          return 1;
        });
    return cl;
  }

  private static String name(Class<?> command) {
    return command.getAnnotation(Command.class).name();
  }
}

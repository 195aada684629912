package dev.mnemo.cli;

import dev.mnemo.InvalidRequestException;
import dev.mnemo.MnemoException;
import java.io.PrintWriter;
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
    description = "Long-term memory for LLM agents: the right few memories, from the right owner, true at the right time.",
    subcommands = {
      DemoCommand.class,
      RememberCommand.class,
      RecallCommand.class,
      HistoryCommand.class, RetainCommand.class, SummarizeCommand.class, RecategorizeCommand.class,
      ForgetCommand.class,
      ImportCommand.class,
      IngestCommand.class,
      ExportCommand.class,
      EvalCommand.class,
      BenchCommand.class,
      ServeCommand.class,
      McpCommand.class,
      CompletionCommand.class,
      SolrCommand.class,
      CommandLine.HelpCommand.class
    })
public final class Main implements Runnable {

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }

  public static void main(String[] args) {
    System.exit(run(args));
  }

  /** Runs the command line and returns the exit code (for tests). */
  public static int run(String... args) {
    CommandLine cl = commandLine();
    return cl.execute(args);
  }

  static CommandLine commandLine() {
    CommandLine cl = new CommandLine(new Main());
    if (cl.getSubcommands().containsKey("bench")) {
      cl.getSubcommands().get("bench").addSubcommand("load", new BenchLoadCommand());
    }
    cl.setExecutionExceptionHandler((ex, cmd, parsed) -> {
      PrintWriter err = cmd.getErr();
      if (ex instanceof InvalidRequestException ire) {
        err.println("error: " + ire.getMessage());
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
}

package dev.mnemo.cli;

import dev.mnemo.Mnemo;
import dev.mnemo.json.JsonCodec;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** Deletes an owner's records, or one record with its clipped copies. */
@Command(
    name = "forget",
    mixinStandardHelpOptions = true,
    description =
        "Delete every record of an owner (all versions and vectors), or one record with --id.")
final class ForgetCommand implements Callable<Integer> {
  @Mixin EngineOptions engine;

  @Option(
      names = "--owner",
      paramLabel = "OWNER",
      required = true,
      description = "Whose records (required).")
  String owner;

  @Option(names = "--id", description = "Only this record (and its clipped copies).")
  String id;

  @Option(
      names = {"--yes", "-y"},
      description =
          "Forget every record of the owner without asking (needed without --id when "
              + "not run in a terminal).")
  boolean yes;

  @Option(names = "--json", description = "Print {owner, id, deleted} as JSON.")
  boolean json;

  @Override
  public Integer call() throws Exception {
    Args.id("--id", id);
    // the owner's rules before the question: no confirmation asked for an owner that cannot be
    dev.mnemo.InputRules.requireOwner("--owner", owner);
    if (id == null && !yes && !confirmed()) return 2;
    engine.embedder = "none";
    try (Mnemo m = engine.open()) {
      int n = id == null ? m.forget(owner) : m.forget(owner, id);
      if (json) {
        var o = JsonCodec.object().put("owner", owner);
        if (id == null) o.putNull("id");
        else o.put("id", id);
        System.out.println(JsonCodec.WRITER.writeValueAsString(o.put("deleted", n)));
      } else {
        System.out.println("deleted " + n + " record" + (n == 1 ? "" : "s"));
      }
      if (id != null && n == 0) {
        System.err.println(
            "error: --id: owner '"
                + Args.shown(owner)
                + "' has no record '"
                + Args.shown(id)
                + "': nothing deleted");
        return 1;
      }
    }
    return 0;
  }

  /**
   * Forgetting an owner cannot be undone, so it is confirmed as in the MCP tool ({@code
   * confirm_all}) and the inspector: in a terminal by typing y; elsewhere (a script, a pipe) only
   * {@code --yes} does.
   */
  private boolean confirmed() {
    java.io.Console console = System.console();
    String question =
        "forget every record of owner '"
            + owner
            + "' (all versions and vectors; this cannot be undone)";
    if (console == null || !Progress.stderrIsTerminal()) {
      System.err.println("error: " + question + " needs --yes (or --id ID to forget one record)");
      return false;
    }
    String answer = console.readLine("%s? [y/N] ", question);
    if (answer != null && answer.trim().equalsIgnoreCase("y")) return true;
    System.err.println("nothing forgotten");
    return false;
  }
}

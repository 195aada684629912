package dev.mnemo.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import picocli.CommandLine;
import picocli.CommandLine.Model.ArgSpec;

/** What {@code --help} shows a new user. */
class HelpTest {
  @RegisterExtension final StdStreams std = new StdStreams();

  @Test
  void everyOptionAndParameterOfEveryCommand_hasADescription() {
    List<String> bare = new ArrayList<>();
    collect(Main.commandLine(), bare);
    assertThat(bare).as("options and parameters without a description").isEmpty();
  }

  private static void collect(CommandLine cmd, List<String> bare) {
    for (ArgSpec a : cmd.getCommandSpec().args()) {
      if (a.hidden()) continue;
      boolean described = a.description().length > 0 && !String.join("", a.description()).isBlank();
      if (!described)
        bare.add(
            cmd.getCommandSpec().qualifiedName()
                + " "
                + (a.isOption()
                    ? ((CommandLine.Model.OptionSpec) a).longestName()
                    : a.paramLabel()));
    }
    cmd.getSubcommands().values().forEach(sub -> collect(sub, bare));
  }

  @Test
  void recallHelp_showsItsOwnOptionsFirst_andTheEngineOptionsUnderTheirOwnHeading() {
    assertThat(Main.run("recall", "--help")).isZero();
    String help = std.out.toString();
    String own = help.substring(0, help.indexOf(HelpLayout.ENGINE_HEADING));
    assertThat(own)
        .startsWith("Usage: mnemo recall [OPTIONS] QUERY")
        .contains("--owner=OWNER", "--k=", "--data=DIR")
        .doesNotContain("--llm-", "--zk", "--solr-urls");
    assertThat(own.lines().count()).isLessThan(45);
    assertThat(help.substring(help.indexOf(HelpLayout.ENGINE_HEADING)))
        .contains("--llm-url", "--embedder", "--store");
  }

  @Test
  void helpTexts_neverBreakAPathOrAUrlAcrossLines() {
    for (String cmd : Main.commandLine().getSubcommands().keySet()) {
      std.reset();
      Main.run(cmd, "--help");
      String help = std.out.toString();
      assertThat(help).as(cmd).doesNotContainPattern("(http:|https:|\\./)\\s*\\n\\s*(//|mnemo)");
    }
    std.reset();
    Main.run("recall", "--help");
    assertThat(std.out.toString()).contains("http://localhost:11434");
  }
}

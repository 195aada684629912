package dev.mnemo.cli;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import picocli.CommandLine;
import picocli.CommandLine.Help;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.UsageMessageSpec;

/**
 * Every command's help: a short synopsis ({@code mnemo recall [OPTIONS] QUERY}), the command's own
 * options first, and the shared engine options (store, embedder, language model, which most users
 * never change) after them under a heading of their own, so that the few options that matter are
 * not buried among some thirty.
 */
final class HelpLayout {
  static final String ENGINE_HEADING =
      "Store, embedder and language model options (the defaults suit most uses):";

  private HelpLayout() {}

  /** Applies the layout to every subcommand of {@code root}, recursively. */
  static void apply(CommandLine root) {
    for (CommandLine sub : root.getSubcommands().values()) {
      layout(sub);
      apply(sub);
    }
  }

  private static void layout(CommandLine cmd) {
    UsageMessageSpec usage = cmd.getCommandSpec().usageMessage();
    usage.abbreviateSynopsis(true);
    Set<String> engine = new HashSet<>();
    engineOptions(cmd.getCommandSpec(), false, engine);
    engine.remove("--data"); // where the store is: every user's first option
    if (engine.isEmpty()) return;
    Map<String, CommandLine.IHelpSectionRenderer> sections =
        new LinkedHashMap<>(usage.sectionMap());
    sections.put(
        UsageMessageSpec.SECTION_KEY_OPTION_LIST,
        help -> {
          List<OptionSpec> own = new ArrayList<>();
          List<OptionSpec> shared = new ArrayList<>();
          for (OptionSpec o : help.commandSpec().options()) {
            if (o.hidden()) continue;
            (engine.contains(o.longestName()) ? shared : own).add(o);
          }
          return list(help, own)
              + System.lineSeparator()
              + ENGINE_HEADING
              + System.lineSeparator()
              + list(help, shared);
        });
    usage.sectionMap(sections);
  }

  private static String list(Help help, List<OptionSpec> options) {
    // A fresh layout per list: a layout accumulates the rows it is given.
    return help.optionListExcludingGroups(
        options,
        help.createDefaultLayout(),
        help.createDefaultOptionSort(),
        help.createDefaultParamLabelRenderer());
  }

  /**
   * The names of the options that come from {@link EngineOptions} and {@link LlmOptions}, in any
   * mixin depth.
   */
  private static void engineOptions(CommandSpec spec, boolean inside, Set<String> out) {
    if (inside) spec.options().forEach(o -> out.add(o.longestName()));
    spec.mixins()
        .values()
        .forEach(
            m ->
                engineOptions(
                    m,
                    inside
                        || m.userObject() instanceof EngineOptions
                        || m.userObject() instanceof LlmOptions,
                    out));
  }
}

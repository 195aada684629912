package dev.mnemo.cli;

/**
 * A top-level command that lives outside the product jar, found with {@link
 * java.util.ServiceLoader} when its jar is on the class path: the {@code mnemo bench} command of
 * {@code mnemo-bench-cli} (which the {@code ./mnemo} launcher runs from that module's jar) keeps
 * the benchmarks and JMH out of {@code mnemo.jar}. An implementation is a picocli {@code @Command}
 * with a public no-argument constructor, registered in {@code
 * META-INF/services/dev.mnemo.cli.CommandPlugin}; it is added to {@code mnemo}'s subcommands under
 * its {@code @Command} name, or to those of the command {@link #parent()} names ({@code
 * mnemo-fit}'s {@code eval fit-relevance}, which keeps XGBoost, Scala and Kryo out of {@code
 * mnemo.jar}).
 */
public interface CommandPlugin {
  /** The top-level command this one is a subcommand of; {@code null} (the default): top level. */
  default String parent() {
    return null;
  }
}

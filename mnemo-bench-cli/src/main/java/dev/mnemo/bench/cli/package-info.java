/**
 * The {@code mnemo bench} command and its {@code load} and {@code log} subcommands: kept out of the
 * product jar (with JMH) and added to the {@code mnemo} command line as a {@link
 * dev.mnemo.cli.CommandPlugin} when this module is on the class path, which is what the {@code
 * ./mnemo} launcher does for {@code bench}.
 */
package dev.mnemo.bench.cli;

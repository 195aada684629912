/**
 * The {@code mnemo} command line ({@link dev.mnemo.cli.Main}, picocli) and the composition root of
 * the runnable jar: it wires stores, embedders, extractors and the servers from options and runs
 * the demo, remember, recall, ingest, import and export, serve, mcp, eval and bench commands.
 */
package dev.mnemo.cli;

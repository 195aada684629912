/**
 * The {@code mnemo} command line ({@link dev.mnemo.cli.Main}, picocli) and the composition root of
 * the runnable jar: it wires stores, embedders, extractors and the servers from options and runs
 * the demo, remember, recall, ingest, import and export, serve, mcp and eval commands ({@code
 * bench} is added from mnemo-bench-cli, outside the product jar: {@link
 * dev.mnemo.cli.CommandPlugin}).
 */
package dev.mnemo.cli;

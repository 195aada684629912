/**
 * Benchmarks of the read path and ingest, outside {@code mvn verify}: {@link
 * dev.mnemo.bench.ReadPathBench} (a library class behind {@code mnemo bench}: latency percentiles
 * for one owner inside a store of a million records, ingest throughput, memory, index size) and the
 * JMH benchmarks ({@link dev.mnemo.bench.RecallBenchmark}, in {@code target/benchmarks.jar}).
 * Stores are filled with {@link dev.mnemo.bench.SyntheticCorpus} records through the store API.
 * They measure and report; nothing here passes or fails on a time.
 */
package dev.mnemo.bench;

package dev.mnemo.spi;

import dev.mnemo.Mnemo;

/**
 * How {@link Mnemo.Builder#build()} reaches the engine without importing it: mnemo-core registers
 * its engine ({@code dev.mnemo.internal.Engines}) in {@code META-INF/services}, and the builder
 * loads it with {@link java.util.ServiceLoader}. Not for applications: build a {@link Mnemo} with
 * {@link Mnemo#builder()}.
 */
public interface EngineFactory {
  /** Opens an engine: checks the store's embedding model, starts ingest and logging. */
  Mnemo open(EngineSettings settings);
}

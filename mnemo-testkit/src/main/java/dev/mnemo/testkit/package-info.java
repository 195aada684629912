/**
 * Test support for Mnemo and its providers: contract suites every {@link dev.mnemo.spi.MemoryStore}
 * and {@link dev.mnemo.spi.Embedder} implementation extends, the in-memory reference store ({@link
 * dev.mnemo.testkit.InMemoryMemoryStore}), and deterministic fakes (a hashing embedder, a settable
 * clock, a scripted chat model that plays recorded replies and provider failures).
 */
package dev.mnemo.testkit;

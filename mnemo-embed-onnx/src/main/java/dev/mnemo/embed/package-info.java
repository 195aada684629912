/**
 * {@link dev.mnemo.spi.Embedder} implementations: {@link dev.mnemo.embed.E5SmallEmbedder}, the offline
 * default that runs quantized e5-small-v2 in process with ONNX Runtime, and {@link
 * dev.mnemo.embed.OpenAiCompatibleEmbedder}, a client for any server that speaks the OpenAI
 * {@code /embeddings} API. Both are registered with {@link java.util.ServiceLoader} under the names
 * {@code e5-small-v2-q} and {@code openai}.
 */
package dev.mnemo.embed;

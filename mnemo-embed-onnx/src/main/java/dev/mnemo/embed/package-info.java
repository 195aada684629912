/**
 * The local {@link dev.mnemo.spi.Embedder}s: {@link dev.mnemo.embed.OnnxEmbedder} runs one of the
 * quantized models of {@link dev.mnemo.embed.OnnxModel} in process with ONNX Runtime; {@link
 * dev.mnemo.embed.E5SmallEmbedder}, the offline default, is it with e5-small-v2, registered with
 * {@link java.util.ServiceLoader} under the name {@code e5-small-v2-q}. The remote
 * OpenAI-compatible embedder lives in {@code mnemo-embed-http} ({@code dev.mnemo.embed.http}), so
 * that a remote-only application does not pull ONNX Runtime and the model.
 */
package dev.mnemo.embed;

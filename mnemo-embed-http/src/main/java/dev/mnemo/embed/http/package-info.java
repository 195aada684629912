/**
 * The remote {@link dev.mnemo.spi.Embedder}: {@link dev.mnemo.embed.http.OpenAiCompatibleEmbedder},
 * a client (the JDK's HttpClient and Jackson, nothing else) for any server that speaks the OpenAI
 * {@code /embeddings} API (OpenAI, vLLM, LM Studio, Ollama's {@code /v1}), registered with {@link
 * java.util.ServiceLoader} under the name {@code openai}. Kept apart from {@code mnemo-embed-onnx}:
 * a remote-only application does not pull ONNX Runtime and the local model (about 118 MB).
 */
package dev.mnemo.embed.http;

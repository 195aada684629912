/**
 * Optional language-model parts of Mnemo, through LangChain4j's {@code ChatModel}: the configured
 * chat model ({@link dev.mnemo.llm.LlmConfig}, {@link dev.mnemo.llm.ChatModels}) with retries on
 * 429, 5xx and time-outs ({@link dev.mnemo.llm.RetryingChatModel}), strict JSON replies checked
 * against a schema and asked again once ({@link dev.mnemo.llm.JsonChat}), and what is built on
 * them: the {@link dev.mnemo.llm.LlmExtractor}, the {@link dev.mnemo.llm.LlmConsolidator}, the
 * {@link dev.mnemo.llm.QueryRewriter}, and the answerer and judge of the answer-level evaluation.
 *
 * <p>Nothing here is needed to run Mnemo: with no model configured the offline rules apply. No test
 * needs a network: tests drive every path with the testkit's {@code ScriptedChatModel}.
 */
package dev.mnemo.llm;

/**
 * Mnemo for LangChain4j: {@link dev.mnemo.langchain4j.MnemoChatMemory} (the message window,
 * finished turns ingested, long-term records recalled into the prompt) and {@link
 * dev.mnemo.langchain4j.MnemoContentRetriever} (recall as a {@code ContentRetriever}); a {@link
 * dev.mnemo.langchain4j.Conversation} memory id names the owner and the conversation.
 */
package dev.mnemo.langchain4j;

/**
 * Mnemo for Spring AI: {@link dev.mnemo.spring.ai.MnemoAdvisor}, a {@code ChatClient} advisor that
 * recalls the owner's long-term records into the system message and ingests each exchange.
 */
package dev.mnemo.spring.ai;

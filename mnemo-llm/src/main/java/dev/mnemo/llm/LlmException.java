package dev.mnemo.llm;

import dev.mnemo.MnemoException;

/**
 * A language-model call failed: the provider kept failing (time-outs, 429, 5xx: {@link
 * #retriable()} true) or refused the request, or its reply stayed invalid after the one retry (not
 * retriable).
 */
public class LlmException extends MnemoException {
  private static final long serialVersionUID = 1L;

  public LlmException(String message, boolean retriable, Throwable cause) {
    super(message, retriable, cause);
  }

  public LlmException(String message, boolean retriable) {
    super(message, retriable);
  }
}

package dev.mnemo;

/**
 * The one unchecked root of every error Mnemo raises.
 *
 * <p>{@link #retriable()} says whether the same call may succeed later unchanged (a provider's
 * time-out, 429 or 5xx); a bad request or a corrupt store is not retriable. Servers map this type
 * to HTTP and MCP errors in one place.
 */
public class MnemoException extends RuntimeException {
  private static final long serialVersionUID = 1L;
  private final boolean retriable;

  public MnemoException(String message, boolean retriable) {
    super(message);
    this.retriable = retriable;
  }

  public MnemoException(String message, boolean retriable, Throwable cause) {
    super(message, cause);
    this.retriable = retriable;
  }

  /** Whether repeating the same call unchanged may succeed. */
  public boolean retriable() {
    return retriable;
  }
}

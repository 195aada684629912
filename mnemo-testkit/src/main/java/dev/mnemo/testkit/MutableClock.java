package dev.mnemo.testkit;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;

/** A clock tests set by hand. Thread-safe. */
public final class MutableClock implements InstantSource {
  private volatile Instant now;

  public MutableClock(Instant start) {
    this.now = start;
  }

  public static MutableClock at(String iso) {
    return new MutableClock(Instant.parse(iso));
  }

  @Override
  public Instant instant() {
    return now;
  }

  public void set(Instant t) {
    now = t;
  }

  public void advance(Duration d) {
    now = now.plus(d);
  }
}

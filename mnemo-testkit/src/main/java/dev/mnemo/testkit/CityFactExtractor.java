package dev.mnemo.testkit;

import dev.mnemo.Category;
import dev.mnemo.NewMemory;
import dev.mnemo.Turn;
import dev.mnemo.spi.Extractor;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A scripted {@link Extractor} standing in for an LLM one in integration tests: a user's "I live in
 * X" or "I moved to X" becomes the semantic fact {@code city} ("The user's home city is X."), so a
 * later move supersedes it; any other user or assistant message becomes an episodic memory of
 * itself, in the turn's episode. Deterministic and thread-safe.
 */
public final class CityFactExtractor implements Extractor {
  private static final Pattern LIVE =
      Pattern.compile("(?i)\\bI (?:live|moved) (?:in|to) ([A-Z][a-z]+)");

  @Override
  public String id() {
    return "scripted";
  }

  @Override
  public List<NewMemory> extract(Batch batch) {
    List<NewMemory> out = new ArrayList<>();
    for (Turn t : batch.turns()) {
      Matcher m = LIVE.matcher(t.text());
      NewMemory.Builder b =
          t.role() == Turn.Role.USER && m.find()
              ? NewMemory.builder(t.owner(), "The user's home city is " + m.group(1) + ".")
                  .factKey("city")
                  .category(Category.SEMANTIC)
              : NewMemory.builder(t.owner(), t.text()).category(Category.EPISODIC);
      if (t.episode() != null) b.episode(t.episode(), out.size());
      out.add(b.source(t.id()).recordedAt(t.at()).validFrom(t.at()).build());
    }
    return out;
  }
}

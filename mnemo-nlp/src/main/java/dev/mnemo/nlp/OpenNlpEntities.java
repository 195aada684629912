package dev.mnemo.nlp;

import dev.mnemo.text.Entities;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.function.Function;
import opennlp.tools.postag.POSModel;
import opennlp.tools.postag.POSTaggerME;
import opennlp.tools.tokenize.SimpleTokenizer;
import opennlp.tools.util.Span;

/**
 * Names in a text found by a part-of-speech model rather than by capital letters: Apache OpenNLP's
 * English UD-EWT tagger ({@code org.apache.opennlp:opennlp-models-pos-en}, shipped in a Maven jar,
 * no download at run time) tags each token, and a run of proper nouns is a name.
 *
 * <p>Why a POS model and not a named-entity model: OpenNLP's name-finder models are not published
 * to Maven Central; the UD part-of-speech models are. A proper noun is what the write path needs
 * (people, places, products, pets), and the tagger reads context, so a sentence-initial "Maya" is a
 * name while "Which" or "Thanks" is not, and a lower-case "kyoto" in a chat can still be tagged.
 *
 * <p>Output like {@link Entities#extract} (normalized keys, so "Sam", "Sam's" and "SAM" meet), of
 * which it keeps the names the model confirms (see {@link #apply}). Thread-safe: the model is
 * shared, each thread has its own tagger. Loading the model takes a fraction of a second (measured
 * in {@code docs/write-path.md}); load once.
 */
public final class OpenNlpEntities implements Function<String, List<String>> {
  private final POSModel model;
  private final ThreadLocal<POSTaggerME> taggers;

  private OpenNlpEntities(POSModel model) {
    this.model = model;
    this.taggers = ThreadLocal.withInitial(() -> new POSTaggerME(this.model));
  }

  /** Loads the English UD-EWT part-of-speech model from the class path. */
  public static OpenNlpEntities load() {
    try (InputStream props = OpenNlpEntities.class.getResourceAsStream("/model.properties")) {
      Properties p = new Properties();
      if (props != null) p.load(props);
      String name = p.getProperty("model.name", "opennlp-en-ud-ewt-pos-1.3-2.5.4.bin");
      try (InputStream in = OpenNlpEntities.class.getResourceAsStream("/" + name)) {
        if (in == null) {
          throw new IllegalStateException(
              "the OpenNLP part-of-speech model "
                  + name
                  + " is not on the class path "
                  + "(org.apache.opennlp:opennlp-models-pos-en)");
        }
        return new OpenNlpEntities(new POSModel(in));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(
          "cannot read the OpenNLP part-of-speech model: " + e.getMessage(), e);
    }
  }

  /**
   * The heuristic proposes, the model confirms: of {@link Entities#extract}'s names, a single word
   * is kept when the tagger reads it as a proper noun, and a phrase ("new york") when any of its
   * words is one. Measured on a hand-written fixture (see the test), this drops the heuristic's
   * capitalized sentence starters ("Honestly", "Sounds") and the model's calendar words ("Friday",
   * which UD tags as a proper noun) and odd tags.
   */
  @Override
  public List<String> apply(String text) {
    if (text == null || text.isBlank()) return List.of();
    Set<String> confirmed = properNouns(text);
    Set<String> out = new LinkedHashSet<>();
    for (String key : Entities.extract(text)) {
      if (key.indexOf(' ') < 0) {
        if (confirmed.contains(key)) out.add(key);
      } else {
        for (String w : key.split(" ")) {
          if (confirmed.contains(w)) {
            out.add(key);
            break;
          }
        }
      }
    }
    return List.copyOf(out);
  }

  /** The normalized tokens the tagger reads as proper nouns. */
  public Set<String> properNouns(String text) {
    Span[] spans = SimpleTokenizer.INSTANCE.tokenizePos(text);
    String[] tokens = Span.spansToStrings(spans, text);
    String[] tags = taggers.get().tag(tokens);
    Set<String> out = new LinkedHashSet<>();
    for (int i = 0; i < tokens.length; i++) {
      String key = Entities.normalize(tokens[i]);
      if (isProperNoun(tags[i]) && key.length() > 1) out.add(key);
    }
    return out;
  }

  private static boolean isProperNoun(String tag) {
    return tag.equals("PROPN") || tag.equals("NNP") || tag.equals("NNPS");
  }
}

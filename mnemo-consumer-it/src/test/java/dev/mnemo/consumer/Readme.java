package dev.mnemo.consumer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** The fenced code blocks of a Markdown file, with the heading they sit under. */
record Readme(List<Block> blocks) {

  /**
   * One fenced block: its info string ({@code java}, {@code bash illustrative}), the section and
   * its text.
   */
  record Block(String info, String section, String text, int line) {
    String language() {
      return info.isBlank() ? "" : info.split("\\s+")[0];
    }
  }

  static Readme of(Path file) {
    try {
      List<Block> blocks = new ArrayList<>();
      List<String> lines = Files.readAllLines(file);
      String section = "";
      for (int i = 0; i < lines.size(); i++) {
        String l = lines.get(i);
        if (l.startsWith("#")) section = l.replaceFirst("^#+\\s*", "");
        if (l.startsWith("```")) {
          String info = l.substring(3).trim();
          int start = i;
          StringBuilder text = new StringBuilder();
          for (i++; i < lines.size() && !lines.get(i).startsWith("```"); i++)
            text.append(lines.get(i)).append('\n');
          blocks.add(new Block(info, section, text.toString(), start + 1));
        }
      }
      return new Readme(List.copyOf(blocks));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The first block of this language in the section whose heading starts with {@code section}. */
  Block first(String section, String language) {
    return blocks.stream()
        .filter(b -> b.section().startsWith(section) && b.language().equals(language))
        .findFirst()
        .orElseThrow(
            () -> new AssertionError("no ```" + language + " block under \"" + section + "\""));
  }
}

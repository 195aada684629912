package dev.mnemo;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.Executable;
import java.lang.reflect.Field;
import java.lang.reflect.Member;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The public API of mnemo-core, as a checked-in listing ({@code mnemo-core/api/mnemo-core.api})
 * that this test compares with the compiled classes, so that an API change is a visible diff in
 * review rather than a side effect: every public or protected type, constructor, method and field
 * outside {@code dev.mnemo.internal}, one line each, sorted. A change fails the test with the lines
 * added and removed; {@code -Dmnemo.api.update=true} rewrites the listing (then commit it).
 *
 * <p>Hand-written because the Maven tools that compare APIs (japicmp, Revapi) compare against a
 * released artifact, and Mnemo has none yet; Kotlin's binary-compatibility validator, which works
 * this way, is a Gradle plugin. Reflection lists what a caller can reach, which is what the listing
 * is for (not byte-code details such as bridge or synthetic methods).
 */
class ApiListingTest {
  private static final Path LISTING = Path.of("api", "mnemo-core.api");

  @Test
  void publicApi_isTheCheckedInListing() throws IOException, URISyntaxException {
    List<String> now = listing();
    if (Boolean.getBoolean("mnemo.api.update")) {
      Files.createDirectories(LISTING.getParent());
      Files.write(LISTING, now, StandardCharsets.UTF_8);
    }
    assertThat(Files.exists(LISTING))
        .as("%s is missing: run this test with -Dmnemo.api.update=true and commit it", LISTING)
        .isTrue();
    List<String> checkedIn = Files.readAllLines(LISTING, StandardCharsets.UTF_8);
    List<String> added = new ArrayList<>(now);
    added.removeAll(checkedIn);
    List<String> removed = new ArrayList<>(checkedIn);
    removed.removeAll(now);
    assertThat(added.isEmpty() && removed.isEmpty())
        .as(
            "mnemo-core's public API differs from %s (rerun with -Dmnemo.api.update=true to accept"
                + " the change, and commit the listing)%nadded:%n  %s%nremoved:%n  %s",
            LISTING, String.join("\n  ", added), String.join("\n  ", removed))
        .isTrue();
  }

  /** The API lines of every public type below {@code dev/mnemo} in the main classes' directory. */
  static List<String> listing() throws IOException, URISyntaxException {
    Path root = Path.of(Mnemo.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    TreeSet<String> lines = new TreeSet<>();
    try (Stream<Path> files = Files.walk(root.resolve("dev/mnemo"))) {
      for (Path f : files.filter(p -> p.toString().endsWith(".class")).toList()) {
        String name = root.relativize(f).toString().replace('\\', '/');
        name = name.substring(0, name.length() - ".class".length()).replace('/', '.');
        if (name.startsWith("dev.mnemo.internal.") || name.endsWith("package-info")) continue;
        Class<?> c;
        try {
          c = Class.forName(name, false, ApiListingTest.class.getClassLoader());
        } catch (ClassNotFoundException e) {
          throw new IllegalStateException(e);
        }
        if (reachable(c)) describe(c, lines);
      }
    }
    return List.copyOf(lines);
  }

  private static boolean reachable(Class<?> c) {
    if (c.isAnonymousClass() || c.isLocalClass() || c.isSynthetic()) return false;
    for (Class<?> k = c; k != null; k = k.getDeclaringClass()) {
      if (!Modifier.isPublic(k.getModifiers()) && !Modifier.isProtected(k.getModifiers()))
        return false;
    }
    return true;
  }

  private static void describe(Class<?> c, TreeSet<String> lines) {
    String type = c.getName();
    lines.add(type + " " + header(c));
    for (Constructor<?> k : c.getDeclaredConstructors()) member(type, k, lines);
    for (Method m : c.getDeclaredMethods()) member(type, m, lines);
    for (Field f : c.getDeclaredFields()) member(type, f, lines);
  }

  private static void member(String type, Member m, TreeSet<String> lines) {
    int mod = m.getModifiers();
    if (m.isSynthetic() || (!Modifier.isPublic(mod) && !Modifier.isProtected(mod))) return;
    if (m instanceof Method method && method.isBridge()) return;
    String text = m instanceof Executable e ? e.toGenericString() : ((Field) m).toGenericString();
    // the member's name without its type's, which starts the line
    lines.add(type + " | " + text.replace(type + ".", ""));
  }

  private static String header(Class<?> c) {
    StringBuilder s = new StringBuilder(Modifier.toString(c.getModifiers()));
    s.append(c.isRecord() ? " record" : c.isEnum() ? " enum" : c.isInterface() ? "" : " class");
    if (c.getGenericSuperclass() != null
        && c.getSuperclass() != Object.class
        && c.getSuperclass() != Record.class
        && c.getSuperclass() != Enum.class) {
      s.append(" extends ").append(c.getGenericSuperclass().getTypeName());
    }
    String[] interfaces =
        Arrays.stream(c.getGenericInterfaces()).map(t -> t.getTypeName()).toArray(String[]::new);
    if (interfaces.length > 0) s.append(" implements ").append(String.join(", ", interfaces));
    if (c.isSealed()) {
      s.append(" permits ")
          .append(
              String.join(
                  ", ", Arrays.stream(c.getPermittedSubclasses()).map(Class::getName).toList()));
    }
    return s.toString().strip();
  }
}

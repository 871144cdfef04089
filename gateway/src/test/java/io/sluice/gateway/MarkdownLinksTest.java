package io.sluice.gateway;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The repository stands alone: every Markdown link in a {@code *.md} file leads to a file inside the
 * repository that exists, and no text file sends readers to the specification folder that lives
 * outside it.
 */
class MarkdownLinksTest {

  /** Built in two parts so that this file does not mention it. */
  private static final String OUTSIDE_SPEC = "shared" + "/spec";

  /** {@code [text](target)} and {@code ![alt](target "title")}; the text may hold one level of brackets. */
  private static final Pattern INLINE_LINK =
      Pattern.compile("!?\\[(?:[^\\[\\]]|\\[[^\\[\\]]*\\])*\\]\\(\\s*<?([^\\s)>]*)>?(?:\\s+\"[^\"]*\")?\\s*\\)");
  /** {@code [label]: target} reference definitions. */
  private static final Pattern REFERENCE_DEFINITION = Pattern.compile("^ {0,3}\\[[^\\]]+\\]:\\s*<?(\\S+?)>?(?:\\s.*)?$");
  private static final Pattern SCHEME = Pattern.compile("^[A-Za-z][A-Za-z0-9+.-]*:");

  @Test
  void everyMarkdownLinkLeadsToAFileInTheRepository() throws IOException {
    Path root = repositoryRoot();
    List<String> problems = new ArrayList<>();
    for (Path file : trackedFiles(root)) {
      if (!file.getFileName().toString().toLowerCase(Locale.ROOT).endsWith(".md") || !Files.isRegularFile(file)) {
        continue;
      }
      List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
      boolean fenced = false;
      String fence = null;
      for (int i = 0; i < lines.size(); i++) {
        String line = lines.get(i);
        String trimmed = line.stripLeading();
        if (fenced) {
          if (trimmed.startsWith(fence)) {
            fenced = false;
          }
          continue;
        }
        if (trimmed.startsWith("```") || trimmed.startsWith("~~~")) {
          fenced = true;
          fence = trimmed.substring(0, 3);
          continue;
        }
        String text = withoutCodeSpans(line);
        List<String> targets = new ArrayList<>();
        Matcher inline = INLINE_LINK.matcher(text);
        while (inline.find()) {
          targets.add(inline.group(1));
        }
        Matcher definition = REFERENCE_DEFINITION.matcher(text);
        if (definition.matches()) {
          targets.add(definition.group(1));
        }
        for (String target : targets) {
          String problem = check(root, file, target);
          if (problem != null) {
            problems.add(root.relativize(file) + ":" + (i + 1) + ": " + target + " — " + problem);
          }
        }
      }
    }
    assertThat(problems).as("Markdown links that lead outside the repository or nowhere").isEmpty();
  }

  @Test
  void noTextFileMentionsTheSpecificationOutsideTheRepository() throws IOException {
    Path root = repositoryRoot();
    List<String> problems = new ArrayList<>();
    for (Path file : trackedFiles(root)) {
      if (!Files.isRegularFile(file)) {
        continue;
      }
      byte[] bytes = Files.readAllBytes(file);
      if (isBinary(bytes)) {
        continue;
      }
      String[] lines = new String(bytes, StandardCharsets.UTF_8).split("\n", -1);
      for (int i = 0; i < lines.length; i++) {
        if (lines[i].contains(OUTSIDE_SPEC)) {
          problems.add(root.relativize(file) + ":" + (i + 1) + ": " + lines[i].strip());
        }
      }
    }
    assertThat(problems).as("mentions of " + OUTSIDE_SPEC + ", which is not in the repository").isEmpty();
  }

  /** Null when the target is fine: a web or mail link, a pure anchor, or an existing path inside the root. */
  private static String check(Path root, Path file, String target) {
    if (target.isEmpty()) {
      return "empty link";
    }
    String lower = target.toLowerCase(Locale.ROOT);
    if (lower.startsWith("http://") || lower.startsWith("https://") || lower.startsWith("mailto:")
        || target.startsWith("#")) {
      return null;
    }
    if (SCHEME.matcher(target).find() || target.startsWith("//")) {
      return "leads outside the repository";
    }
    String path = target;
    int cut = indexOfAny(path, '#', '?');
    if (cut >= 0) {
      path = path.substring(0, cut);
    }
    path = URLDecoder.decode(path.replace("+", "%2B"), StandardCharsets.UTF_8);
    Path resolved = (path.startsWith("/") ? root.resolve(path.substring(1)) : file.getParent().resolve(path))
        .normalize();
    if (!resolved.startsWith(root)) {
      return "leads outside the repository";
    }
    if (!Files.exists(resolved)) {
      return "no such file";
    }
    return null;
  }

  private static int indexOfAny(String s, char a, char b) {
    int i = s.indexOf(a);
    int j = s.indexOf(b);
    return i < 0 ? j : j < 0 ? i : Math.min(i, j);
  }

  /** Blanks out {@code `code`} spans so that link-like text in code is not read as a link. */
  private static String withoutCodeSpans(String line) {
    StringBuilder out = new StringBuilder(line.length());
    int i = 0;
    while (i < line.length()) {
      if (line.charAt(i) != '`') {
        out.append(line.charAt(i++));
        continue;
      }
      int run = 0;
      while (i + run < line.length() && line.charAt(i + run) == '`') {
        run++;
      }
      String ticks = "`".repeat(run);
      int close = line.indexOf(ticks, i + run);
      if (close < 0) {
        out.append(ticks);
        i += run;
        continue;
      }
      out.append(" ".repeat(close + run - i));
      i = close + run;
    }
    return out.toString();
  }

  private static boolean isBinary(byte[] bytes) {
    int n = Math.min(bytes.length, 8000);
    for (int i = 0; i < n; i++) {
      if (bytes[i] == 0) {
        return true;
      }
    }
    return false;
  }

  /** The module's parent directory: the repository's root. */
  private static Path repositoryRoot() {
    String basedir = System.getProperty("basedir", System.getProperty("user.dir"));
    Path module = Path.of(basedir).toAbsolutePath().normalize();
    return module.getParent();
  }

  /** The files git tracks (and new ones it does not ignore); without git, a walk skipping target/ and .git/. */
  private static List<Path> trackedFiles(Path root) throws IOException {
    List<Path> listed = gitFiles(root);
    if (listed != null) {
      return listed;
    }
    try (Stream<Path> walk = Files.walk(root)) {
      return walk.filter(Files::isRegularFile)
          .filter(p -> {
            for (Path part : root.relativize(p)) {
              String name = part.toString();
              if (name.equals("target") || name.equals(".git")) {
                return false;
              }
            }
            return true;
          })
          .sorted()
          .toList();
    }
  }

  private static List<Path> gitFiles(Path root) {
    try {
      Process git = new ProcessBuilder("git", "ls-files", "-z", "--cached", "--others", "--exclude-standard")
          .directory(root.toFile())
          .redirectError(ProcessBuilder.Redirect.DISCARD)
          .start();
      byte[] out;
      try (InputStream in = git.getInputStream()) {
        out = in.readAllBytes();
      }
      if (!git.waitFor(60, TimeUnit.SECONDS) || git.exitValue() != 0) {
        return null;
      }
      List<Path> files = new ArrayList<>();
      for (String name : new String(out, StandardCharsets.UTF_8).split("\0")) {
        if (!name.isEmpty()) {
          files.add(root.resolve(name));
        }
      }
      return files;
    } catch (IOException e) {
      return null;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return null;
    }
  }
}

package io.sluice.verticles.rls;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;
import java.util.stream.Stream;

/**
 * The config in force and where it comes from. {@link #get} is what each request reads (one
 * volatile read); {@link #reloadIfChanged} and {@link #reload} re-read the file or directory and
 * swap the new config in whole, or keep the old one when the new one is refused. Counters live in
 * the shards under keys made of the request's entries, not of the config, so a reload keeps them.
 * Reading files blocks: call the reloads off the event loops.
 */
public final class RlsConfigSource implements Supplier<RlsConfig> {

  /**
   * What a reload did.
   *
   * @param dropped domains the config before had and the new one has not (a file removed): their
   *                descriptors now have no limit
   */
  public record Reload(Outcome outcome, String detail, List<String> dropped) {

    public Reload(Outcome outcome, String detail) {
      this(outcome, detail, List.of());
    }
  }

  public enum Outcome { UNCHANGED, RELOADED, REFUSED }

  private final Path path;
  private final boolean mergeDomains;
  private volatile RlsConfig current;
  private final ConfigLoads loads = new ConfigLoads();
  /** What the files looked like when last read, refused or not: a broken file is reported once. */
  private List<String> lastSeen;

  private RlsConfigSource(Path path, boolean mergeDomains, RlsConfig current, List<String> seen) {
    this.path = path;
    this.mergeDomains = mergeDomains;
    this.current = current;
    this.lastSeen = seen;
    if (path != null) {
      loads.succeeded();
    }
  }

  /** No config: every domain unknown, every descriptor OK without a limit. */
  public static RlsConfigSource none() {
    return new RlsConfigSource(null, false, RlsConfig.EMPTY, List.of());
  }

  /** Reads the config at startup, where a refused config stops the start. */
  public static RlsConfigSource load(Path path) throws RlsConfigException {
    return load(path, false);
  }

  /** Reads the config at startup, merging the files of one domain when asked (MERGE_DOMAIN_CONFIG). */
  public static RlsConfigSource load(Path path, boolean mergeDomains) throws RlsConfigException {
    List<String> seen = fingerprint(path);
    return new RlsConfigSource(path, mergeDomains, RlsConfigReader.read(path, mergeDomains), seen);
  }

  /**
   * Reads the config as this source reads it, without putting it in force (a SIGHUP reads first);
   * a config refused here counts as a failed load.
   */
  public RlsConfig read() throws RlsConfigException {
    try {
      return RlsConfigReader.read(path, mergeDomains);
    } catch (RlsConfigException refused) {
      loads.failed();
      throw refused;
    }
  }

  /** The configs put in force and refused so far. */
  public ConfigLoads loads() {
    return loads;
  }

  @Override
  public RlsConfig get() {
    return current;
  }

  /** The file or directory watched, or null. */
  public Path path() {
    return path;
  }

  /** Re-reads the config if a file was changed, added or removed since it was last read. */
  public synchronized Reload reloadIfChanged() {
    if (path == null || fingerprint(path).equals(lastSeen)) {
      return new Reload(Outcome.UNCHANGED, "");
    }
    return reload();
  }

  /** Re-reads the config now (a SIGHUP, an operator's request). */
  public synchronized Reload reload() {
    if (path == null) {
      return new Reload(Outcome.UNCHANGED, "no --rls-config");
    }
    lastSeen = fingerprint(path);
    try {
      return swapIn(read());
    } catch (RlsConfigException refused) {
      return new Reload(Outcome.REFUSED, refused.getMessage());
    }
  }

  /**
   * Puts in force a config already read from {@link #path()} with {@link RlsConfigReader}: a SIGHUP
   * reads first, so that a refused file changes nothing.
   */
  public synchronized Reload install(RlsConfig read) {
    lastSeen = fingerprint(path);
    return swapIn(read);
  }

  /**
   * Puts in force a config that comes from elsewhere than files (a version an xDS server pushed),
   * swapped in whole as a reload is, counters kept.
   */
  public synchronized Reload replace(RlsConfig pushed) {
    return swapIn(pushed);
  }

  private Reload swapIn(RlsConfig read) {
    List<String> dropped = current.domainsMissingFrom(read);
    current = read;
    loads.succeeded();
    return new Reload(Outcome.RELOADED, "domains " + read.domains().keySet().stream().sorted().toList()
        + " from " + read.sources(), dropped);
  }

  /** Name, size and modification time of the file, or of the directory and each config file in it. */
  private static List<String> fingerprint(Path path) {
    List<String> marks = new ArrayList<>();
    marks.add(mark(path));
    if (Files.isDirectory(path)) {
      try (Stream<Path> listing = Files.list(path)) {
        listing.filter(RlsConfigReader::isConfigFile).sorted().forEach(file -> marks.add(mark(file)));
      } catch (IOException unreadable) {
        marks.add("unreadable: " + unreadable.getMessage());
      }
    }
    return marks;
  }

  private static String mark(Path file) {
    try {
      BasicFileAttributes attributes = Files.readAttributes(file, BasicFileAttributes.class);
      return file + " " + attributes.size() + " " + attributes.lastModifiedTime().toInstant();
    } catch (IOException missing) {
      return file + " missing";
    }
  }

  @Override
  public String toString() {
    return "rate limit config " + Objects.toString(path, "(none)");
  }
}

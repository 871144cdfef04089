package io.sluice.verticles.server.reload;

import io.vertx.core.Vertx;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.List;
import java.util.Objects;

/**
 * Calls back when any of some files changes (modification time or size), checked on a Vert.x timer:
 * certificates renewed by an ACME client and tokens rotated by a secret store are picked up with
 * no restart and no signal. A file that is missing for a moment (replaced by rename) counts as a
 * change when it reappears. Polling, not a WatchService: it sees through symbolic links, as
 * Kubernetes mounts secrets, and costs one stat per file per period.
 */
public final class FileWatch {

  /** How often the files are checked. */
  public static final long PERIOD_MILLIS = 1000;

  private final Vertx vertx;
  private final List<Path> files;
  private final Runnable onChange;
  private List<String> lastSeen;
  private long timer = -1;

  private FileWatch(Vertx vertx, List<Path> files, Runnable onChange) {
    this.vertx = vertx;
    this.files = List.copyOf(files);
    this.onChange = onChange;
    this.lastSeen = stamps();
  }

  /** Starts watching {@code files}; {@code onChange} runs on an event loop after each change. */
  public static FileWatch start(Vertx vertx, List<Path> files, Runnable onChange) {
    FileWatch watch = new FileWatch(vertx, files, onChange);
    // A stat is a few microseconds: cheap enough for the event loop once a second.
    watch.timer = vertx.setPeriodic(PERIOD_MILLIS, id -> watch.check());
    return watch;
  }

  public void stop() {
    vertx.cancelTimer(timer);
  }

  private void check() {
    List<String> now = stamps();
    if (!now.equals(lastSeen)) {
      lastSeen = now;
      onChange.run();
    }
  }

  private List<String> stamps() {
    return files.stream().map(FileWatch::stamp).toList();
  }

  private static String stamp(Path file) {
    try {
      BasicFileAttributes attributes = Files.readAttributes(file, BasicFileAttributes.class);
      return attributes.lastModifiedTime().toMillis() + "/" + attributes.size() + "/"
          + Objects.toString(attributes.fileKey());
    } catch (IOException missing) {
      return "missing";
    }
  }
}

package io.sluice.verticles.engine.persist;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * One shard's files in a data directory, checked as a chain before any is read. A whole chain is
 * the newest snapshot {@code s} and a log for every generation from {@code s} to the newest, or,
 * with no snapshot, a log for every generation from 1 on (generations are numbered from 1, and
 * only a snapshot deletes logs); every file of it begins with a whole header. Why nothing else is
 * a crash's doing:
 * <ul>
 *   <li>a log and a snapshot are renamed into place only once their header is on disk, so a crash
 *       while one is created leaves a {@code .tmp} file (deleted here), never a short file;</li>
 *   <li>a snapshot's own log is in place before the snapshot, and the files it replaces are
 *       deleted only after it: a crash in between leaves files older than the newest snapshot,
 *       which are {@link #superseded} (deleted once the chain loads).</li>
 * </ul>
 * A gap or a short file in the chain therefore means lost data: a file deleted or emptied, or a
 * disk that failed before a snapshot could repair it. {@link #gaps} names each such file.
 */
final class ShardChain {

  /** A file of the chain that is missing or shorter than its header: what it held is lost. */
  record Gap(Path file, String problem) {
    @Override
    public String toString() {
      return file + ": " + problem;
    }
  }

  private final List<DataFile> links = new ArrayList<>();
  private final List<DataFile> superseded = new ArrayList<>();
  private final List<Gap> gaps = new ArrayList<>();
  private long lastGeneration;

  private ShardChain() {
  }

  /** The files to read, in order: the newest snapshot (if any), then the logs from its generation on. */
  List<DataFile> links() {
    return links;
  }

  /** Files older than the newest snapshot: what it replaced. */
  List<DataFile> superseded() {
    return superseded;
  }

  List<Gap> gaps() {
    return gaps;
  }

  /** The newest generation of any file of the shard, 0 for none: the next log takes the one after. */
  long lastGeneration() {
    return lastGeneration;
  }

  /**
   * Lists {@code identity}'s shard's files in {@code dir}, deleting what a crash left half made.
   *
   * @throws DamagedFileException a file of a shard this start does not have (another {@code --shards})
   */
  static ShardChain of(Path dir, DataFile identity) throws IOException {
    ShardChain chain = new ShardChain();
    TreeMap<Long, Long> logSizes = new TreeMap<>();
    TreeMap<Long, Long> snapshotSizes = new TreeMap<>();
    for (DataFile file : list(dir, identity)) {
      (file.kind() == DataFile.LOG ? logSizes : snapshotSizes).put(file.generation(), Files.size(file.in(dir)));
      chain.lastGeneration = Math.max(chain.lastGeneration, file.generation());
    }
    if (chain.lastGeneration == 0) {
      return chain; // a first start
    }
    DataFile log = identity.withKind(DataFile.LOG);
    DataFile snapshot = identity.withKind(DataFile.SNAPSHOT);
    long first = snapshotSizes.isEmpty() ? logSizes.firstKey() : snapshotSizes.lastKey();
    if (snapshotSizes.isEmpty()) {
      if (first != 1) {
        chain.gaps.add(new Gap(snapshot.withGeneration(first).in(dir), "missing: the logs begin at generation " + first
            + " and no snapshot holds what came before (their first is generation 1)"));
      }
    } else {
      chain.link(dir, snapshot.withGeneration(first), snapshotSizes.get(first), "the records it held");
    }
    logSizes.keySet().stream().filter(g -> g < first).forEach(g -> chain.superseded.add(log.withGeneration(g)));
    snapshotSizes.keySet().stream().filter(g -> g < first).forEach(g -> chain.superseded.add(snapshot.withGeneration(g)));
    for (long g = first; g <= chain.lastGeneration; g++) {
      chain.link(dir, log.withGeneration(g), logSizes.get(g), "the changes of generation " + g);
    }
    return chain;
  }

  /** Adds {@code file} (of {@code size} bytes, null when missing) to the chain, or a gap. */
  private void link(Path dir, DataFile file, Long size, String held) {
    if (size == null) {
      gaps.add(new Gap(file.in(dir), "missing (" + held + ")"));
    } else if (size < DataFile.HEADER_BYTES) {
      gaps.add(new Gap(file.in(dir), size + " bytes, shorter than the " + DataFile.HEADER_BYTES
          + "-byte header every data file begins with (" + held + ")"));
    } else {
      links.add(file);
    }
  }

  /** The shard's data files, after deleting its {@code .tmp} files (a log or snapshot a crash left unfinished). */
  private static List<DataFile> list(Path dir, DataFile identity) throws IOException {
    List<DataFile> files = new ArrayList<>();
    try (Stream<Path> listing = Files.list(dir)) {
      for (Path path : listing.toList()) {
        String name = path.getFileName().toString();
        if (name.endsWith(".tmp")) {
          if (DataFile.named(name.substring(0, name.length() - 4)).filter(f -> f.shard() == identity.shard())
              .isPresent()) {
            Files.delete(path);
          }
          continue;
        }
        DataFile.named(name).ifPresent(file -> {
          if (file.shard() >= identity.shards()) {
            throw new DamagedFileException(name, 0, "belongs to shard " + file.shard() + ", but this start has only "
                + identity.shards() + " shards: start with the --shards the data was written with", false);
          }
          if (file.shard() == identity.shard()) {
            files.add(file);
          }
        });
      }
    }
    return files;
  }
}

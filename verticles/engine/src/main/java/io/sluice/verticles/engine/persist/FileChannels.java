package io.sluice.verticles.engine.persist;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.OpenOption;
import java.nio.file.Path;

/**
 * How the writer opens the files it writes (logs, snapshots). The disk in production; a test gives
 * a channel it can make slow, to see what a disk slower than the changes does.
 */
@FunctionalInterface
public interface FileChannels {

  FileChannels DISK = FileChannel::open;

  FileChannel open(Path path, OpenOption... options) throws IOException;
}

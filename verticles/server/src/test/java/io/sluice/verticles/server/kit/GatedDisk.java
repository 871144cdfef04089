package io.sluice.verticles.server.kit;

import io.sluice.verticles.engine.persist.FileChannels;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A disk a test makes as slow as it likes: while {@link #close closed}, every write to the files the
 * persistence writer opens waits until {@link #open} (a writer stuck on a slow disk, without any
 * sleep). {@link #stuckWriters} says how many writes wait, so a test knows when the writer is stuck.
 * While {@link #fill full}, files are still created but every write fails, as on a full disk.
 */
public final class GatedDisk implements FileChannels {

  private final Object gate = new Object();
  private boolean closed;
  private boolean full;
  private final AtomicInteger stuck = new AtomicInteger();

  @Override
  public FileChannel open(Path path, OpenOption... options) throws IOException {
    return new Gated(FileChannel.open(path, options));
  }

  /** From now on writes wait. */
  public void close() {
    synchronized (gate) {
      closed = true;
    }
  }

  /** From now on writes fail: "No space left on device". */
  public void fill() {
    synchronized (gate) {
      full = true;
    }
  }

  /** Lets every waiting and later write through (and frees a full disk). */
  public void open() {
    synchronized (gate) {
      closed = false;
      full = false;
      gate.notifyAll();
    }
  }

  public int stuckWriters() {
    return stuck.get();
  }

  private void pass() throws IOException {
    synchronized (gate) {
      if (full) {
        throw new IOException("No space left on device");
      }
      if (!closed) {
        return;
      }
      stuck.incrementAndGet();
      try {
        while (closed) {
          gate.wait();
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new java.io.InterruptedIOException("interrupted at the closed gate");
      } finally {
        stuck.decrementAndGet();
      }
    }
  }

  /** A file channel whose writes pass the gate first; everything else goes straight to the file. */
  private final class Gated extends FileChannel {

    private final FileChannel file;

    Gated(FileChannel file) {
      this.file = file;
    }

    @Override
    public int write(ByteBuffer src) throws IOException {
      pass();
      return file.write(src);
    }

    @Override
    public long write(ByteBuffer[] srcs, int offset, int length) throws IOException {
      pass();
      return file.write(srcs, offset, length);
    }

    @Override
    public int write(ByteBuffer src, long position) throws IOException {
      pass();
      return file.write(src, position);
    }

    @Override
    public int read(ByteBuffer dst) throws IOException {
      return file.read(dst);
    }

    @Override
    public long read(ByteBuffer[] dsts, int offset, int length) throws IOException {
      return file.read(dsts, offset, length);
    }

    @Override
    public int read(ByteBuffer dst, long position) throws IOException {
      return file.read(dst, position);
    }

    @Override
    public long position() throws IOException {
      return file.position();
    }

    @Override
    public FileChannel position(long newPosition) throws IOException {
      file.position(newPosition);
      return this;
    }

    @Override
    public long size() throws IOException {
      return file.size();
    }

    @Override
    public FileChannel truncate(long size) throws IOException {
      file.truncate(size);
      return this;
    }

    @Override
    public void force(boolean metaData) throws IOException {
      file.force(metaData);
    }

    @Override
    public long transferTo(long position, long count, WritableByteChannel target) throws IOException {
      return file.transferTo(position, count, target);
    }

    @Override
    public long transferFrom(ReadableByteChannel src, long position, long count) throws IOException {
      pass();
      return file.transferFrom(src, position, count);
    }

    @Override
    public MappedByteBuffer map(MapMode mode, long position, long size) throws IOException {
      return file.map(mode, position, size);
    }

    @Override
    public FileLock lock(long position, long size, boolean shared) throws IOException {
      return file.lock(position, size, shared);
    }

    @Override
    public FileLock tryLock(long position, long size, boolean shared) throws IOException {
      return file.tryLock(position, size, shared);
    }

    @Override
    protected void implCloseChannel() throws IOException {
      file.close();
    }
  }
}

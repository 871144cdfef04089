package io.sluice.verticles.engine.shard;

import io.netty.buffer.ByteBuf;

/**
 * How one kind of {@link ShardScan} walks a partition owned by another node: its arguments go, the
 * owner walks with a scan of its own (whole, or one slice of a {@link SlicedScan}), and what that
 * scan gathered comes back and is added to the sender's scan, as if it had visited those records
 * itself. One codec per scan class, registered in {@link TaskCodecs} under the fixed wire id it declares.
 */
public interface ScanCodec<S extends ShardScan> {

  /**
   * The byte that names this kind of scan on the wire: fixed like {@link TaskCodec#id}, and unique
   * among the scan codecs. 0 to 255.
   */
  int id();

  /** The scan class this codec carries. */
  Class<S> type();

  /** Writes what the owner needs to build an empty scan of the same kind. */
  void writeScan(ByteBuf out, S scan);

  /** Builds, on the owner, an empty scan with the sender's arguments. */
  S readScan(ByteBuf in);

  /** Writes what a scan gathered on the owner. */
  void writeResult(ByteBuf out, S ran);

  /** Adds what the owner's scan gathered to the sender's {@code original}. */
  void readResult(ByteBuf in, S original);
}

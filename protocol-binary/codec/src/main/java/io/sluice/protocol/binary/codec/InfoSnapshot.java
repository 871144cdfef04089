package io.sluice.protocol.binary.codec;

/**
 * The figures INFO reports (spec §4). Request counters are indexed by type code (32 slots) so an
 * EVENT's inner types count too; the encoder picks INFO's order.
 */
public record InfoSnapshot(
    long timestampSeconds,
    long[] requestTotals,
    long[] requestsPerMinute,
    long readBytes,
    long readBytesPerMinute,
    long writeBytes,
    long writeBytesPerMinute,
    long totalKeys,
    long totalCounters,
    long totalBuffers,
    long allocatedCounterBytes,
    long allocatedBufferBytes,
    long totalSubscriptions,
    long totalChannels,
    long runningSinceNanos,
    long totalConnections,
    String version) {

  public static final int TYPE_SLOTS = 32;
}

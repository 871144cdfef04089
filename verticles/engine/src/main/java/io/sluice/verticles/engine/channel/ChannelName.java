package io.sluice.verticles.engine.channel;

import java.util.Arrays;

/** A channel's name: raw bytes compared byte for byte, ordered by unsigned byte value (CHANNELS order). */
public final class ChannelName implements Comparable<ChannelName> {

  private final byte[] bytes;
  private final int hash;

  public ChannelName(byte[] bytes) {
    this.bytes = bytes.clone();
    this.hash = Arrays.hashCode(bytes);
  }

  public byte[] bytes() {
    return bytes.clone();
  }

  @Override
  public int compareTo(ChannelName other) {
    return Arrays.compareUnsigned(bytes, other.bytes);
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof ChannelName name && Arrays.equals(bytes, name.bytes);
  }

  @Override
  public int hashCode() {
    return hash;
  }

  @Override
  public String toString() {
    return new String(bytes, java.nio.charset.StandardCharsets.UTF_8);
  }
}

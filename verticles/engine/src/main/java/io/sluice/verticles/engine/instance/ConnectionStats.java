package io.sluice.verticles.engine.instance;

import io.sluice.protocol.binary.codec.ConnectionItem;
import io.sluice.protocol.binary.codec.InfoSnapshot;

import java.nio.ByteBuffer;
import java.util.HexFormat;
import java.util.UUID;

/**
 * One client connection's identity and metrics (spec §6). Written only by the connection's own
 * thread; other threads read it for CONNECTIONS and the dashboard, where a figure a few
 * microseconds stale is fine, so the fields are plain rather than atomic.
 */
public final class ConnectionStats {

  /** Which front a connection came through; TCP and WebSocket both show as TCP on the wire. */
  public enum Protocol { TCP, WEBSOCKET }

  private final byte[] id;
  private final String idHex;
  private final Protocol protocol;
  private final String ip;
  private final int port;
  private final long connectedAtNanos;
  private final long[] requestCounts = new long[InfoSnapshot.TYPE_SLOTS];
  private volatile long readBytes;
  private volatile long writeBytes;
  private volatile long publishedBytes;
  private volatile long receivedBytes;
  private volatile long droppedPushes;
  private volatile long heldBytes;
  /** The {@code sub} of a WebSocket client's token; null when it presented none. */
  private volatile String user;

  public ConnectionStats(byte[] id, Protocol protocol, String ip, int port, long connectedAtNanos) {
    this.id = id.clone();
    this.idHex = HexFormat.of().formatHex(id);
    this.protocol = protocol;
    this.ip = ip;
    this.port = port;
    this.connectedAtNanos = connectedAtNanos;
  }

  /** A random RFC 4122 version-4 UUID in its natural byte order, as the reference does. */
  public static byte[] randomId() {
    UUID uuid = UUID.randomUUID();
    return ByteBuffer.allocate(16).putLong(uuid.getMostSignificantBits()).putLong(uuid.getLeastSignificantBits()).array();
  }

  public byte[] id() {
    return id.clone();
  }

  /** The ID as 32 lowercase hex characters: the name of the connection's own channel. */
  public String idHex() {
    return idHex;
  }

  /** Who the client proved to be (a WebSocket token's {@code sub}), for the dashboard; empty when unknown. */
  public java.util.Optional<String> user() {
    return java.util.Optional.ofNullable(user);
  }

  public void setUser(String user) {
    this.user = user;
  }

  public Protocol protocol() {
    return protocol;
  }

  public String ip() {
    return ip;
  }

  public int port() {
    return port;
  }

  public long connectedAtNanos() {
    return connectedAtNanos;
  }

  public void countRequest(int typeCode) {
    requestCounts[typeCode]++;
  }

  public long requestCount(int typeCode) {
    return requestCounts[typeCode];
  }

  public void addReadBytes(long bytes) {
    readBytes += bytes;
  }

  public void addWriteBytes(long bytes) {
    writeBytes += bytes;
  }

  public void addPublishedBytes(long bytes) {
    publishedBytes += bytes;
  }

  public void addReceivedBytes(long bytes) {
    receivedBytes += bytes;
  }

  public void countDroppedPush() {
    droppedPushes++;
  }

  public long droppedPushes() {
    return droppedPushes;
  }

  /** What the server holds for this client against --max-pending-bytes (see ThrottrSession). */
  public long heldBytes() {
    return heldBytes;
  }

  public void setHeldBytes(long bytes) {
    heldBytes = bytes;
  }

  public long readBytes() {
    return readBytes;
  }

  public long writeBytes() {
    return writeBytes;
  }

  public ConnectionItem toItem() {
    return new ConnectionItem(id, ConnectionItem.TYPE_CLIENT, ConnectionItem.KIND_TCP, ip, port,
        connectedAtNanos, readBytes, writeBytes, publishedBytes, receivedBytes, requestCounts.clone());
  }
}

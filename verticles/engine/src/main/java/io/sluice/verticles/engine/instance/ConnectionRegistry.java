package io.sluice.verticles.engine.instance;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;

/** The open client connections of this instance, across every front and event loop. */
public final class ConnectionRegistry {

  private final ConcurrentHashMap<ByteBuffer, ConnectionStats> byId = new ConcurrentHashMap<>();
  private volatile ConnectionsElsewhere elsewhere = ConnectionsElsewhere.NONE;

  /** Where a CONNECTION for an ID that is none of this node's looks next (a cluster's other nodes). */
  public void lookElsewhereWith(ConnectionsElsewhere elsewhere) {
    this.elsewhere = elsewhere;
  }

  public ConnectionsElsewhere elsewhere() {
    return elsewhere;
  }

  public void add(ConnectionStats connection) {
    byId.put(ByteBuffer.wrap(connection.id()), connection);
  }

  public void remove(ConnectionStats connection) {
    byId.remove(ByteBuffer.wrap(connection.id()));
  }

  public ConnectionStats find(byte[] id) {
    return byId.get(ByteBuffer.wrap(id));
  }

  /** Connections in the order they connected. */
  public List<ConnectionStats> all() {
    List<ConnectionStats> connections = new ArrayList<>(byId.values());
    connections.sort((a, b) -> Long.compare(a.connectedAtNanos(), b.connectedAtNanos()));
    return connections;
  }

  public int size() {
    return byId.size();
  }

  public long totalReadBytes() {
    return byId.values().stream().mapToLong(ConnectionStats::readBytes).sum();
  }

  public long totalWriteBytes() {
    return byId.values().stream().mapToLong(ConnectionStats::writeBytes).sum();
  }
}

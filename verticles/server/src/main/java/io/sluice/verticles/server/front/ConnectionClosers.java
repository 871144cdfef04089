package io.sluice.verticles.server.front;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * How an operator closes a client connection from another thread (the dashboard's admin API): each
 * open connection registers, under its ID, a way to close it on its own event loop.
 */
public final class ConnectionClosers {

  private final Map<String, Runnable> byId = new ConcurrentHashMap<>();

  void register(String idHex, Runnable close) {
    byId.put(idHex, close);
  }

  void unregister(String idHex) {
    byId.remove(idHex);
  }

  /**
   * Asks the connection to close (it does so on its own event loop, with its one log line).
   *
   * @return false when no open connection has this ID
   */
  public boolean close(String idHex) {
    Runnable close = byId.get(idHex);
    if (close == null) {
      return false;
    }
    close.run();
    return true;
  }
}

package io.sluice.gateway.process;

import io.sluice.verticles.server.kit.FixedPorts;

/** Ports for what cannot take 0 (a cluster member tells the others its port, so it needs a fixed one). */
public final class Ports {

  private Ports() {
  }

  /** A TCP port below the ephemeral range that was free a moment ago on this machine ({@link FixedPorts}). */
  public static int free() {
    return FixedPorts.free();
  }
}

package io.sluice.verticles.engine.persist;

import java.io.IOException;

/** Where a writer's failed disk operation goes: logged, counted and shown by the shard's persistence. */
@FunctionalInterface
interface DiskFailures {
  void failed(String what, IOException e);
}

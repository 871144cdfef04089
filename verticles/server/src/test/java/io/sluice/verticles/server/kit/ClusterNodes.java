package io.sluice.verticles.server.kit;

import io.sluice.protocol.binary.client.ThrottrClient;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.util.ArrayList;
import java.util.List;

import static io.sluice.verticles.server.kit.SluiceUnderTest.await;

/**
 * The nodes a cluster test starts in this JVM and the Vert.x its clients run on, closed when the
 * test is done. Registered on a field with {@code @RegisterExtension}: an instance field's nodes
 * live for one test, a static field's for the whole class (its {@code @BeforeAll} starts them).
 * Nodes are closed gracefully, each in turn, after the test's own {@code @AfterEach} (or
 * {@code @AfterAll}), so a test closes its sockets there first; one it crashed itself it removes
 * from {@link #nodes()}.
 */
public final class ClusterNodes implements BeforeAllCallback, AfterEachCallback, AfterAllCallback {

  private final List<ClusterNodeUnderTest> nodes = new ArrayList<>();
  private Vertx clients;
  /** JUnit calls the class-wide callbacks only on a static field's extension. */
  private boolean forTheClass;

  /** The nodes started so far: the test adds each it starts, and removes one it crashes. */
  public List<ClusterNodeUnderTest> nodes() {
    return nodes;
  }

  /** The Vert.x the test's clients run on, made at the first call. */
  public synchronized Vertx clients() {
    if (clients == null) {
      clients = Vertx.vertx();
    }
    return clients;
  }

  /** A Throttr client of the {@code index}th node's TCP front. */
  public ThrottrClient client(int index) {
    return nodes.get(index).client(clients());
  }

  @Override
  public void beforeAll(ExtensionContext context) {
    forTheClass = true;
  }

  @Override
  public void afterEach(ExtensionContext context) {
    if (!forTheClass) {
      close();
    }
  }

  @Override
  public void afterAll(ExtensionContext context) {
    close();
  }

  private synchronized void close() {
    nodes.forEach(ClusterNodeUnderTest::close);
    nodes.clear();
    if (clients != null) {
      await(clients.close());
      clients = null;
    }
  }
}

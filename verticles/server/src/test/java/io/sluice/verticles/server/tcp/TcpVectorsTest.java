package io.sluice.verticles.server.tcp;

import io.sluice.verticles.server.kit.Conversation;
import io.sluice.verticles.server.kit.SluiceUnderTest;
import io.sluice.verticles.server.kit.TcpConversation;
import io.sluice.verticles.server.kit.ThrottrVectorKit;

import static io.sluice.verticles.server.kit.SluiceUnderTest.await;

/** The spec §9 vectors over a real TCP socket. */
public class TcpVectorsTest extends ThrottrVectorKit {

  @Override
  public Conversation open(SluiceUnderTest sut) {
    return await(TcpConversation.open(vertx, sut.tcpPort()));
  }

  @Override
  public int localPort(Conversation conversation) {
    return TcpConversation.localPort(conversation);
  }
}

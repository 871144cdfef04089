package io.sluice.verticles.server.websocket;

import io.sluice.verticles.server.kit.Conversation;
import io.sluice.verticles.server.kit.SluiceUnderTest;
import io.sluice.verticles.server.kit.ThrottrVectorKit;
import io.sluice.verticles.server.kit.WebSocketConversation;

import static io.sluice.verticles.server.kit.SluiceUnderTest.await;

/** The same spec §9 vectors, each request in a WebSocket binary message: the bytes must match TCP's. */
class WebSocketVectorsTest extends ThrottrVectorKit {

  @Override
  protected Conversation open(SluiceUnderTest sut) {
    return await(WebSocketConversation.open(vertx, sut.httpPort()));
  }

  @Override
  protected int localPort(Conversation conversation) {
    return WebSocketConversation.localPort(conversation);
  }
}

package io.sluice.verticles.websocket;

import io.sluice.verticles.kit.Conversation;
import io.sluice.verticles.kit.SluiceUnderTest;
import io.sluice.verticles.kit.ThrottrVectorKit;
import io.sluice.verticles.kit.WebSocketConversation;

import static io.sluice.verticles.kit.SluiceUnderTest.await;

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

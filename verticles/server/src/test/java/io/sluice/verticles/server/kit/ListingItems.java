package io.sluice.verticles.server.kit;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static io.sluice.verticles.server.kit.SluiceUnderTest.await;

/**
 * Reads a one-fragment LIST reply and splits it into items ("header | key" as hex), so tests can
 * compare records without depending on storage iteration order, which clients must not rely on.
 */
final class ListingItems {

  private ListingItems() {
  }

  /** Receives exactly one LIST reply whose item headers are {@code headerSize} bytes, K first. */
  static List<String> receive(Conversation conversation, int headerSize) {
    byte[] head = await(conversation.receive(1 + 8 + 16));
    ByteBuffer fields = ByteBuffer.wrap(head).order(ByteOrder.LITTLE_ENDIAN);
    if (fields.getLong(1) != 1) {
      throw new AssertionError("expected one fragment, got " + fields.getLong(1));
    }
    int count = (int) fields.getLong(17);
    byte[] headers = await(conversation.receive(count * headerSize));
    int namesLength = 0;
    for (int i = 0; i < count; i++) {
      namesLength += headers[i * headerSize] & 0xff;
    }
    byte[] names = await(conversation.receive(namesLength));
    List<String> items = new ArrayList<>();
    int name = 0;
    for (int i = 0; i < count; i++) {
      int keyLength = headers[i * headerSize] & 0xff;
      byte[] item = Arrays.copyOfRange(headers, i * headerSize, i * headerSize + headerSize + keyLength);
      System.arraycopy(names, name, item, headerSize, keyLength);
      name += keyLength;
      items.add(Hex.of(item));
    }
    return items;
  }
}

package io.sluice.verticles.server.grpc;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.zip.GZIPInputStream;

/**
 * Inflates a gzip-compressed gRPC message, stopping at a bound: the message size limit bounds only
 * the compressed bytes, and 61 KB of gzip can inflate to 60 MiB (issue 30).
 */
final class BoundedGunzip {

  /** The message inflates to more than the bound; nothing past the bound was kept. */
  static final class TooLarge extends Exception {
    TooLarge(int max) {
      super("the message inflates to more than " + max + " bytes");
    }
  }

  private BoundedGunzip() {
  }

  /**
   * @throws TooLarge   past {@code max} bytes inflated
   * @throws IOException the bytes are not gzip
   */
  static byte[] inflate(byte[] compressed, int max) throws TooLarge, IOException {
    try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(compressed))) {
      ByteArrayOutputStream out = new ByteArrayOutputStream(Math.min(max, 4 * compressed.length + 64));
      byte[] chunk = new byte[8192];
      int read;
      while ((read = in.read(chunk)) > 0) {
        if (out.size() + read > max) {
          throw new TooLarge(max);
        }
        out.write(chunk, 0, read);
      }
      return out.toByteArray();
    }
  }
}

package io.sluice.verticles.server.kit;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/** Throttr key request frames for a uint16 server, written the way a client library would. */
public final class KeyFrames {

  public static final int SECONDS = 0x04;

  private KeyFrames() {
  }

  public static byte[] insert(String key, int quota, int ttlSeconds) {
    byte[] name = key.getBytes(StandardCharsets.UTF_8);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(0x01);
    u16(out, quota);
    out.write(SECONDS);
    u16(out, ttlSeconds);
    out.write(name.length);
    out.writeBytes(name);
    return out.toByteArray();
  }

  public static byte[] query(String key) {
    return keyOnly(0x02, key);
  }

  public static byte[] get(String key) {
    return keyOnly(0x06, key);
  }

  private static byte[] keyOnly(int type, String key) {
    byte[] name = key.getBytes(StandardCharsets.UTF_8);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(type);
    out.write(name.length);
    out.writeBytes(name);
    return out.toByteArray();
  }

  private static void u16(ByteArrayOutputStream out, int value) {
    out.write(value & 0xff);
    out.write(value >>> 8);
  }
}

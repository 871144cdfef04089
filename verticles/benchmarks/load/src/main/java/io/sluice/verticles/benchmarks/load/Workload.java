package io.sluice.verticles.benchmarks.load;

import io.netty.buffer.ByteBuf;
import io.sluice.protocol.binary.codec.Request;
import io.sluice.protocol.binary.codec.RequestEncoder;
import io.sluice.protocol.binary.codec.TtlUnit;
import io.sluice.protocol.binary.codec.ValueSize;

import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;

/**
 * The requests one bench connection sends, and what a correct reply to each looks like. Keys are
 * 16 bytes: those of its {@link KeySpace}, and {@code n} + connection + sequence for INSERTs of new
 * keys.
 */
final class Workload {

  /** The reply shape a request expects; every reply is checked against it, never skipped. */
  enum Expect { STATUS, QUERY, GET }

  private final BenchOptions options;
  private final BenchOptions.Operation[] table;
  private final SplittableRandom random;
  private final byte[] value;
  private final KeySpace keys;
  /** The next new key for INSERT: "n", two connection digits, 13 sequence digits, counted up in place. */
  private final byte[] nextNewKey;
  private int prefillNext;

  /**
   * @param connection this connection's number among all; it prefills every
   *                   {@code options.connections()}-th key of {@code keys} from its number's place
   */
  Workload(BenchOptions options, int connection, KeySpace keys) {
    this.options = options;
    this.random = new SplittableRandom(0x5eed + connection);
    this.value = new byte[options.valueBytes()];
    java.util.Arrays.fill(value, (byte) 'v');
    int total = options.mix().values().stream().mapToInt(Integer::intValue).sum();
    this.table = new BenchOptions.Operation[total];
    int i = 0;
    for (var entry : options.mix().entrySet()) {
      for (int w = 0; w < entry.getValue(); w++) {
        table[i++] = entry.getKey();
      }
    }
    this.prefillNext = connection % options.connections();
    this.keys = keys;
    this.nextNewKey = String.format("n%02d%013d", connection % 100, 0).getBytes(StandardCharsets.US_ASCII);
  }

  /** Key formatting stays out of the measured loop: a key is 16 bytes made once; the first of the key space. */
  private byte[] newKey() {
    byte[] key;
    do {
      key = nextKey();
    } while (!keys.owns().test(key));
    return key;
  }

  private byte[] nextKey() {
    byte[] key = nextNewKey.clone();
    for (int i = nextNewKey.length - 1; i >= 3; i--) {
      if (nextNewKey[i] == '9') {
        nextNewKey[i] = '0';
      } else {
        nextNewKey[i]++;
        break;
      }
    }
    return key;
  }

  /** Prefill: this connection inserts every key whose index falls to it (a full quota each). */
  boolean hasPrefill() {
    return prefillNext < keys.counters().length;
  }

  Expect writePrefill(ByteBuf out) {
    byte[] key = keys.counters()[prefillNext];
    prefillNext += options.connections();
    encode(out, new Request.Insert(options.valueSize().max(), TtlUnit.SECONDS.code(), options.ttlSeconds(), key));
    return Expect.STATUS;
  }

  Expect writeNext(ByteBuf out) {
    BenchOptions.Operation operation = table[random.nextInt(table.length)];
    int index = random.nextInt(keys.counters().length);
    byte[] key = keys.counters()[index];
    switch (operation) {
      case INSERT:
        encode(out, new Request.Insert(1, TtlUnit.SECONDS.code(), options.ttlSeconds(), newKey()));
        return Expect.STATUS;
      case QUERY:
        encode(out, new Request.Query(key));
        return Expect.QUERY;
      case UPDATE:
        encode(out, new Request.Update(Request.Update.ATTRIBUTE_QUOTA, Request.Update.CHANGE_DECREASE, 1, key));
        return Expect.STATUS;
      case SET:
        encode(out, new Request.Set(TtlUnit.SECONDS.code(), options.ttlSeconds(),
            keys.buffers()[index % keys.buffers().length], value));
        return Expect.STATUS;
      default:
        encode(out, new Request.Get(key));
        return Expect.GET;
    }
  }

  private void encode(ByteBuf out, Request request) {
    RequestEncoder.encode(out, options.valueSize(), request);
  }

  /**
   * The length of the reply at the reader index if it is complete, else -1; negative lengths below
   * -1 mean a complete failure reply ({@code 00}) of length 1, counted as "refused". Anything that
   * is not a well-formed reply to the request throws: the stream would be out of step.
   */
  static int replyLength(ByteBuf in, Expect expect, ValueSize size) {
    if (!in.isReadable()) {
      return -1;
    }
    int status = in.getUnsignedByte(in.readerIndex());
    if (status == 0x00) {
      return REFUSED;
    }
    if (status != 0x01) {
      throw new IllegalStateException(String.format("reply starts with 0x%02x to a request expecting %s", status, expect));
    }
    int n = size.bytes();
    switch (expect) {
      case STATUS:
        return 1;
      case QUERY:
        return in.readableBytes() >= 2 + 2 * n ? 2 + 2 * n : -1;
      default:
        if (in.readableBytes() < 2 + 2 * n) {
          return -1;
        }
        int length = 2 + 2 * n + (int) size.get(in, in.readerIndex() + 2 + n);
        return in.readableBytes() >= length ? length : -1;
    }
  }

  static final int REFUSED = -2;
}

package io.sluice.verticles.benchmarks.jmh;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.sluice.protocol.binary.codec.Request;
import io.sluice.protocol.binary.codec.RequestDecoder;
import io.sluice.protocol.binary.codec.RequestEncoder;
import io.sluice.protocol.binary.codec.DecodeError;
import io.sluice.protocol.binary.codec.TtlUnit;
import io.sluice.protocol.binary.codec.ValueSize;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

import java.util.concurrent.TimeUnit;

/** Decoding one socket read of 64 pipelined requests (16-byte keys), as the TCP front does. */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class DecoderBenchmark {

  static final int FRAMES = 64;

  private ByteBuf updates;
  private ByteBuf inserts;
  private RequestDecoder decoder;

  @Setup(Level.Trial)
  public void encode(Blackhole blackhole) {
    updates = Unpooled.buffer();
    inserts = Unpooled.buffer();
    for (int i = 0; i < FRAMES; i++) {
      byte[] key = Keys.numbered('k', i);
      RequestEncoder.encode(updates, ValueSize.UINT16, new Request.Update(0, 2, 1, key));
      RequestEncoder.encode(inserts, ValueSize.UINT16, new Request.Insert(100, TtlUnit.SECONDS.code(), 60, key));
    }
    decoder = new RequestDecoder(ValueSize.UINT16, 8096, new RequestDecoder.Handler() {
      public boolean onRequest(Request request, int frameLength) {
        blackhole.consume(request);
        return true;
      }

      public void onError(DecodeError error) {
        throw new IllegalStateException(error.message());
      }
    });
  }

  @Benchmark
  @OperationsPerInvocation(FRAMES)
  public void decodeUpdates() {
    decoder.feed(updates.duplicate());
  }

  @Benchmark
  @OperationsPerInvocation(FRAMES)
  public void decodeInserts() {
    decoder.feed(inserts.duplicate());
  }
}

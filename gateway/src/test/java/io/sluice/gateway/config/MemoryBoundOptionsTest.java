package io.sluice.gateway.config;

import static io.sluice.gateway.config.Loading.failure;
import static io.sluice.gateway.config.Loading.run;
import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.verticles.engine.storage.Eviction;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** --max-keys, --max-memory and --eviction from every source, their defaults, and bad values. */
class MemoryBoundOptionsTest {

  @Test
  void byDefaultKeysAreUncountedAndRecordsMayUseHalfTheHeap() throws Exception {
    SluiceConfig config = run();
    assertThat(config.maxKeys()).isEqualTo(Long.MAX_VALUE);
    assertThat(config.maxMemory()).isEqualTo(Runtime.getRuntime().maxMemory() / 2);
    assertThat(config.eviction()).isEqualTo(Eviction.VOLATILE_TTL);
    assertThat(Options.MAX_MEMORY.defaultDescription()).isEqualTo("half the maximum heap");
  }

  @Test
  void flagsVariablesAndTheFileSetThem(@TempDir Path dir) throws Exception {
    SluiceConfig flags = run("--max-keys", "10000", "--max-memory", "64mb", "--eviction", "reject");
    assertThat(flags.maxKeys()).isEqualTo(10_000);
    assertThat(flags.maxMemory()).isEqualTo(64L << 20);
    assertThat(flags.eviction()).isEqualTo(Eviction.REJECT);

    SluiceConfig environment = run(Map.of("SLUICE_MAX_KEYS", "5", "SLUICE_MAX_MEMORY", "2GB", "SLUICE_EVICTION", "volatile-ttl"));
    assertThat(environment.maxKeys()).isEqualTo(5);
    assertThat(environment.maxMemory()).isEqualTo(2L << 30);
    assertThat(environment.eviction()).isEqualTo(Eviction.VOLATILE_TTL);

    Path file = Files.writeString(dir.resolve("sluice.yaml"), "max-keys: 7\nmax-memory: 1048576\neviction: reject\n");
    SluiceConfig fromFile = run("--config", file.toString());
    assertThat(fromFile.maxKeys()).isEqualTo(7);
    assertThat(fromFile.maxMemory()).isEqualTo(1L << 20);
    assertThat(fromFile.eviction()).isEqualTo(Eviction.REJECT);
  }

  @Test
  void sizesTakePowerOf1024UnitsAndShowInTheLargestExactOne() {
    ValueType<Long> size = ValueType.byteSize(1L << 20, 1L << 50);
    assertThat(size.parse("512mb")).isEqualTo(512L << 20);
    assertThat(size.parse("1536 KB")).isEqualTo(1536L << 10);
    assertThat(size.parse("3tb")).isEqualTo(3L << 40);
    assertThat(size.format(64L << 20)).isEqualTo("64mb");
    assertThat(size.format(1536L << 10)).isEqualTo("1536kb");
    assertThat(size.format((1L << 20) + 1)).isEqualTo("1048577b");
  }

  @Test
  void badValuesAreRefusedWithWhatIsExpected() {
    assertThat(failure("--max-memory", "64 megabytes").getMessage()).contains("--max-memory").contains("e.g. 512mb");
    assertThat(failure("--max-memory", "1kb").getMessage()).contains("1mb..1024tb");
    assertThat(failure("--max-memory", "99999999999tb").getMessage()).contains("--max-memory");
    assertThat(failure("--max-keys", "0").getMessage()).contains("--max-keys");
    assertThat(failure("--eviction", "lru").getMessage()).contains("volatile-ttl or reject");
  }
}

package io.sluice.verticles.benchmarks.load;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The bench's reading of {@code /api/cluster/partitions}; its run against a real cluster is the
 * server's {@code ClusterPartitionsApiTest}.
 */
class OwnerTableTest {

  @Test
  void placesAKeyByTheDocumentedHash() {
    JsonArray owners = new JsonArray();
    for (int p = 0; p < 271; p++) {
      owners.add(new JsonObject().put("owner", "n" + p % 3).put("throttr", "10.0.0." + p % 3 + ":9000"));
    }
    OwnerTable table = OwnerTable.of(new JsonObject().put("version", "v1").put("partitions", 271).put("owners", owners));
    // docs/cluster.md: "user:42" is in partition 93, and 93 % 3 == 0.
    assertThat(table.ownerOf("user:42".getBytes(StandardCharsets.UTF_8))).isEqualTo("10.0.0.0:9000");
    assertThat(table.owners()).containsExactly("10.0.0.0:9000", "10.0.0.1:9000", "10.0.0.2:9000");
    KeySpace owned = KeySpace.all(300).ownedBy(key -> table.ownerOf(key).equals("10.0.0.1:9000"));
    assertThat(List.of(owned.counters())).isNotEmpty().allMatch(key -> table.ownerOf(key).equals("10.0.0.1:9000"));
    assertThat(List.of(owned.buffers())).isNotEmpty()
        .allMatch(key -> key[0] == 'b' && table.ownerOf(key).equals("10.0.0.1:9000"));
  }

  @Test
  void refusesATableWithAnOwnerThatPublishedNoAddress() {
    JsonArray owners = new JsonArray(List.of(new JsonObject().put("owner", "n0").putNull("throttr")));
    assertThatThrownBy(() -> OwnerTable.of(new JsonObject().put("version", "v").put("partitions", 1).put("owners", owners)))
        .hasMessageContaining("has not published its addresses");
  }

  @Test
  void routeByOwnerIsAFlagBesideTheHttpPort() {
    BenchOptions options = BenchOptions.parse(List.of("--route-by-owner", "--http-port", "8081", "--keys", "10"));
    assertThat(options.routeByOwner()).isTrue();
    assertThat(options.httpPort()).isEqualTo(8081);
    assertThat(options.keys()).isEqualTo(10);
    assertThat(BenchOptions.parse(List.of()).routeByOwner()).isFalse();
  }
}

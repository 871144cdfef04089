package io.sluice.testkit.layers;

import io.sluice.testkit.layers.fixture.low.Low;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The layering check fails where it must: on small fixed graphs, and on compiled fixture classes. */
class LayersTest {

  /** The graph of these references ("r.a.A -> r.b.B"), as read from classes of both packages. */
  private static PackageGraph graph(String... references) {
    PackageGraph graph = new PackageGraph("r");
    for (String reference : references) {
      String[] ends = reference.split(" -> ");
      graph.addPackage(PackageGraph.packageOf(ends[1]));
      graph.refer(ends[0], ends[1]);
    }
    return graph;
  }

  @Test
  void aPackageMayUseItsOwnLayerAndTheLayersBelow() {
    PackageGraph graph = graph("r.high.A -> r.low.B", "r.high.A -> r.high2.C", "r.low.B -> r.util.D");
    assertThat(Layers.under("r").layer("util").layer("low").layer("high", "high2").violationsOf(graph)).isEmpty();
  }

  @Test
  void aPackageUsingAHigherLayerFails() {
    PackageGraph graph = graph("r.low.A -> r.high.B");
    assertThat(Layers.under("r").layer("low").layer("high").violationsOf(graph))
        .containsExactly("r.low (layer 1) uses r.high of a higher layer (2): r.low.A → r.high.B");
  }

  @Test
  void aCycleFailsEvenWithinOneLayer() {
    PackageGraph graph = graph("r.one.A -> r.two.B", "r.two.B -> r.three.C", "r.three.C -> r.one.A", "r.top.D -> r.one.A");
    assertThat(Layers.under("r").layer("one", "two", "three").layer("top").violationsOf(graph))
        .containsExactly("cycle between r.one, r.three, r.two: r.one.A → r.two.B; r.three.C → r.one.A; r.two.B → r.three.C");
  }

  @Test
  void anApiAndItsImplAreOneUnitButNoCycleMayPassThroughAnotherPackage() {
    PackageGraph apiAndImpl = graph("r.client.Api -> r.client.impl.Factory", "r.client.impl.Factory -> r.client.Api",
        "r.client.impl.Factory -> r.codec.Frame");
    assertThat(Layers.under("r").layer("codec").layer("client").layer("client.impl").violationsOf(apiAndImpl)).isEmpty();

    PackageGraph throughAnother = graph("r.client.impl.Factory -> r.codec.Frame", "r.codec.Frame -> r.client.impl.Factory");
    assertThat(Layers.under("r").layer("codec", "client.impl").violationsOf(throughAnother))
        .singleElement().asString().startsWith("cycle between r.client.impl, r.codec");
  }

  @Test
  void theListNamesEveryPackageAndNoOther() {
    PackageGraph graph = graph("r.new.A -> r.root");
    graph.addPackage("r");
    assertThat(Layers.under("r").layer("").layer("gone", "").violationsOf(graph)).containsExactlyInAnyOrder(
        "r is in the layer list twice",
        "r.gone is in the layer list but has no classes: take it out of the list",
        "r.new has no layer: add it to the layer list where it belongs");
  }

  @Test
  void compiledClassesAreReadWithTheReferencesOfTheirSignatures() {
    String fixture = "io.sluice.testkit.layers.fixture";
    List<String> upward = Layers.under(fixture).layer("low").layer("high").violationsIn(Layers.classesOf(Low.class));
    assertThat(upward).containsExactly(fixture + ".low (layer 1) uses " + fixture + ".high of a higher layer (2): "
        + fixture + ".low.Low → " + fixture + ".high.High");
    assertThat(Layers.under(fixture).layer("high").layer("low").violationsIn(Layers.classesOf(Low.class))).isEmpty();
  }

  @Test
  void aModuleThatBreaksItsLayersFailsItsTest() {
    assertThatThrownBy(() -> Layers.under("io.sluice.testkit.layers.fixture").layer("low").layer("high")
        .assertHeldIn(Layers.classesOf(Low.class)))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("break their layering (1)");
  }
}

package io.sluice.gateway.config;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.net.InetSocketAddress;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class XdsValueTypesTest {

  @Test
  void aServerIsAHostAndAPortAndIsNotResolved() {
    InetSocketAddress named = XdsValueTypes.serverAddress().parse("envoy-gateway.envoy-gateway-system.svc:18001");
    assertThat(named.isUnresolved()).isTrue();
    assertThat(named.getHostString()).isEqualTo("envoy-gateway.envoy-gateway-system.svc");
    assertThat(named.getPort()).isEqualTo(18001);
    assertThat(XdsValueTypes.serverAddress().format(XdsValueTypes.serverAddress().parse(" [::1]:18000 ")))
        .isEqualTo("[::1]:18000");
  }

  @ParameterizedTest
  @ValueSource(strings = {"localhost", "localhost:", ":18000", "::1:18000", "localhost:0", "localhost:70000", "a b:1"})
  void aServerWithoutAValidHostAndPortIsRefused(String text) {
    assertThatIllegalArgumentException().isThrownBy(() -> XdsValueTypes.serverAddress().parse(text));
  }

  @Test
  void aNodeIdIsVisibleAsciiWithoutSpaces() {
    assertThat(XdsValueTypes.nodeId().parse("sidecar~10.0.0.1~pod.ns~ns.svc.cluster.local"))
        .isEqualTo("sidecar~10.0.0.1~pod.ns~ns.svc.cluster.local");
    assertThatIllegalArgumentException().isThrownBy(() -> XdsValueTypes.nodeId().parse("two words"));
    assertThatIllegalArgumentException().isThrownBy(() -> XdsValueTypes.nodeId().parse(""));
  }
}

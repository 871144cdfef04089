package io.sluice.gateway.cli;

import io.sluice.protocol.binary.codec.TtlUnit;
import io.sluice.protocol.binary.codec.ValueSize;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The one TTL parser's conversions at the edges of each value size (the CLI tests cover the wire). */
class TtlTest {

  @Test
  void minutesAndHoursGoInTheFinestWholeUnitTheValueSizeHolds() {
    assertThat(Ttl.parse("2h").onWire(ValueSize.UINT16)).isEqualTo(new Ttl(7200, TtlUnit.SECONDS));
    assertThat(Ttl.parse("2h").onWire(ValueSize.UINT8)).isEqualTo(new Ttl(120, TtlUnit.MINUTES));
    assertThat(Ttl.parse("5h").onWire(ValueSize.UINT8)).isEqualTo(new Ttl(5, TtlUnit.HOURS));
    assertThat(Ttl.parse("500ms").onWire(ValueSize.UINT16)).as("finer units stay").isEqualTo(new Ttl(500, TtlUnit.MILLISECONDS));
    assertThat(Ttl.parse("90").onWire(ValueSize.UINT8)).isEqualTo(new Ttl(90, TtlUnit.SECONDS));
    assertThat(Ttl.parse("9223372036854775807h").onWire(ValueSize.UINT64)).as("no overflow into seconds")
        .isEqualTo(new Ttl(Long.MAX_VALUE, TtlUnit.HOURS));
    assertThatThrownBy(() -> Ttl.parse("300").onWire(ValueSize.UINT8))
        .hasMessage("TTL 300s does not fit --value-size uint8 (at most 255 s)");
  }

  @Test
  void anUpdateIsCountedInTheRecordsUnitOrRefused() {
    assertThat(Ttl.parse("5m").in(TtlUnit.MILLISECONDS, ValueSize.UINT32)).isEqualTo(new Ttl(300_000, TtlUnit.MILLISECONDS));
    assertThat(Ttl.parse("120").in(TtlUnit.MINUTES, ValueSize.UINT16)).isEqualTo(new Ttl(2, TtlUnit.MINUTES));
    assertThatThrownBy(() -> Ttl.parse("90").in(TtlUnit.MINUTES, ValueSize.UINT16))
        .hasMessage("the record counts its TTL in minutes: 90s is no whole number of them");
    assertThatThrownBy(() -> Ttl.parse("5m").in(TtlUnit.MILLISECONDS, ValueSize.UINT16))
        .hasMessage("TTL 300000ms does not fit --value-size uint16 (at most 65535 ms)");
    assertThatThrownBy(() -> Ttl.parse("9223372036854775807h").in(TtlUnit.NANOSECONDS, ValueSize.UINT64))
        .hasMessage("TTL 9223372036854775807h is too large for a record counted in nanoseconds");
  }

  @Test
  void aLiveTtlShowsWhatTheServersRoundedDownFigureStandsFor() {
    assertThat(Ttl.format(3599, TtlUnit.SECONDS)).isEqualTo("3599 s");
    assertThat(Ttl.format(250, TtlUnit.MILLISECONDS)).isEqualTo("250 ms");
    assertThat(Ttl.format(0, TtlUnit.HOURS)).isEqualTo("under 1 h");
    assertThat(Ttl.format(2, TtlUnit.MINUTES)).isEqualTo("2 to 3 m");
    assertThat(Ttl.format(7, null)).isEqualTo("7 s (an unknown unit byte, counted as seconds)");
  }
}

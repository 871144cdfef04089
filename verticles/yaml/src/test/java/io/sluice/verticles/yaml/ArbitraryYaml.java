package io.sluice.verticles.yaml;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Tuple;

import java.util.List;

/**
 * Documents a YAML file could hold, as the plain values a config reader is given (maps, lists,
 * strings, numbers, booleans, nulls, nested), for the property tests of every config reader. In
 * this module's test-jar.
 */
public final class ArbitraryYaml {

  private ArbitraryYaml() {
  }

  /** A map of mostly known field names to {@code fieldValues}. */
  public static Arbitrary<Object> mappingMostlyOf(List<String> fields, Arbitrary<Object> fieldValues) {
    Arbitrary<String> names = Arbitraries.oneOf(Arbitraries.of(fields), Arbitraries.of(fields),
        Arbitraries.strings().ofMaxLength(10));
    return Arbitraries.maps(names, fieldValues).ofMaxSize(6).map(map -> (Object) map);
  }

  /** Any YAML scalar, or lists and maps of them, {@code depth} levels deep at most. */
  public static Arbitrary<Object> values(int depth) {
    Arbitrary<Object> scalars = Arbitraries.oneOf(
        Arbitraries.strings().ofMaxLength(30).map(s -> s),
        Arbitraries.of("10/s", "1m", "5s", "100ms", "-1s", "ip", "header:x-user", "path", "^/api/.*", "(", "0", "1e400")
            .map(s -> s),
        Arbitraries.integers().map(i -> i),
        Arbitraries.longs().map(l -> l),
        Arbitraries.doubles().map(d -> d),
        Arbitraries.of(true, false).map(b -> b),
        Arbitraries.just(null));
    if (depth == 0) {
      return scalars;
    }
    Arbitrary<Object> inner = values(depth - 1);
    return Arbitraries.frequencyOf(
        Tuple.of(6, scalars),
        Tuple.of(1, inner.list().ofMaxSize(4).map(list -> (Object) list)),
        Tuple.of(1, Arbitraries.maps(Arbitraries.strings().ofMaxLength(8), inner).ofMaxSize(4)
            .map(map -> (Object) map)));
  }
}

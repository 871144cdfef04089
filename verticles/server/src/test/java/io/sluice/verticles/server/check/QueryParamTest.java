package io.sluice.verticles.server.check;

import io.vertx.core.http.impl.HttpUtils;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@link QueryParam} answers as Vert.x's {@code getParam} does (its query decoder is the oracle),
 * on chosen queries and on many random ones built from the pieces that matter.
 */
class QueryParamTest {

  private static String vertx(String uri, String name) {
    return HttpUtils.params(uri, StandardCharsets.UTF_8, false).get(name);
  }

  @Test
  void chosenQueries() {
    String[] uris = {"/v1/check/tb?key=k1", "/v1/check/tb?cost=2&key=k1", "/v1/check/tb", "/v1/check/tb?",
        "/v1/check/tb?KEY=upper&key=lower", "/p?key", "/p?key=", "/p?=key=x", "/p?a=1;key=semi", "/p?key=a=b",
        "/p#?key=fragment", "/p?a=1#&key=fragment", "/p?keys=no&key=yes", "/p?ke=no", "/p?&&key=x&&", "/p?key==x",
        "http://host:1/p?key=absolute"};
    for (String uri : uris) {
      for (String name : new String[] {"key", "cost"}) {
        assertThat(QueryParam.scan(uri, name)).as(uri + " " + name).isNotSameAs(QueryParam.UNDECIDED)
            .isEqualTo(vertx(uri, name));
      }
    }
  }

  @Test
  void escapesAndCharactersBeyondAsciiAreLeftToVertx() {
    for (String uri : new String[] {"/p?key=a%20b", "/p?k%65y=x", "/p?key=a+b", "/p?key=\u00e9", "/p?\u212aey=x",
        "/p?key=x&bad=%zz"}) {
      assertThat(QueryParam.scan(uri, "key")).as(uri).isSameAs(QueryParam.UNDECIDED);
    }
  }

  @Test
  void aMalformedEscapeAfterTheNameStillFailsAsInVertx() {
    assertThatThrownBy(() -> vertx("/p?key=x&bad=%zz", "key")).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void aNamePastTheDecodersLimitIsLeftToVertx() {
    StringBuilder uri = new StringBuilder("/p?");
    for (int i = 0; i < QueryParam.PARAMS_LIMIT; i++) {
      uri.append("p").append(i).append("=1&");
    }
    assertThat(QueryParam.scan(uri + "key=late", "key")).isSameAs(QueryParam.UNDECIDED);
    assertThat(vertx(uri + "key=late", "key")).as("Vert.x drops it").isNull();
    assertThat(QueryParam.scan("/p?key=early&" + uri, "key")).isEqualTo("early");
  }

  @Test
  void randomQueriesAnswerAsVertx() {
    Random random = new Random(29);
    String[] pieces = {"key", "KEY", "Key", "keys", "cost", "k", "=", "&", ";", "#", "?", "1", "/"};
    int decided = 0;
    for (int n = 0; n < 20_000; n++) {
      // Most with a query, some with none or a fragment first.
      StringBuilder uri = new StringBuilder(random.nextInt(8) == 0 ? "/v1/check/tb" : "/v1/check/tb?");
      int length = random.nextInt(12);
      for (int i = 0; i < length; i++) {
        uri.append(pieces[random.nextInt(pieces.length)]);
      }
      for (String name : new String[] {"key", "cost"}) {
        String scanned = QueryParam.scan(uri.toString(), name);
        assertThat(scanned).as(uri + " " + name).isNotSameAs(QueryParam.UNDECIDED).isEqualTo(vertx(uri.toString(), name));
        if (scanned != null) {
          decided++;
        }
      }
    }
    assertThat(decided).as("queries that hold the name, not only ones that do not").isGreaterThan(1_000);
  }
}

package io.sluice.verticles.server.http;

import io.sluice.verticles.server.settings.Defences;
import io.sluice.verticles.server.kit.LogLines;
import io.sluice.verticles.server.kit.Poll;
import io.sluice.verticles.server.kit.RawHttp;
import io.sluice.verticles.server.kit.SluiceUnderTest;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

import static io.sluice.verticles.server.kit.SluiceUnderTest.await;
import static org.assertj.core.api.Assertions.assertThat;

/** {@code --auth-token-file}: the token is read from a file, and again whenever the file changes. */
class TokenFileTest {

  @TempDir
  Path folder;

  private final Vertx vertx = Vertx.vertx();
  private SluiceUnderTest sut;

  @AfterEach
  void stop() {
    if (sut != null) {
      sut.close();
    }
    await(vertx.close());
  }

  private int status(String token) throws Exception {
    return RawHttp.exchange(sut.httpPort(), "GET", "/api/overview", null, "Host: 127.0.0.1",
        "Authorization: Bearer " + token).status();
  }

  /** Written beside and renamed into place, as secret stores rotate files. */
  private void write(Path file, String text) throws Exception {
    Path next = Files.writeString(folder.resolve("next"), text);
    Files.move(next, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }

  @Test
  void aRotatedTokenReplacesTheOldOneWithoutARestart() throws Exception {
    Path file = folder.resolve("token");
    write(file, "first-token\n");
    sut = new SluiceUnderTest(vertx,
        SluiceUnderTest.defaults().withDefences(Defences.defaults().withAuthTokenFile(file)));
    assertThat(status("first-token")).isEqualTo(200);
    assertThat(status("nothing")).isEqualTo(401);

    try (LogLines log = new LogLines(java.util.logging.Level.INFO)) {
      write(file, "second-token\n");
      // Not by trying the new token: wrong tokens count against this address (TokenGuessingTest).
      Poll.until("the file watch reloads the token", () -> !log.containing("auth token reloaded").isEmpty());
    }
    assertThat(status("second-token")).isEqualTo(200);
    assertThat(status("first-token")).isEqualTo(401);

    try (LogLines log = new LogLines()) {
      write(file, "two words");
      // The file watch reads the changed file too, on its own tick within a second, and says so in
      // a line of its own: a tick between the write and the count made two lines of one. Once it has
      // refused the file it looks no more (the file does not change again), so the reload's line is
      // the second.
      Poll.until("the file watch refuses the file", () -> !log.containing("auth token not reloaded").isEmpty());
      await(sut.server().reload());
      assertThat(log.containing("auth token not reloaded")).as("the watch's line, then the reload's").hasSize(2);
    }
    assertThat(status("second-token")).as("a bad file leaves the token in force").isEqualTo(200);
  }
}

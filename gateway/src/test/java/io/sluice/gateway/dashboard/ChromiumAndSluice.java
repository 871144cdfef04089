package io.sluice.gateway.dashboard;

import io.sluice.gateway.Gateway;
import io.sluice.gateway.config.ConfigLoader;
import io.sluice.gateway.config.Invocation;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.openqa.selenium.WebDriver;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What a browser test class runs against: a headless Chromium ({@link HeadlessChromium}) and a real
 * Sluice started from its options, every port ephemeral. Registered on a static field with
 * {@code @RegisterExtension}; the class's {@code @BeforeAll} opens the browser first, so the class
 * is skipped where Chromium is not installed before any server starts. Both are stopped after the
 * class's own {@code @AfterAll}, which closes the clients it made.
 */
final class ChromiumAndSluice implements AfterAllCallback {

  private static final List<String> EPHEMERAL_PORTS = List.of("--tcp-port", "0", "--http-port", "0",
      "--grpc-port", "0", "--udp-port", "0");

  private WebDriver browser;
  private Gateway gateway;

  /** The browser, started at the first call; skips the class where it is not installed. */
  WebDriver browser() throws IOException {
    if (browser == null) {
      browser = HeadlessChromium.start();
    }
    return browser;
  }

  /** Starts Sluice with {@code options} besides its ephemeral ports, as {@code sluice.jar} would. */
  Gateway startSluice(String... options) throws Exception {
    List<String> args = new ArrayList<>(EPHEMERAL_PORTS);
    args.addAll(List.of(options));
    gateway = Gateway.start(((Invocation.Run) ConfigLoader.load(args, Map.of())).config());
    return gateway;
  }

  /** The dashboard's address: the root of Sluice's HTTP port. */
  String base() {
    return "http://127.0.0.1:" + gateway.server().httpPort() + "/";
  }

  @Override
  public void afterAll(ExtensionContext context) {
    if (browser != null) {
      browser.quit();
    }
    if (gateway != null) {
      gateway.stop();
    }
  }
}

package io.sluice.gateway.dashboard;

import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.support.ui.WebDriverWait;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.logging.Level;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The browser of the dashboard tests: Debian's chromium and chromium-driver (installed by
 * deploy/install-build-tools.sh), headless; the test is skipped where they are not installed.
 * Screenshots go to target/screenshots/.
 */
final class HeadlessChromium {

  private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
  private static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
  private static final Path SCREENSHOTS = Path.of("target", "screenshots");

  private HeadlessChromium() {
  }

  static WebDriver start() throws IOException {
    assumeTrue(Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER),
        "Chromium and chromedriver are not installed (deploy/install-build-tools.sh installs them)");
    ChromeDriverService service = new ChromeDriverService.Builder()
        .usingDriverExecutable(CHROMEDRIVER.toFile())
        .usingAnyFreePort()
        .build();
    ChromeOptions options = new ChromeOptions()
        .setBinary(CHROMIUM.toFile())
        // The machine has no network but loopback: background services would only fail and retry.
        .addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
            "--disable-background-networking", "--disable-component-update", "--disable-sync",
            "--disable-dev-shm-usage", "--window-size=1400,900",
            "--user-data-dir=" + Files.createTempDirectory("sluice-chromium"));
    // The page's console, so tests can hold it to logging no error.
    options.setCapability("goog:loggingPrefs", java.util.Map.of(LogType.BROWSER, "ALL"));
    Files.createDirectories(SCREENSHOTS);
    return new ChromeDriver(service, options);
  }

  /** The console's errors (failed loads included) since the last call: each is read once. */
  /**
   * The element's text once it shows one. Views mount their elements empty and fill them when
   * their API call answers, which on a loaded machine comes well after the element: a wait that
   * returned the first text found could read the empty one. A view that redraws in between makes
   * an element found stale; it is looked up again.
   */
  static String shownText(WebDriverWait wait, String css) {
    return wait.ignoring(StaleElementReferenceException.class).until(driver -> {
      String text = driver.findElement(By.cssSelector(css)).getText();
      return text.isEmpty() ? null : text;
    });
  }

  static List<String> consoleErrors(WebDriver browser) {
    return browser.manage().logs().get(LogType.BROWSER).getAll().stream()
        .filter(entry -> entry.getLevel().intValue() >= Level.SEVERE.intValue())
        .map(LogEntry::getMessage).toList();
  }

  static void screenshot(WebDriver browser, String name) throws IOException {
    File shot = ((TakesScreenshot) browser).getScreenshotAs(OutputType.FILE);
    Files.copy(shot.toPath(), SCREENSHOTS.resolve(name + ".png"), StandardCopyOption.REPLACE_EXISTING);
  }
}

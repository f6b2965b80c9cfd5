package dev.deckhand.web;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.function.Function;
import java.util.stream.Stream;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * Debian's headless Chromium driven by Debian's chromedriver, both named explicitly, with Selenium
 * Manager kept offline. Started by the test and ended through its own handles (never by name).
 * {@code -Dweb.screenshots=<dir>} saves {@link #shot} PNGs there; without it nothing is written.
 */
final class Browser implements AutoCloseable {

    static final String CHROMIUM = "/usr/bin/chromium";
    static final String CHROMEDRIVER = "/usr/bin/chromedriver";
    /** The bound of every wait for the page (a bound, not a timed assertion). */
    static final Duration WAIT = Duration.ofSeconds(30);

    final ChromeDriver driver;
    private final ChromeDriverService service;
    private final Path profile;
    private final Path screenshots;

    private Browser(ChromeDriver driver, ChromeDriverService service, Path profile, Path screenshots) {
        this.driver = driver;
        this.service = service;
        this.profile = profile;
        this.screenshots = screenshots;
    }

    static Browser start() throws Exception {
        System.setProperty("SE_OFFLINE", "true");
        Path profile = Files.createTempDirectory("deckhand-web-chromium");
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(new File(CHROMEDRIVER))
                .usingAnyFreePort()
                .build();
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM);
        options.addArguments(
                "--headless=new",
                "--no-sandbox",
                "--disable-gpu",
                "--window-size=1280,900",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--disable-default-apps",
                "--disable-features=MediaRouter,OptimizationHints",
                "--force-device-scale-factor=1",
                "--user-data-dir=" + profile);
        // The page's console (Content-Security-Policy violations show there): see consoleErrors().
        options.setCapability("goog:loggingPrefs", java.util.Map.of("browser", "ALL"));
        ChromeDriver driver;
        try {
            driver = new ChromeDriver(service, options);
        } catch (RuntimeException e) {
            service.stop();
            throw e;
        }
        String dir = System.getProperty("web.screenshots");
        return new Browser(driver, service, profile, dir == null || dir.isBlank() ? null : Path.of(dir));
    }

    <T> T await(Function<WebDriver, T> condition) {
        return new WebDriverWait(driver, WAIT)
                .ignoring(StaleElementReferenceException.class)
                .until(condition);
    }

    WebElement visible(By by) {
        return await(ExpectedConditions.visibilityOfElementLocated(by));
    }

    /** Clicks once the element is clickable; again if the page re-rendered it in between (stale). */
    void click(By by) {
        await(d -> {
            WebElement e = ExpectedConditions.elementToBeClickable(by).apply(d);
            if (e == null) return null;
            e.click();
            return true;
        });
    }

    void type(By by, String text) {
        WebElement e = visible(by);
        e.clear();
        e.sendKeys(text);
    }

    List<WebElement> all(By by) {
        return driver.findElements(by);
    }

    /** The browser console's messages since the last call (each as its level and text). */
    List<String> console() {
        return driver.manage().logs().get(org.openqa.selenium.logging.LogType.BROWSER).getAll().stream()
                .map(e -> e.getLevel() + " " + e.getMessage())
                .toList();
    }

    /** Saves the viewport as {@code <name>.png} when screenshots were asked for. */
    void shot(String name) throws Exception {
        if (screenshots == null) return;
        Files.createDirectories(screenshots);
        Thread.sleep(150); // let the last poll paint
        Files.write(screenshots.resolve(name + ".png"), driver.getScreenshotAs(OutputType.BYTES));
    }

    @Override
    public void close() throws Exception {
        try {
            driver.quit();
        } finally {
            service.stop();
            try (Stream<Path> walk = Files.walk(profile)) {
                walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }
}

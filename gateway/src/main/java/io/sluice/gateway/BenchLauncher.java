package io.sluice.gateway;

import java.io.IOException;
import java.io.PrintStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.jar.Attributes;
import java.util.jar.JarFile;
import java.util.jar.Manifest;

/**
 * {@code sluice bench …}: the load generator ships as its own jar, sluice-bench.jar beside
 * sluice.jar (lib/ of the distribution, gateway/target/ of a build), so that the server's jar
 * carries none of it. It runs in this JVM, with the JVM options this one was started with (bin/sluice
 * gives it conf/jvm.options, as before), through a class loader of its own over that jar whose parent
 * is the platform's: the tool sees its own Vert.x and Netty, never the server's, exactly as
 * {@code java -jar sluice-bench.jar} would.
 */
final class BenchLauncher {

  /** The bench jar's file name, beside sluice.jar. */
  static final String JAR_NAME = "sluice-bench.jar";

  /** The exit status when the tool cannot be started (its jar missing or not runnable), as for a server that cannot start. */
  static final int CANNOT_START = 1;

  private BenchLauncher() {
  }

  /** Where the bench jar belongs: beside the jar (or, in a build's tests, the classes folder) this class came from. */
  static Path besideSluiceJar() {
    try {
      Path self = Path.of(Main.class.getProtectionDomain().getCodeSource().getLocation().toURI());
      // A sluice.jar reached through a link: the bench jar lies beside the file itself.
      return (Files.exists(self) ? self.toRealPath() : self).resolveSibling(JAR_NAME);
    } catch (URISyntaxException | IOException e) {
      throw new IllegalStateException("cannot tell where sluice.jar is: " + e.getMessage(), e);
    }
  }

  /**
   * Runs the tool with {@code args}. Its main ends the JVM with the tool's own exit status, so this
   * answers only when the tool could not be started (having said why on {@code err}), or failed.
   */
  static int run(Path jar, List<String> args, PrintStream err) {
    if (!Files.isRegularFile(jar)) {
      err.println("sluice: bench: the load generator is not installed: " + jar + " is missing"
          + " (the distribution ships it in lib/ beside sluice.jar; mvn package builds it into gateway/target/)");
      return CANNOT_START;
    }
    Method main;
    try {
      main = mainOf(jar);
    } catch (IOException | ReflectiveOperationException e) {
      err.println("sluice: bench: cannot run " + jar + ": " + e);
      return CANNOT_START;
    }
    Thread.currentThread().setContextClassLoader(main.getDeclaringClass().getClassLoader());
    try {
      main.invoke(null, (Object) args.toArray(String[]::new));
      return 0;
    } catch (InvocationTargetException e) {
      // What the JVM does with an exception out of main: its trace, status 1.
      e.getCause().printStackTrace(err);
      return 1;
    } catch (IllegalAccessException e) {
      err.println("sluice: bench: cannot run " + jar + ": " + e);
      return CANNOT_START;
    }
  }

  /** The jar's {@code Main-Class}, loaded apart from the server's classes; the loader lives as long as the tool runs. */
  private static Method mainOf(Path jar) throws IOException, ReflectiveOperationException {
    String mainClass;
    try (JarFile file = new JarFile(jar.toFile())) {
      Manifest manifest = file.getManifest();
      mainClass = manifest == null ? null : manifest.getMainAttributes().getValue(Attributes.Name.MAIN_CLASS);
    }
    if (mainClass == null) {
      throw new IOException("its manifest names no Main-Class");
    }
    URLClassLoader loader = new URLClassLoader("sluice-bench", new URL[] {jar.toUri().toURL()},
        ClassLoader.getPlatformClassLoader());
    return Class.forName(mainClass, true, loader).getMethod("main", String[].class);
  }
}

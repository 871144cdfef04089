package io.sluice.gateway;

/**
 * Routes SIGHUP to a reload. Without this the JVM treats SIGHUP like SIGTERM and stops. Uses
 * {@code sun.misc.Signal} (module jdk.unsupported, in every JDK); where SIGHUP cannot be caught
 * (Windows, or a JVM started with -Xrs) start-up says so in one line and a restart applies changes.
 */
final class HangupSignal {

  private static final System.Logger LOG = System.getLogger(HangupSignal.class.getName());

  private HangupSignal() {
  }

  static void onHangup(Runnable reload) {
    try {
      sun.misc.SignalHandler previous = sun.misc.Signal.handle(new sun.misc.Signal("HUP"), signal -> {
        LOG.log(System.Logger.Level.INFO, "SIGHUP: reloading");
        reload.run();
      });
      if (previous == sun.misc.SignalHandler.SIG_IGN) {
        // HotSpot keeps a SIGHUP that the parent ignored (nohup does) ignored, and says so only this way.
        LOG.log(System.Logger.Level.WARNING, "SIGHUP reload is not available: this process was started with SIGHUP"
            + " ignored (by nohup, for example); start it without nohup, or restart Sluice to apply configuration changes");
      }
    } catch (IllegalArgumentException | UnsupportedOperationException | LinkageError unavailable) {
      LOG.log(System.Logger.Level.WARNING, "SIGHUP reload is not available on this JVM (" + unavailable.getMessage()
          + "): restart Sluice to apply configuration changes");
    }
  }
}

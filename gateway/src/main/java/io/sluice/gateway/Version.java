package io.sluice.gateway;

/** The version this jar was built as (its manifest), or "dev" when run from classes. */
public final class Version {

  private Version() {
  }

  public static String current() {
    String version = Version.class.getPackage().getImplementationVersion();
    return version == null ? "dev" : version;
  }
}

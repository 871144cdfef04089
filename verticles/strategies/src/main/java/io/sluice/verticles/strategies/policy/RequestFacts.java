package io.sluice.verticles.strategies.policy;

/**
 * What a {@link KeySource} may read from the request being limited. The HTTP layer answers from
 * the check call itself; for a proxy's forwarded check, that call carries the original request's
 * headers and path.
 */
public interface RequestFacts {

  /** The key the caller named explicitly (JSON {@code key}, or {@code ?key=}), or null. */
  String param();

  /** The value of a request header (case-insensitive name), or null. */
  String header(String name);

  /** The address of the peer that sent the check call, or null. */
  String clientIp();

  /** The path of the request being limited, without its query, or null when unknown. */
  String path();
}

package io.sluice.gateway.cli;

import io.sluice.protocol.binary.codec.ValueSize;

import java.net.URI;
import java.util.List;
import java.util.Optional;

/**
 * What {@code sluice cli …} was asked to do: where the Throttr and HTTP ports are and how to reach
 * them, how to print, and the command. An empty command starts the interactive prompt.
 */
record CliSettings(String host, int port, ValueSize valueSize, CliTls tls, URI http, Optional<String> token,
                   boolean json, boolean help, List<String> command) {

  /** The variable the server reads its token from; the client reads the same one. */
  static final String TOKEN_VARIABLE = "SLUICE_AUTH_TOKEN";
}

package io.sluice.verticles.server.wsauth;

/**
 * A channel name in a permission: an exact name, or a prefix followed by a trailing {@code *}
 * ({@code chat.*} matches {@code chat.a}, {@code *} alone matches every name). A {@code *} anywhere
 * else is an ordinary character, as in channel names.
 */
public record ChannelPattern(String prefix, boolean wildcard) {

  public static ChannelPattern parse(String text) {
    return text.endsWith("*")
        ? new ChannelPattern(text.substring(0, text.length() - 1), true)
        : new ChannelPattern(text, false);
  }

  public boolean matches(String channel) {
    return wildcard ? channel.startsWith(prefix) : channel.equals(prefix);
  }

  @Override
  public String toString() {
    return wildcard ? prefix + "*" : prefix;
  }
}

package io.sluice.protocol.binary.codec;

/**
 * One decoded Throttr request. Keys, channels and payloads are copies, never views of the read
 * buffer, so a request may travel to another thread (a storage shard) after the buffer is reused.
 * Values of N-byte fields are held as unsigned longs.
 */
public sealed interface Request {

  RequestType type();

  /** Requests that act on one record and so belong to the shard that owns their key. */
  sealed interface KeyRequest extends Request {
    byte[] key();
  }

  record Insert(long quota, int ttlType, long ttl, byte[] key) implements KeyRequest {
    public RequestType type() { return RequestType.INSERT; }
  }

  record Query(byte[] key) implements KeyRequest {
    public RequestType type() { return RequestType.QUERY; }
  }

  record Update(int attribute, int change, long value, byte[] key) implements KeyRequest {
    public static final int ATTRIBUTE_QUOTA = 0x00;
    public static final int ATTRIBUTE_TTL = 0x01;
    public static final int CHANGE_PATCH = 0x00;
    public static final int CHANGE_INCREASE = 0x01;
    public static final int CHANGE_DECREASE = 0x02;

    public RequestType type() { return RequestType.UPDATE; }
  }

  record Purge(byte[] key) implements KeyRequest {
    public RequestType type() { return RequestType.PURGE; }
  }

  record Set(int ttlType, long ttl, byte[] key, byte[] value) implements KeyRequest {
    public RequestType type() { return RequestType.SET; }
  }

  record Get(byte[] key) implements KeyRequest {
    public RequestType type() { return RequestType.GET; }
  }

  record Stat(byte[] key) implements KeyRequest {
    public RequestType type() { return RequestType.STAT; }
  }

  /** LIST, INFO, STATS, CONNECTIONS, CHANNELS and WHOAMI: the type byte is the whole frame. */
  record Bare(RequestType type) implements Request {
    public static final Bare LIST = new Bare(RequestType.LIST);
    public static final Bare INFO = new Bare(RequestType.INFO);
    public static final Bare STATS = new Bare(RequestType.STATS);
    public static final Bare CONNECTIONS = new Bare(RequestType.CONNECTIONS);
    public static final Bare CHANNELS = new Bare(RequestType.CHANNELS);
    public static final Bare WHOAMI = new Bare(RequestType.WHOAMI);

    static Bare of(RequestType type) {
      switch (type) {
        case LIST: return LIST;
        case INFO: return INFO;
        case STATS: return STATS;
        case CONNECTIONS: return CONNECTIONS;
        case CHANNELS: return CHANNELS;
        case WHOAMI: return WHOAMI;
        default: throw new IllegalArgumentException(type + " is not a one-byte request");
      }
    }
  }

  /** CONNECTION: the 16 raw bytes of a connection ID. */
  record Connection(byte[] id) implements Request {
    public RequestType type() { return RequestType.CONNECTION; }
  }

  record Subscribe(byte[] channel) implements Request {
    public RequestType type() { return RequestType.SUBSCRIBE; }
  }

  record Unsubscribe(byte[] channel) implements Request {
    public RequestType type() { return RequestType.UNSUBSCRIBE; }
  }

  record Channel(byte[] channel) implements Request {
    public RequestType type() { return RequestType.CHANNEL; }
  }

  record Publish(byte[] channel, byte[] payload) implements Request {
    public RequestType type() { return RequestType.PUBLISH; }
  }

  /**
   * EVENT: a request carried in the payload (spec §2.12), possibly inside further EVENTs. The decoder
   * unwraps every level at once ({@link EventNesting}): {@code depth} is the number of EVENT frames,
   * this one included, down to the payload that holds {@code inner}; {@code innerType} is that
   * payload's first byte (-1 when it is empty), which the instance counters count even when it
   * names no request. {@code inner} is {@code null} when that payload does not hold a whole known
   * request; the answer is then {@code depth} times {@code 01}, then {@code 00}.
   */
  record Event(byte[] channel, byte[] payload, Request inner, int depth, int innerType) implements Request {

    /** An EVENT whose payload is not itself an EVENT, as a client builds one to send. */
    public Event(byte[] channel, byte[] payload, Request inner) {
      this(channel, payload, inner, 1, payload.length == 0 ? -1 : payload[0] & 0xff);
    }

    public RequestType type() { return RequestType.EVENT; }
  }
}

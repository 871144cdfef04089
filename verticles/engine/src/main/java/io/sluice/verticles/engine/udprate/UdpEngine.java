package io.sluice.verticles.engine.udprate;

import io.sluice.verticles.engine.udprate.rate.RateEvaluation;
import io.sluice.verticles.engine.time.Clock;
import io.sluice.protocol.udp.rules.KeyResolution;
import io.sluice.protocol.udp.rules.KeySemantics;
import io.sluice.protocol.udp.rules.Rule;
import io.sluice.protocol.udp.rules.RuleSet;
import io.sluice.protocol.udp.rules.StatsOnlyHook;
import io.sluice.verticles.engine.udprate.store.AsyncStateStore;
import io.sluice.verticles.engine.udprate.store.RateUse;
import io.sluice.verticles.engine.udprate.store.StateStore;
import io.sluice.verticles.engine.udprate.store.WindowUse;
import io.sluice.verticles.engine.udprate.stats.BucketRotation;
import io.sluice.verticles.engine.udprate.stats.KeyStatistics;
import io.sluice.verticles.engine.udprate.stats.StatsSnapshot;
import io.sluice.protocol.udp.wire.CheckLimitKeys;
import io.sluice.protocol.udp.wire.MalformedCheckLimitException;
import io.sluice.protocol.udp.wire.UdpCommand;
import io.sluice.protocol.udp.wire.UdpReplyFormatter;
import io.sluice.protocol.udp.wire.UdpReplyFormatter.KeyVerdict;
import io.sluice.protocol.udp.wire.UdpRequest;
import io.sluice.protocol.udp.wire.UdpRequestParser;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;

/**
 * The UDP text protocol of the MusicBrainz rate limiter, one datagram at a time, without I/O: bytes
 * in, reply text (or no reply) out. Rate state lives in an injected store, time comes from an
 * injected clock; the statistics of {@code get_stats} are kept here.
 *
 * <p>Per {@code over_limit} key (spec §4–§6): stats-only hooks on the key as sent, rewriting, the
 * first matching rule; then either the rule's fixed reply or one read-compute-write step of the
 * decaying rate on the store; then statistics when the rule keeps them.
 *
 * <p>Replies are byte strings (one {@code char} per byte): send them with {@link #replyBytes}. The
 * engine never throws for a request: anything unusable, and any store failure, gives no reply
 * (reported to the {@link UdpEngineListener}). It is thread-safe.
 */
public final class UdpEngine {

  /** Keys whose rule decision is remembered, per generation of the {@link ResolutionCache}. */
  private static final int RESOLUTION_CACHE_KEYS = 16_384;

  /** The rule table and its cache, replaced together when the rules are reloaded. */
  private volatile ResolutionCache resolutions;
  private final AsyncStateStore store;
  private final boolean storeCompletesImmediately;
  private final Clock clock;
  private final UdpRequestParser parser;
  private final KeyStatistics statistics;
  private final UdpEngineListener listener;

  private UdpEngine(Builder builder) {
    this.resolutions = new ResolutionCache(builder.rules, RESOLUTION_CACHE_KEYS);
    this.store = builder.store;
    this.storeCompletesImmediately = builder.storeCompletesImmediately;
    this.clock = builder.clock;
    this.parser = new UdpRequestParser(builder.maxDatagramBytes);
    this.statistics = new KeyStatistics(builder.bucketRotation, builder.maxStatsKeys);
    this.listener = builder.listener;
  }

  /** An engine over a store that answers on the caller's thread. */
  public static Builder builder(RuleSet rules, StateStore store) {
    return new Builder(rules, AsyncStateStore.completedFrom(store), true);
  }

  /** An engine over a store that answers later (storage shards); use {@link #handleAsync}. */
  public static Builder builder(RuleSet rules, AsyncStateStore store) {
    return new Builder(rules, store, false);
  }

  /**
   * Handles one datagram and waits for the answer: immediate with a {@link StateStore}; with an
   * {@link AsyncStateStore} this blocks the calling thread, so never call it on an event loop then.
   *
   * @return the reply, or empty when none is to be sent
   */
  public Optional<String> handle(byte[] datagram) {
    return handleAsync(datagram).toCompletableFuture().join();
  }

  /**
   * Handles one datagram. The stage never completes exceptionally: failures give an empty reply.
   * With a {@link StateStore} it is already complete when returned.
   */
  public CompletionStage<Optional<String>> handleAsync(byte[] datagram) {
    Optional<UdpRequest> parsed = parser.parse(datagram);
    if (parsed.isEmpty()) {
      return CompletableFuture.completedFuture(Optional.empty());
    }
    UdpRequest request = parsed.get();
    listener.requestReceived(request.command());
    CompletionStage<Optional<String>> answer;
    try {
      answer = answer(request.command());
    } catch (RuntimeException failure) {
      answer = CompletableFuture.failedFuture(failure);
    }
    return answer.handle((body, failure) -> {
      if (failure != null) {
        listener.requestFailed(failure instanceof CompletionException && failure.getCause() != null
            ? failure.getCause() : failure);
        return Optional.empty();
      }
      return body.map(text -> UdpReplyFormatter.withRequestId(request.requestId(), text));
    });
  }

  /** A reply as the bytes to send. */
  public static byte[] replyBytes(String reply) {
    return reply.getBytes(StandardCharsets.ISO_8859_1);
  }

  /** The statistics; with {@link BucketRotation#CALLER_DRIVEN} call {@link KeyStatistics#rotateIfDue} on them. */
  public KeyStatistics statistics() {
    return statistics;
  }

  public RuleSet rules() {
    return resolutions.rules();
  }

  /**
   * Serves later requests with {@code rules} (a reload). Rate state and statistics are kept: they
   * live under keys, not rules; a request already past its rule lookup finishes with the old table.
   */
  public void replaceRules(RuleSet rules) {
    this.resolutions = new ResolutionCache(Objects.requireNonNull(rules, "rules"), RESOLUTION_CACHE_KEYS);
  }

  /**
   * Now in fractional seconds since the Unix epoch at microsecond resolution, as the original read
   * it ({@code Time::HiRes::time}, i.e. {@code gettimeofday}): the rate formula and the statistics
   * buckets work on this scale, and cutting below the microsecond keeps the doubles the original's.
   */
  public double nowSeconds() {
    long micros = Math.floorDiv(clock.epochNanos(), 1_000L);
    return Math.floorDiv(micros, 1_000_000L) + Math.floorMod(micros, 1_000_000L) / 1e6;
  }

  /** Whether {@link #handle} returns without waiting (the store is synchronous). */
  public boolean answersImmediately() {
    return storeCompletesImmediately;
  }

  private CompletionStage<Optional<String>> answer(UdpCommand command) {
    if (command instanceof UdpCommand.OverLimit over) {
      String key = over.key();
      return overLimit(key, KeySemantics.BYTES).thenApply(outcome -> Optional.of(outcome.reply()));
    }
    if (command instanceof UdpCommand.CheckLimit check) {
      return checkLimit(check.json());
    }
    if (command instanceof UdpCommand.GetStats query) {
      String key = query.key();
      StatsSnapshot stats = statistics.snapshot(key, nowSeconds());
      return completed(UdpReplyFormatter.stats(stats.requests(), stats.overLimit(), stats.lastMaxRate(), key));
    }
    if (command instanceof UdpCommand.GetSize) {
      return store.size().thenApply(keys -> Optional.of(UdpReplyFormatter.size(keys)));
    }
    if (command instanceof UdpCommand.Ping) {
      return completed(UdpReplyFormatter.pong());
    }
    throw new IllegalStateException("unknown command " + command);
  }

  /** One {@code over_limit} evaluation of {@code key}. */
  private record KeyOutcome(String key, boolean over, String reply) {
  }

  private CompletionStage<KeyOutcome> overLimit(String key, KeySemantics semantics) {
    KeyResolution resolution = resolutions.resolve(key, semantics);
    if (resolution.usedDefaultRule()) {
      listener.defaultRuleUsed(key);
    }
    CompletionStage<Void> sideEffects = CompletableFuture.completedFuture(null);
    for (String statsOnlyKey : resolution.statsOnlyKeys()) {
      sideEffects = sideEffects.thenCompose(ignored -> statsOnlyUse(statsOnlyKey));
    }
    return sideEffects.thenCompose(ignored -> applyRule(key, resolution));
  }

  /** The original's {@code keep_stats_only}: a strict use with limit 3 / period 3, counted as never over. */
  private CompletionStage<Void> statsOnlyUse(String statsKey) {
    return useKey(statsKey, StatsOnlyHook.LIMIT, StatsOnlyHook.PERIOD_SECONDS, true)
        .thenAccept(evaluation -> statistics.record(statsKey, false, evaluation.rate(), nowSeconds()));
  }

  private CompletionStage<KeyOutcome> applyRule(String key, KeyResolution resolution) {
    Rule rule = resolution.rule();
    CompletionStage<RateEvaluation> evaluation = rule.hasFixedReply()
        ? CompletableFuture.completedFuture(new RateEvaluation(rule.fixedReply().rate(), rule.fixedReply().over(), null))
        : useKey(resolution.stateKey(), rule);
    return evaluation.thenApply(result -> {
      if (rule.keepStats()) {
        statistics.record(resolution.stateKey(), result.over(), result.rate(), nowSeconds());
      }
      String reply = UdpReplyFormatter.overLimit(result.over(), result.rate(), rule.limit(), rule.periodSeconds());
      listener.verdict(result.over());
      return new KeyOutcome(key, result.over(), reply);
    });
  }

  /** One use of {@code stateKey} as {@code rule} measures it, timed now. */
  private CompletionStage<RateEvaluation> useKey(String stateKey, Rule rule) {
    return switch (rule.algorithm()) {
      case DECAYING_RATE -> useKey(stateKey, rule.limit(), rule.periodSeconds(), rule.strict());
      case SLIDING_WINDOW -> store.update(stateKey, new WindowUse(clock.epochNanos(), rule.limit(), rule.periodSeconds()));
    };
  }

  /** One read-compute-write step of the decaying rate on {@code stateKey}, timed now. */
  private CompletionStage<RateEvaluation> useKey(String stateKey, double limit, double periodSeconds, boolean strict) {
    return store.update(stateKey, new RateUse(nowSeconds(), limit, periodSeconds, strict));
  }

  /** spec §8: the ua, ip and global keys in order, stopping after the first {@code Y}. */
  private CompletionStage<Optional<String>> checkLimit(String argument) {
    List<String> keys;
    try {
      keys = CheckLimitKeys.derive(argument);
    } catch (MalformedCheckLimitException malformed) {
      listener.checkLimitRejected(argument, malformed.getMessage());
      return CompletableFuture.completedFuture(Optional.empty());
    }
    return evaluateInTurn(keys, 0, new ArrayList<>()).thenApply(evaluated -> {
      List<KeyVerdict> verdicts = new ArrayList<>(evaluated.size());
      for (KeyOutcome outcome : evaluated) {
        verdicts.add(new KeyVerdict(outcome.key(), outcome.reply()));
      }
      return Optional.of(UdpReplyFormatter.checkLimit(keys, verdicts));
    });
  }

  private CompletionStage<List<KeyOutcome>> evaluateInTurn(List<String> keys, int next, List<KeyOutcome> evaluated) {
    if (next == keys.size()) {
      return CompletableFuture.completedFuture(evaluated);
    }
    String key = keys.get(next);
    return overLimit(key, KeySemantics.ofDecodedText(key)).thenCompose(outcome -> {
      evaluated.add(outcome);
      return outcome.over()
          ? CompletableFuture.completedFuture(evaluated)
          : evaluateInTurn(keys, next + 1, evaluated);
    });
  }

  private static CompletionStage<Optional<String>> completed(String reply) {
    return CompletableFuture.completedFuture(Optional.of(reply));
  }

  /** Options of a {@link UdpEngine}; the defaults are those of the original server. */
  public static final class Builder {
    private final RuleSet rules;
    private final AsyncStateStore store;
    private final boolean storeCompletesImmediately;
    private Clock clock = Clock.SYSTEM;
    private int maxDatagramBytes = UdpRequestParser.DEFAULT_MAX_DATAGRAM_BYTES;
    private BucketRotation bucketRotation = BucketRotation.ON_ACCESS;
    private int maxStatsKeys = KeyStatistics.DEFAULT_MAX_KEYS;
    private UdpEngineListener listener = UdpEngineListener.NONE;

    private Builder(RuleSet rules, AsyncStateStore store, boolean storeCompletesImmediately) {
      this.rules = Objects.requireNonNull(rules, "rules");
      this.store = Objects.requireNonNull(store, "store");
      this.storeCompletesImmediately = storeCompletesImmediately;
    }

    /** Time source (default: the system clock); read at microsecond resolution, see {@link #nowSeconds}. */
    public Builder clock(Clock clock) {
      this.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    /** Bytes of a datagram that are read, the rest ignored (default 1000, as the original). */
    public Builder maxDatagramBytes(int maxDatagramBytes) {
      if (maxDatagramBytes < 1) {
        throw new IllegalArgumentException("maxDatagramBytes must be at least 1, got " + maxDatagramBytes);
      }
      this.maxDatagramBytes = maxDatagramBytes;
      return this;
    }

    /** Who rotates the 5-minute statistics bucket (default: lazily, on access). */
    public Builder bucketRotation(BucketRotation bucketRotation) {
      this.bucketRotation = Objects.requireNonNull(bucketRotation, "bucketRotation");
      return this;
    }

    /** Keys whose statistics are held at most, the least recently used forgotten beyond (default 100,000). */
    public Builder maxStatsKeys(int maxStatsKeys) {
      if (maxStatsKeys < 1) {
        throw new IllegalArgumentException("maxStatsKeys must be at least 1, got " + maxStatsKeys);
      }
      this.maxStatsKeys = maxStatsKeys;
      return this;
    }

    public Builder listener(UdpEngineListener listener) {
      this.listener = Objects.requireNonNull(listener, "listener");
      return this;
    }

    public UdpEngine build() {
      return new UdpEngine(this);
    }
  }
}

package io.sluice.verticles.server.check;

import io.sluice.verticles.server.http.DirectRoutes;
import io.sluice.verticles.server.http.Endpoint;
import io.sluice.verticles.server.http.HttpFeature;
import io.micrometer.core.instrument.MeterRegistry;
import io.sluice.verticles.server.metrics.Callers;
import io.sluice.verticles.server.metrics.LimitActivity;
import io.sluice.verticles.strategies.policy.Policies;
import io.sluice.verticles.server.http.BearerToken;
import io.sluice.verticles.server.dispatch.ShardDirectory;
import io.sluice.verticles.server.dispatch.ShardQueries;
import io.vertx.core.Context;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * The HTTP check API for API gateways: one handler per endpoint, mounted on the HTTP front.
 *
 * <pre>
 * POST   /v1/check                  {"policy","key","cost"} → 200 allowed / 429 denied
 * ANY    /v1/check/{policy}[/path]  ?key=&amp;cost= → the same, for nginx auth_request and Envoy ext_authz
 * POST   /v1/peek                   {"policy","key"} → what a check would answer, consuming nothing
 * DELETE /v1/limits/{policy}/{key}  → removes the key's state
 * GET    /openapi.json             → the OpenAPI 3 document (public)
 * </pre>
 *
 * Each key's state lives in the shard that owns its record {@code rl:<policy>:<key>}; checks run
 * there as shard tasks, so they are atomic per key.
 */
public final class CheckApi {

  private final LivePolicies live;
  /** The policies in service as the endpoints look them up, built again when a reload replaced them. */
  private volatile CheckPolicies lookup;
  private final ShardDirectory shards;
  private final BearerToken token;
  private final CheckDecisions decisions;
  /** One outbox per front event loop, shared by its endpoints. */
  private final Map<Context, ShardQueries> shardsByLoop = new ConcurrentHashMap<>();
  private final Callers callers;
  /** One book of callers per front event loop, written by its check endpoints only. */
  private final Map<Context, Callers.Book> callersByLoop = new ConcurrentHashMap<>();

  /**
   * @param policies the policies in service, which a reload replaces
   * @param activity where decisions are counted for the dashboard's Limits view
   * @param callers where each check's caller is counted for the dashboard's Connections view
   */
  public CheckApi(LivePolicies policies, ShardDirectory shards, BearerToken token, MeterRegistry metrics,
                  LimitActivity activity, Callers callers) {
    this.live = policies;
    this.lookup = new CheckPolicies(policies.get());
    this.decisions = new CheckDecisions(metrics, activity);
    this.shards = shards;
    this.token = token;
    this.callers = callers;
  }

  /**
   * Path → handler factory, in match order. Each factory is called once per HTTP front instance,
   * on that instance's event loop.
   */
  public Map<String, Supplier<Handler<RoutingContext>>> mounts() {
    Map<String, Supplier<Handler<RoutingContext>>> mounts = new LinkedHashMap<>();
    mounts.put("/v1/check", this::jsonCheck);
    mounts.put(CheckHandler.FORWARDED_PREFIX + "*", this::forwardedCheck);
    mounts.put("/v1/peek", () -> Endpoint.ofRequest(List.of(HttpMethod.POST), token, new PeekHandler(services())));
    mounts.put(ResetHandler.PREFIX + "*", () -> Endpoint.ofRequest(List.of(HttpMethod.DELETE), token, new ResetHandler(services())));
    mounts.put("/openapi.json", () -> Endpoint.ofRequest(List.of(HttpMethod.GET, HttpMethod.HEAD), null, new OpenApiHandler()));
    return mounts;
  }

  /**
   * The checks again, taken before the router: their paths are fixed, and every gateway request
   * pays for their route matching. The router keeps them for the paths it alone reads right
   * ({@link DirectRoutes}).
   */
  public HttpFeature direct() {
    return new HttpFeature() {
      @Override
      public void mount(Router router) {
      }

      @Override
      public void mountDirect(DirectRoutes routes) {
        routes.exact("/v1/check", jsonCheck()::handle);
        routes.prefix(CheckHandler.FORWARDED_PREFIX, forwardedCheck()::handle);
      }
    };
  }

  private Endpoint jsonCheck() {
    return Endpoint.ofRequest(List.of(HttpMethod.POST), token, CheckHandler.json(services()));
  }

  private Endpoint forwardedCheck() {
    return Endpoint.ofRequest(List.of(), token, CheckHandler.forwarded(services()));
  }

  /** The services of the calling front event loop, whose shard outbox its endpoints share. */
  private CheckServices services() {
    Context loop = Vertx.currentContext();
    ShardQueries routes = shardsByLoop.computeIfAbsent(loop, context -> new ShardQueries(context, shards));
    Callers.Book book = callersByLoop.computeIfAbsent(loop, context -> callers.book(Callers.Protocol.HTTP));
    return new CheckServices(this::policies, routes, decisions, book);
  }

  /**
   * The policies in service. After a reload the first request builds their lookup again; two
   * requests racing to do so build the same thing. Each key's state stays in its shard under
   * {@code rl:<policy>:<key>}, so a policy kept by name keeps its counters.
   */
  private CheckPolicies policies() {
    CheckPolicies built = lookup;
    Policies current = live.get();
    if (!built.isOf(current)) {
      built = new CheckPolicies(current);
      lookup = built;
    }
    return built;
  }
}

package io.sluice.verticles.server.dashboard;

import io.sluice.verticles.engine.channel.HistoryLimits;
import io.sluice.verticles.server.pubsub.ChannelFanOut;
import io.sluice.verticles.server.pubsub.ChannelHistories;
import io.sluice.verticles.engine.instance.Instance;
import io.sluice.verticles.server.http.ApiError;
import io.sluice.verticles.server.http.BearerToken;
import io.sluice.verticles.server.http.Endpoint;
import io.sluice.verticles.server.http.HttpFeature;
import io.sluice.verticles.server.http.ProtectedMode;
import io.vertx.core.http.HttpMethod;
import io.sluice.verticles.server.persistence.PersistentShards;
import io.sluice.verticles.server.dispatch.ShardDirectory;
import io.sluice.verticles.server.dispatch.ShardQueries;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.handler.StaticHandler;

import java.util.List;
import java.util.regex.Pattern;

/**
 * The dashboard on the HTTP port: its JSON API under {@code /api/} (see docs/dashboard-api.md) and
 * the browser app from the classpath folder {@code webui/} (the webui module) at {@code /}. Every
 * API call but {@code /api/auth} needs the bearer token when one is configured; the static files do
 * not, as they hold no data. Live updates come from the {@link DashboardVerticle}.
 */
public final class Dashboard implements HttpFeature {

  /** Where the webui module puts the browser app on the classpath. */
  static final String ASSETS = "webui";

  /** The paths routed below, for telling a wrong method (405) from a wrong path (404). */
  private static final Pattern SERVED_PATHS =
      Pattern.compile("/api/(auth|overview|events|keys(/[^/]+)?|connections(/[^/]+)?|udp-peers|callers|channels(/[^/]+)?|limits|history|admin/config)");

  /** The cluster's API, which a cluster node serves before this router (HttpListener). */
  private static final Pattern CLUSTER_PATHS = Pattern.compile("/api/cluster(/partitions)?/?");

  private final DashboardContext dashboard;
  private final ShardDirectory directory;
  private final BearerToken token;
  private final KeyScans keyScans = new KeyScans();
  private final DashboardData data;
  private final ProtectedMode protectedMode;
  private HistoryLimits channelHistory = HistoryLimits.OFF;

  /**
   * @param data          the policies and what they decided, the history, the operator settings
   * @param protectedMode who may create, change and delete keys when no client authenticates
   * @param persistence   the shards' persistence, {@link PersistentShards#none()} without --data-dir
   */
  public Dashboard(Instance instance, ShardDirectory directory, BearerToken token, DashboardData data,
                   ProtectedMode protectedMode, PersistentShards persistence) {
    this.dashboard = new DashboardContext(instance, persistence);
    this.directory = directory;
    this.token = token;
    this.data = data;
    this.protectedMode = protectedMode;
  }

  /** Channels keep {@code history} ({@code --channel-history}): the Channels view shows each one's size. */
  public Dashboard withChannelHistory(HistoryLimits history) {
    this.channelHistory = history;
    return this;
  }

  @Override
  public void mount(Router router) {
    Vertx vertx = Vertx.currentContext().owner();
    SecurityHeaders headers = new SecurityHeaders();
    router.route("/api/*").handler(headers);
    router.route("/api/*").subRouter(api(vertx));
    if (Dashboard.class.getClassLoader().getResource(ASSETS + "/index.html") != null) {
      router.route("/*").handler(headers).handler(context -> {
        // Revalidate on every load, so a new version's page never runs with an old script.
        context.response().putHeader(HttpHeaders.CACHE_CONTROL, "no-cache");
        context.next();
      }).handler(StaticHandler.create(ASSETS).setCachingEnabled(false));
    }
  }

  private Router api(Vertx vertx) {
    ShardQueries shards = new ShardQueries(Vertx.currentContext(), directory);
    KeyRoutes keys = new KeyRoutes(shards, keyScans, dashboard, new KeyStates(data.livePolicies()));
    ConnectionRoutes connections = new ConnectionRoutes(dashboard, data.callers());
    ChannelRoutes channels = new ChannelRoutes(dashboard, !channelHistory.enabled() ? null
        : new ChannelHistories(shards.router(), channelHistory, ChannelFanOut.messages(vertx), dashboard.instance().clock()));
    LimitRoutes limits = new LimitRoutes(dashboard, data);
    AdminRoutes admin = new AdminRoutes(data);
    LiveUpdates live = new LiveUpdates(shards, dashboard, data);
    Router api = Router.router(vertx);
    api.route().handler(context -> {
      boolean write = context.request().method() != HttpMethod.GET && context.request().method() != HttpMethod.HEAD;
      if (write && protectedMode.refusesWritesFrom(context.request().remoteAddress())) {
        Endpoint.send(context.response(), new ApiError(403, ProtectedMode.REASON, null));
      } else {
        context.next();
      }
    });
    api.get("/auth").handler(new Endpoint(List.of(), null, context ->
        DashboardContext.ok(context, new JsonObject().put("required", token.required()))));
    api.get("/overview").handler(guarded(context ->
        Overview.collect(shards, dashboard.instance(), data, dashboard.persistence())
            .compose(overview -> DashboardContext.ok(context, overview))));
    api.get("/events").handler(guarded(live::stream));
    api.get("/keys").handler(guarded(keys::list));
    api.post("/keys").handler(guarded(keys::create));
    api.get("/keys/:key").handler(guarded(keys::detail));
    api.patch("/keys/:key").handler(guarded(keys::update));
    api.delete("/keys/:key").handler(guarded(keys::delete));
    api.get("/connections").handler(guarded(connections::list));
    api.get("/connections/:id").handler(guarded(connections::detail));
    api.delete("/connections/:id").handler(guarded(admin::close));
    api.get("/admin/config").handler(guarded(admin::config));
    api.get("/udp-peers").handler(guarded(connections::udpPeers));
    api.get("/callers").handler(guarded(connections::callers));
    api.get("/channels").handler(guarded(channels::list));
    api.get("/channels/:name").handler(guarded(channels::detail));
    api.get("/limits").handler(guarded(limits::list));
    api.get("/history").handler(guarded(limits::history));
    // What no route took gets a JSON error too, not the router's plain-text page.
    api.route().handler(context -> {
      String method = context.request().method().name();
      String path = context.request().path();
      Endpoint.send(context.response(), SERVED_PATHS.matcher(path).matches()
          ? new ApiError(405, method + " is not served at " + path, null)
          : !data.clustered() && CLUSTER_PATHS.matcher(path).matches()
          ? new ApiError(404, path + " is served by cluster nodes only (started with --cluster); this is a single node",
              null)
          : new ApiError(404, "no such API: " + method + " " + path + " (see docs/dashboard-api.md)", null));
    });
    return api;
  }

  /** Methods are routed above; the endpoint adds the token check and JSON errors. */
  private Endpoint guarded(Endpoint.Action action) {
    return new Endpoint(List.of(), token, action);
  }
}

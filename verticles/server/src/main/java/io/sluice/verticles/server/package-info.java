/**
 * The server: {@link io.sluice.verticles.server.SluiceServer} starts the storage shards and every
 * front over them. Its packages stand in layers; a package uses only its own layer and those below
 * it, and no packages form a cycle (PackageLayersTest checks both). Bottom to top:
 * <ol>
 *   <li>{@code bus}: the event bus's helpers (a local codec; {@code EveryMember}, asking every
 *       member of the cluster one question);</li>
 *   <li>{@code tracing}, {@code metrics}, {@code reload}, {@code tls}, {@code pubsub},
 *       {@code persistence}: parts that use no other package of the server but {@code bus};</li>
 *   <li>{@code settings}: the settings the listeners and the dashboard share; {@code xds}: the rate
 *       limit config's client of an xDS server;</li>
 *   <li>{@code dispatch}: the storage shards' verticles and the way to them ({@code ShardQueries}: the routes as Vert.x
 *       futures, a failure there a {@code ShardFailure});</li>
 *   <li>{@code listener}: a bound port and its defences (guards, connection gate and limits, TLS
 *       reloads), started and stopped the same way by every front;</li>
 *   <li>{@code front}: a client connection of the Throttr fronts;</li>
 *   <li>{@code http}: the HTTP port and what every endpoint does (an {@code ApiError} answered as
 *       JSON, a {@code ShardFailure} as a 500);</li>
 *   <li>{@code check}, {@code health}, {@code cluster}, {@code udp}: what the HTTP port serves, and
 *       the cluster and UDP engines;</li>
 *   <li>{@code tcp}, {@code websocket}, {@code grpc}: the Throttr, WebSocket and gRPC fronts;</li>
 *   <li>{@code dashboard}: over every other feature;</li>
 *   <li>this package: {@code SluiceServer}, which starts them all, and its {@code ServerSettings}.</li>
 * </ol>
 */
package io.sluice.verticles.server;

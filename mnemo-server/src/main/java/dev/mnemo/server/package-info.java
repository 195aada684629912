/**
 * Mnemo as a service: {@link dev.mnemo.server.MnemoServer} (REST {@code /v1} on Javalin with
 * virtual threads, per-tenant stores and API keys, group commit, health, Prometheus metrics, mounts
 * for other transports), configured by {@link dev.mnemo.server.ServerConfig}, given each tenant's
 * engine by an {@link dev.mnemo.server.EngineFactory}. Everything else here is package-private: the
 * routes ({@code Api}), the wire form on top of mnemo-json's codecs ({@code Wire}), the one error
 * mapping ({@code Problems}), keys ({@code KeyStore}), tenants ({@code Tenants}, {@code
 * TenantMemory}) and the committer ({@code GroupCommitter}). The OpenAPI document is the resource
 * {@code openapi.json} beside these classes.
 */
package dev.mnemo.server;

// ServiceDefinition: what a service declares (its tools, resources and toolsets for the MCP server, its
// settings, its pages on the HTTP transport) and how it is built from its settings and core's runtime.
import type { HttpRoute } from "../route.js";
import type { ServiceRuntime } from "../runtime.js";
import type { ServedService } from "../server/options.js";
import type { CoreValues } from "./config.js";
import type { SettingsObject, SettingsShape, ValuesOf } from "./setting.js";

/** What a service's cross-setting checks read: the core MCP_* values and the service's own, typed. */
export type ServerValues<Shape extends SettingsShape> = CoreValues & ValuesOf<Shape>;

export interface ServiceDefinition<Service, Shape extends SettingsShape = SettingsShape>
  extends ServedService<Service> {
  /** The service's own settings (env + flags), beside the core MCP_* ones: one z.object of setting.* builders. */
  settings: SettingsObject<Shape>;
  /** Settings that were removed, each with what replaces it: setting one stops the start with that. */
  retiredSettings?: Readonly<Record<string, string>>;
  /** Cross-setting checks; returns a one-line problem or undefined. */
  checkSettings?(values: ServerValues<Shape>): string | undefined;
  /**
   * Pages of the service on the HTTP transport beside the MCP endpoint, answered to GET before the
   * bearer check (a browser follows a redirect there without the MCP token): e.g. an OAuth callback.
   */
  httpRoutes?(service: Service): HttpRoute[];
  /**
   * Builds what the handlers share (API client, rate limiter), once per process, from the service's
   * own settings and what it may read of core's (the runtime; never the raw MCP_* values).
   */
  createService(values: ValuesOf<Shape>, runtime: ServiceRuntime): Service;
}

// deploy/: the container fleet of docs/deployment.md. Docker is not run here; what can be checked is:
// HAProxy accepts deploy/haproxy.cfg (haproxy -c), and the compose file, the HAProxy configuration
// and the Dockerfile agree with each other and with the servers' real settings and bins.
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { findProgram } from "../../packages/emulators/src/fleet/programs.js";
import { settingsOf } from "../../packages/lab-mcp/src/core/start/run.js";
import { labdataService } from "../../packages/lab-mcp/src/services/labdata/index.js";
import { protocolsService } from "../../packages/lab-mcp/src/services/protocols/index.js";
import { ROOT } from "../support/clients.js";

const DEPLOY = join(ROOT, "deploy");
const HAPROXY = findProgram("haproxy");
const NO_HAPROXY =
  "haproxy not found (apt-get install haproxy): deploy/haproxy.cfg not checked with haproxy -c";
if (!HAPROXY) console.warn(NO_HAPROXY);

const read = (name: string) => readFileSync(join(DEPLOY, name), "utf8");

interface ComposeService {
  image?: string;
  command?: string[];
  environment?: Record<string, string>;
  ports?: string[];
  volumes?: string[];
  deploy?: { replicas?: number };
  healthcheck?: unknown;
  secrets?: string[];
}
const compose = parse(read("compose.yaml"), { merge: true }) as {
  services: Record<string, ComposeService>;
  secrets?: Record<string, { file?: string }>;
};
const haproxyCfg = read("haproxy.cfg");

/** The compose services that run a tool server: that server's name and the settings it takes. */
const REPLICATED = {
  labdata: { serverName: labdataService.serverName, settings: settingsOf(labdataService) },
  protocols: { serverName: protocolsService.serverName, settings: settingsOf(protocolsService) },
};

/** The shared-state settings of the core (issue 15), listed in case the servers do not declare them yet. */
/** A backend of haproxy.cfg: its lines up to the next section. */
function section(kind: string, name: string): string {
  const start = haproxyCfg.indexOf(`\n${kind} ${name}\n`);
  expect(start, `${kind} ${name} in haproxy.cfg`).toBeGreaterThan(-1);
  const rest = haproxyCfg.slice(start + 1);
  const end = rest.search(/\n(?=[a-z])/);
  return end < 0 ? rest : rest.slice(0, end);
}

describe("deploy/", () => {
  it.skipIf(!HAPROXY)("haproxy.cfg is valid for HAProxy (haproxy -c)", async () => {
    const { stdout } = await promisify(execFile)(HAPROXY as string, [
      "-c",
      "-f",
      join(DEPLOY, "haproxy.cfg"),
    ]);
    expect(stdout).toContain("Configuration file is valid");
  });

  it("runs each tool server's bin, replicated, with the shared state and a token for its 0.0.0.0 bind", () => {
    const productBins = Object.values(
      (
        JSON.parse(readFileSync(join(ROOT, "packages/lab-mcp/package.json"), "utf8")) as {
          bin: Record<string, string>;
        }
      ).bin,
    );
    for (const [name, definition] of Object.entries(REPLICATED)) {
      const service = compose.services[name] as ComposeService;
      expect(service, name).toBeDefined();
      expect(service.deploy?.replicas, name).toBeGreaterThan(1);
      const [node, bin] = service.command ?? [];
      expect(node).toBe("node");
      expect(productBins.map((path) => `packages/lab-mcp/${path}`)).toContain(bin);

      const env = service.environment ?? {};
      expect(env).toMatchObject({
        MCP_TRANSPORT: "http",
        MCP_HOST: "0.0.0.0",
        REDIS_URL: "redis://redis:6379",
      });
      // Every secret from a file the service mounts (a Docker secret), none in the environment.
      const secrets = definition.settings.filter((spec) => spec.kind === "secret").map((spec) => spec.env);
      for (const required of ["MCP_HTTP_TOKEN", "MCP_STATE_KEY"]) {
        expect(env[`${required}_FILE`], required).toMatch(/^\/run\/secrets\/\w+$/);
      }
      for (const [setting, value] of Object.entries(env)) {
        if (setting === "REDIS_URL") continue; // no password in it: Redis is on the fleet's own network
        expect(secrets, `${name}: ${setting} in clear`).not.toContain(setting);
        const secret = /^(\w+)_FILE$/.exec(setting)?.[1];
        if (secret && secrets.includes(secret)) {
          const mounted = value.replace("/run/secrets/", "");
          expect(service.secrets, `${name}: ${setting}`).toContain(mounted);
          expect(compose.secrets?.[mounted]?.file, mounted).toBe(`./secrets/${mounted}`);
        }
      }
      const known = new Set(
        definition.settings.flatMap((spec) =>
          spec.kind === "secret" ? [spec.env, `${spec.env}_FILE`] : [spec.env],
        ),
      );
      for (const setting of Object.keys(env)) expect(known, `${name}: ${setting}`).toContain(setting);
    }
    expect(readFileSync(join(ROOT, ".gitignore"), "utf8")).toMatch(/^deploy\/secrets\/$/m);
  });

  it("publishes the load balancer on this host's loopback only", () => {
    const published = compose.services.haproxy?.ports ?? [];
    expect(published.length).toBeGreaterThan(0);
    for (const port of published) expect(port).toMatch(/^127\.0\.0\.1:\d+:\d+$/);
    for (const [name, service] of Object.entries(compose.services)) {
      if (name !== "haproxy") expect(service.ports, name).toBeUndefined();
    }
  });

  it("balances each tool server's replicas on the port compose publishes, by /healthz, sticky by session only", () => {
    const published = compose.services.haproxy?.ports ?? [];
    expect(compose.services.haproxy?.volumes).toContain(
      "./haproxy.cfg:/usr/local/etc/haproxy/haproxy.cfg:ro",
    );
    for (const [name, definition] of Object.entries(REPLICATED)) {
      const serverName = definition.serverName;
      const port = compose.services[name]?.environment?.MCP_PORT;
      const frontend = section("frontend", serverName);
      const bindPort = /bind :(\d+)/.exec(frontend)?.[1];
      expect(published).toContain(`127.0.0.1:${bindPort}:${bindPort}`);
      expect(frontend).toContain(`default_backend ${serverName}`);

      const backend = section("backend", serverName);
      expect(backend).toContain("balance roundrobin");
      expect(backend).toContain("http-check send meth GET uri /healthz");
      expect(backend).toContain("stick match req.hdr(mcp-session-id)");
      expect(backend).toContain("stick store-response res.hdr(mcp-session-id)");
      expect(backend).not.toMatch(/\bcookie\b/);
      const replicas = /server-template \w+ (\d+) (\w+):(\d+) /.exec(backend);
      expect(replicas?.[2]).toBe(name);
      expect(replicas?.[3]).toBe(port);
      expect(Number(replicas?.[1])).toBeGreaterThanOrEqual(compose.services[name]?.deploy?.replicas ?? 0);
    }
  });

  it("builds the image with npm ci and npm run build, and runs it as a user other than root", () => {
    const dockerfile = read("Dockerfile");
    expect(dockerfile).toMatch(/RUN npm ci [^\n]*&& npm run build/);
    const users = [...dockerfile.matchAll(/^USER (\S+)/gm)].map((match) => match[1]);
    expect(users.length).toBeGreaterThan(0);
    expect(users.at(-1)).not.toMatch(/^(root|0)$/);
    expect(dockerfile).toContain("/healthz");
  });
});

#!/usr/bin/env node
// Runs the lab data platform emulator with its demo tenants, and a small OpenID provider the tenants
// trust, in the foreground: everything labdata-mcp needs, without an account.
import { runEmulatorBin } from "../common/bin.js";
import { Clock } from "../common/clock.js";
import { type IdentityProvider, startIdentityProvider } from "../idp/index.js";
import { type LabdataEmulator, startLabdataEmulator, type WarehouseHandle } from "../labdata/index.js";

const USAGE = `Usage: labdata-emulator [--port <n>] [--seed <n>] [--ca-file <path>]

Serves the lab data platform over HTTPS on 127.0.0.1 with demo tenants "acme" and "globex", an
OpenID provider they accept ID tokens from, and acme's data warehouse (PostgreSQL over TLS; globex's
starts on its first credentials request). LABDATA_WAREHOUSE_POSTGRES_BIN names another PostgreSQL's
bin folder than the npm registry's.

  --port <n>         port of the platform (default 0: pick a free port)
  --seed <n>         seed of the demo data (default 1)
  --ca-file <path>   where to write the CA certificate PEM (default: a new temp file)
  --help             show this help`;

const AUDIENCE = (tenant: string): string => `labdata-${tenant}`;

function banner(
  emulator: LabdataEmulator,
  idp: { issuer: string; adminSecret: string },
  caFile: string,
  warehouse: WarehouseHandle,
): string {
  const demo = emulator.demo;
  if (!demo) return "";
  const acme = emulator.tenant("acme");
  const globex = emulator.tenant("globex");
  const basic = `-u '${demo.user.apiKey}:'`;
  const mintBody = JSON.stringify({ email: demo.user.email, audience: AUDIENCE("acme") });
  return [
    "labdata emulator listening",
    `  origin:          ${emulator.url}`,
    `  tenant acme:     ${acme.baseUrl}   (API ${acme.apiUrl})`,
    `  tenant globex:   ${globex.baseUrl}`,
    `  admin secret:    ${emulator.adminSecret}   (Authorization: Bearer, ${emulator.url}/_admin/...)`,
    `  CA file:         ${caFile}`,
    `  acme warehouse:  ${warehouse.url}   (${warehouse.engine}; TLS only, logins from POST /api/v2/warehouse-credentials)`,
    "",
    "Demo (acme):",
    `  user:            ${demo.user.name} <${demo.user.email}> (${demo.user.id})`,
    `  API key:         ${demo.user.apiKey}`,
    `  app:             ${demo.app.name}`,
    `  client id:       ${demo.app.clientId}`,
    `  client secret:   ${demo.app.clientSecret}`,
    `  Plasmid Library: ${demo.projects["Plasmid Library"]}`,
    `  other users:     ${demo.admin.email} (admin), ${demo.colleague.email}, ${demo.reader.email}, ${demo.suspended.email} (suspended)`,
    `  globex user:     ${demo.globex.user.email}, API key ${demo.globex.user.apiKey}`,
    "",
    "OpenID Connect:",
    `  identity provider: ${idp.issuer}   (audience ${AUDIENCE("acme")} for acme, ${AUDIENCE("globex")} for globex)`,
    `  idp admin secret:  ${idp.adminSecret}`,
    "  mint an ID token:",
    `    curl --cacert ${caFile} -H 'authorization: Bearer ${idp.adminSecret}' -H 'content-type: application/json' \\`,
    `      -d '${mintBody}' ${idp.issuer}/_admin/id-tokens`,
    "",
    "Try it:",
    `  curl --cacert ${caFile} ${basic} ${acme.apiUrl}/users/me`,
    `  curl --cacert ${caFile} ${basic} '${acme.apiUrl}/dna-sequences?pageSize=5&sort=name'`,
    `  curl --cacert ${caFile} -u '${demo.app.clientId}:${demo.app.clientSecret}' -d grant_type=client_credentials ${acme.apiUrl}/token`,
    `  curl --cacert ${caFile} ${basic} -H 'content-type: application/json' -d '{"expiresIn": 3599}' ${acme.apiUrl}/warehouse-credentials`,
    `  psql 'host=${warehouse.host} port=${warehouse.port} dbname=${warehouse.database} sslmode=verify-full sslrootcert=${caFile} user=<username>'`,
    "",
    "Use it with:",
    `  LABDATA_BASE_URL=${acme.baseUrl} LABDATA_API_KEY=${demo.user.apiKey} LABDATA_WAREHOUSE_URL=${warehouse.url} NODE_EXTRA_CA_CERTS=${caFile}`,
    "",
  ].join("\n");
}

await runEmulatorBin({
  name: "labdata-emulator",
  usage: USAGE,
  takesSeed: true,
  async start(flags, ca, caFile) {
    const clock = new Clock();
    let idp: IdentityProvider | undefined;
    let emulator: LabdataEmulator | undefined;
    try {
      idp = await startIdentityProvider({ ca, clock });
      emulator = await startLabdataEmulator({
        port: flags.port,
        seed: flags.seed ?? 1,
        ca,
        clock,
        warehouse: { tenants: ["acme"] },
      });
      for (const tenant of ["acme", "globex"]) {
        emulator.admin.updateSettings(tenant, {
          oidc: { configurationUrl: idp.configurationUrl, audience: AUDIENCE(tenant) },
        });
      }
    } catch (error) {
      await Promise.all([idp?.close(), emulator?.close()]);
      throw error;
    }
    const running = { idp, emulator, warehouse: await emulator.warehouse("acme") };
    return {
      banner: banner(running.emulator, running.idp, caFile, running.warehouse),
      close: async () => {
        await Promise.all([running.emulator.close(), running.idp.close()]);
      },
    };
  },
});

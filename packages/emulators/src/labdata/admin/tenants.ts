// Tenants and their settings: rate limit (or lifted), IP allowlist, OpenID Connect, token lifetime.
import { z } from "zod";
import { type EmulatorState, parseCidr, TenantState } from "../state/emulator-state.js";
import type { TenantSettings } from "../state/model.js";
import { conflict, validated } from "./admin-error.js";
import { tenantOf } from "./lookup.js";

export const TENANT_NAME = /^[a-z][a-z0-9-]{1,39}$/;

export interface TenantView {
  name: string;
  /** e.g. "https://127.0.0.1:8443/acme". */
  baseUrl: string;
  /** `${baseUrl}/api/v2`. */
  apiUrl: string;
  settings: TenantSettings;
}

const cidr = z.string().refine(
  (text) => {
    try {
      parseCidr(text);
      return true;
    } catch {
      return false;
    }
  },
  { message: "must be a CIDR such as 10.0.0.0/8 or 2001:db8::/32" },
);

const settingsPatchSchema = z
  .object({
    rateLimit: z
      .object({
        requests: z.number().int().min(1).max(1_000_000),
        windowMs: z.number().int().min(1).max(86_400_000),
      })
      .strict()
      .nullable()
      .optional(),
    ipAllowlist: z.array(cidr).max(100).optional(),
    oidc: z
      .object({
        configurationUrl: z.url({ protocol: /^https$/, error: "must be an https:// URL" }),
        audience: z.string().min(1).max(200),
      })
      .strict()
      .nullable()
      .optional(),
    accessTokenLifetimeSec: z
      .number()
      .int()
      .min(1)
      .max(30 * 86_400)
      .optional(),
  })
  .strict();

export type TenantSettingsPatch = z.infer<typeof settingsPatchSchema>;

const createTenantSchema = z
  .object({
    name: z.string().regex(TENANT_NAME, "lowercase letters, digits and '-', starting with a letter (2-40)"),
    settings: settingsPatchSchema.optional(),
  })
  .strict();

export type CreateTenantInput = z.infer<typeof createTenantSchema>;

export function tenantView(tenant: TenantState): TenantView {
  return {
    name: tenant.name,
    baseUrl: tenant.baseUrl,
    apiUrl: `${tenant.baseUrl}/api/v2`,
    settings: tenant.settings,
  };
}

export function createTenant(state: EmulatorState, input: CreateTenantInput): TenantView {
  const { name, settings } = validated(createTenantSchema, input);
  if (state.tenants.has(name)) throw conflict(`tenant '${name}' exists`);
  const tenant = new TenantState(name, `${state.origin}/${name}`, state.clock);
  if (settings) tenant.applySettings({ ...tenant.settings, ...settings });
  state.tenants.set(name, tenant);
  return tenantView(tenant);
}

export function listTenants(state: EmulatorState): TenantView[] {
  return [...state.tenants.values()].map(tenantView);
}

export function getSettings(state: EmulatorState, tenantName: string): TenantSettings {
  return tenantOf(state, tenantName).settings;
}

export function updateSettings(
  state: EmulatorState,
  tenantName: string,
  patch: TenantSettingsPatch,
): TenantSettings {
  const tenant = tenantOf(state, tenantName);
  const changes = validated(settingsPatchSchema, patch);
  const next: TenantSettings = { ...tenant.settings };
  if (changes.rateLimit !== undefined) next.rateLimit = changes.rateLimit;
  if (changes.ipAllowlist !== undefined) next.ipAllowlist = changes.ipAllowlist;
  if (changes.oidc !== undefined) next.oidc = changes.oidc;
  if (changes.accessTokenLifetimeSec !== undefined)
    next.accessTokenLifetimeSec = changes.accessTokenLifetimeSec;
  tenant.applySettings(next);
  return tenant.settings;
}

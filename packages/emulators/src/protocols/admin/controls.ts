// The admin operations on the emulator itself: its settings, its rate-limit windows and the dialect
// of its answers.

import type { ProtocolsContext } from "../context.js";
import {
  applyDialectPatch,
  type Dialect,
  type DialectPatch,
  type DialectPreset,
  dialectPatchSchema,
  presetName,
} from "../dialect.js";
import { type ProtocolsSettings, type SettingsPatch, settingsPatchSchema } from "../settings.js";
import { parseInput } from "./parse-input.js";

export interface DialectState {
  preset: DialectPreset | "custom";
  dialect: Dialect;
}

export interface ControlsAdmin {
  settings(): ProtocolsSettings;
  updateSettings(patch: SettingsPatch): ProtocolsSettings;
  /** Empties every rate-limit window, as if a minute had passed for everyone. */
  resetRateLimits(): void;
  /** The current dialect: which preset it equals ("custom" when none) and every knob. */
  dialect(): DialectState;
  /** Starts from `preset` when given (else the current dialect) and sets the knobs given. */
  updateDialect(patch: DialectPatch): DialectState;
}

export function controlsAdmin(ctx: ProtocolsContext): ControlsAdmin {
  const dialect = (): DialectState => ({ preset: presetName(ctx.dialect), dialect: { ...ctx.dialect } });
  return {
    settings: () => copySettings(ctx.settings),
    updateSettings: (patch) => updateSettings(ctx, patch),
    resetRateLimits: () => ctx.limits.reset(),
    dialect,
    updateDialect(patch) {
      ctx.dialect = applyDialectPatch(ctx.dialect, parseInput(dialectPatchSchema, patch));
      return dialect();
    },
  };
}

function updateSettings(ctx: ProtocolsContext, patch: SettingsPatch): ProtocolsSettings {
  const data = parseInput(settingsPatchSchema, patch);
  if (data.browserSessionUser) ctx.store.requireUser(data.browserSessionUser);
  const { rateLimits, ...rest } = data;
  for (const [name, value] of Object.entries(rest)) {
    if (value !== undefined) Object.assign(ctx.settings, { [name]: value });
  }
  if (rateLimits) {
    for (const [name, value] of Object.entries(rateLimits)) {
      if (value !== undefined) Object.assign(ctx.settings.rateLimits, { [name]: value });
    }
    ctx.limits.apply(ctx.settings.rateLimits);
  }
  return copySettings(ctx.settings);
}

function copySettings(settings: ProtocolsSettings): ProtocolsSettings {
  return { ...settings, rateLimits: { ...settings.rateLimits } };
}

// A small service built on core alone (no remote), to exercise what example_mcp does not use:
// progress, log levels, reading a resource from a tool, generic inputs, toolsets and read-only mode.

import { z } from "zod";
import { ActionableError } from "../../packages/lab-mcp/src/core/errors.js";
import { boundedInteger, boundedString, stringList } from "../../packages/lab-mcp/src/core/inputs.js";
import { json } from "../../packages/lab-mcp/src/core/render.js";
import { defineResource } from "../../packages/lab-mcp/src/core/resource.js";
import type { ServiceDefinition } from "../../packages/lab-mcp/src/core/start/service.js";
import { defineTool, reply } from "../../packages/lab-mcp/src/core/tool.js";

type Notes = Map<string, string>;
const READ = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

const echo = defineTool({
  name: "probe_echo",
  title: "Echo",
  description: "Returns its validated arguments as JSON, to show what validation made of them.",
  annotations: READ,
  toolset: "reading",
  input: {
    text: boundedString({ description: "A required string of 1 to 100 characters.", max: 100 }),
    count: boundedInteger({ description: "An optional integer of 0 to 1000.", min: 0, max: 1000 }).optional(),
    tags: stringList({ description: "An optional list of at most 10 strings." }),
  },
  output: { text: z.string(), count: z.number().int().optional(), tags: z.array(z.string()) },
  async handler(args) {
    return reply(args, json(args));
  },
});

const report = defineTool({
  name: "probe_report",
  title: "Report",
  description: "Reports progress, logs at three levels and reads a note resource by URI, then returns it.",
  annotations: READ,
  toolset: "reading",
  input: { name: boundedString({ description: "Name of the note to read.", max: 40 }) },
  output: { server: z.string(), note: z.string() },
  async handler({ name }, ctx) {
    await ctx.progress(0.25, "started");
    await ctx.log("debug", "a debug line");
    await ctx.log("info", "an info line", { note: name });
    await ctx.progress(0.5, "reading the note");
    const note = await ctx.readResource(`probe://notes/${encodeURIComponent(name)}`);
    await ctx.log("error", "an error line");
    await ctx.progress(1, "done");
    return reply({ server: ctx.serverName, note }, `${ctx.serverName}: ${note}`);
  },
});

const write = defineTool({
  name: "probe_write_note",
  title: "Write a note",
  description: "Stores a note under a name, replacing any note of that name.",
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  toolset: "writing",
  input: {
    name: boundedString({ description: "Name of the note.", max: 40 }),
    text: boundedString({ description: "Text of the note.", max: 1000 }),
  },
  output: { name: z.string() },
  async handler({ name, text }, _ctx, notes: Notes) {
    notes.set(name, text);
    return reply({ name }, `Stored note ${name}`);
  },
});

const signIn = defineTool({
  name: "probe_sign_in",
  title: "Sign in",
  description: "Asks the user for a passphrase on a local page and says whether one arrived.",
  annotations: READ,
  toolset: "reading",
  input: {},
  output: { characters: z.number().int(), remember: z.boolean() },
  async handler(_args, ctx) {
    const answer = await ctx.askForSecret({
      message: "The probe needs your passphrase.",
      title: "Probe sign-in",
      label: "Passphrase",
      offerRemember: true,
    });
    if (!answer)
      throw new ActionableError("No passphrase given. Set PROBE_PASSPHRASE and restart the server.");
    const got = { characters: answer.secret.length, remember: answer.remember };
    return reply(got, `Got a passphrase of ${got.characters} characters; remember: ${got.remember}`);
  },
});

const noteResource = defineResource({
  name: "note",
  uriTemplate: "probe://notes/{name}",
  title: "Note",
  description: "One stored note.",
  mimeType: "text/plain",
  params: { name: boundedString({ description: "Name of the note.", max: 40 }) },
  async read({ name }, _ctx, notes: Notes) {
    return notes.get(name) ?? `(no note named ${name})`;
  },
});

export const probeService: ServiceDefinition<Notes> = {
  id: "probe",
  serverName: "probe_mcp",
  version: "0.0.0",
  instructions: "Test service.",
  settings: z.object({}),
  toolsets: { reading: "Reading tools", writing: "Writing tools" },
  tools: [echo, report, write, signIn],
  resources: [noteResource],
  createService: () => new Map([["lab book", "Buffer A: 50 mM Tris"]]),
};

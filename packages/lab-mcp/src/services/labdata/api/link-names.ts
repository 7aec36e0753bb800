// The names of the records an entry links to, for "Name (id)": the platform sends a link's id and type
// but not its name. At most MAX_LOOKUPS reads, five at a time; a record that cannot be read (gone, not
// yours) keeps its "type id" label instead of failing the whole entry; after a timeout or a 429 the
// remaining names are not read.

import { RemoteStatusError, RemoteTimeoutError } from "../../../core/errors.js";
import type { LabdataCall } from "../call.js";
import type { LabdataClient } from "../client.js";
import { runLabel } from "../format/assay-markdown.js";
import type { LinkNames } from "../format/entry-markdown.js";
import { linkedIds } from "../format/entry-markdown.js";
import type { Entry } from "../records/notebook.js";
import { getAssayRun, getAssaySchema } from "./assays.js";
import { getEntry } from "./notebook.js";

const MAX_LOOKUPS = 20;
const AT_ONCE = 5;

function isBusy(error: unknown): boolean {
  return error instanceof RemoteTimeoutError || (error instanceof RemoteStatusError && error.status === 429);
}

export async function linkNames(client: LabdataClient, entry: Entry, ctx: LabdataCall): Promise<LinkNames> {
  const ids = linkedIds(entry);
  const lookups: Array<[string, () => Promise<string | null | undefined>]> = [
    ...ids.sequences.map((id): [string, () => Promise<string | null | undefined>] => [
      id,
      async () => (await client.getSequence(id, ctx)).name,
    ]),
    ...ids.entries.map((id): [string, () => Promise<string | null | undefined>] => [
      id,
      async () => (await getEntry(client, id, ctx)).name,
    ]),
    ...ids.runs.map((id): [string, () => Promise<string | null | undefined>] => [
      id,
      async () => runLabel(await getAssayRun(client, id, ctx)),
    ]),
    ...ids.resultSchemas.map((id): [string, () => Promise<string | null | undefined>] => [
      id,
      async () => (await getAssaySchema(client, "result", id, ctx)).name,
    ]),
  ].slice(0, MAX_LOOKUPS);
  const names: LinkNames = new Map();
  for (let i = 0; i < lookups.length; i += AT_ONCE) {
    const batch = lookups.slice(i, i + AT_ONCE);
    const settled = await Promise.allSettled(batch.map(([, read]) => read()));
    settled.forEach((outcome, j) => {
      const id = batch[j]?.[0];
      if (id && outcome.status === "fulfilled" && outcome.value) names.set(id, outcome.value);
    });
    // A platform that is slow or limiting us now would make the entry wait for every remaining name.
    if (settled.some((outcome) => outcome.status === "rejected" && isBusy(outcome.reason))) break;
  }
  return names;
}

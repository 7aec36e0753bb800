// What a scientist names a storage by: its id (box_, plt_, loc_), the address of its page, or its name
// ("-80 °C Freezer A"). A name is looked up among locations, boxes and plates: exactly first, then as a
// part of a name; more than one match is refused with the candidates, so that the agent picks.
import { InvalidInputError } from "../../core/errors.js";
import { ID_CHARACTERS } from "../../core/inputs.js";
import { oneLine } from "../../core/untrusted-text.js";
import { listStorages, type StorageKind, storageKindOf } from "./api/inventory.js";
import type { LabdataCall } from "./call.js";
import type { LabdataClient } from "./client.js";
import { nameAndId } from "./format/labels.js";
import { howMany } from "./list-page.js";
import { type IdKind, idFromPasted } from "./pasted-id.js";
import type { Storage } from "./records/registry.js";

const STORAGE: IdKind = { name: "a box, plate or location", prefixes: ["box", "plt", "loc"] };
const KINDS: StorageKind[] = ["location", "box", "plate"];
/** Candidates named in a refusal at most. */
const MAX_CANDIDATES = 10;

export async function resolveStorage(
  client: LabdataClient,
  tool: string,
  named: string,
  ctx: LabdataCall,
): Promise<{ kind: StorageKind; id: string }> {
  if (/^https?:\/\//i.test(named)) {
    const found = idFromPasted(named, STORAGE);
    if ("why" in found) throw new InvalidInputError(`Error: Invalid input for ${tool}: id: ${found.why}.`);
    return { kind: storageKindOf(found.id) as StorageKind, id: found.id };
  }
  const kind = storageKindOf(named);
  if (kind && ID_CHARACTERS.test(named)) return { kind, id: named };
  let found = await byName(client, { name: named }, ctx);
  if (found.total === 0) found = await byName(client, { nameIncludes: named }, ctx);
  const { matches } = found;
  const [only] = matches;
  if (found.total === 1 && only) return only;
  if (matches.length === 0) {
    throw new InvalidInputError(
      oneLine(
        `Error: Invalid input for ${tool}: id: no location, box or plate you may see is named '${named}'.`,
      ),
    );
  }
  const names = matches
    .slice(0, MAX_CANDIDATES)
    .map((m) => `${nameAndId(m.storage.name, m.id)} [${m.storage.schema?.name ?? m.kind}]`);
  throw new InvalidInputError(
    oneLine(
      `Error: Invalid input for ${tool}: id: '${named}' names ${howMany(found)} storages; give one's id: ${names.join(", ")}.`,
    ),
  );
}

async function byName(
  client: LabdataClient,
  filter: { name: string } | { nameIncludes: string },
  ctx: LabdataCall,
): Promise<{ matches: Match[]; total: number; exact: boolean }> {
  const matches: Match[] = [];
  let total = 0;
  let exact = true;
  for (const kind of KINDS) {
    const page = await listStorages(client, kind, filter, 0, MAX_CANDIDATES, ctx);
    for (const storage of page.items) if (storage.id) matches.push({ kind, id: storage.id, storage });
    total += page.total;
    exact &&= page.exact;
  }
  return { matches, total, exact };
}

interface Match {
  kind: StorageKind;
  id: string;
  storage: Storage;
}

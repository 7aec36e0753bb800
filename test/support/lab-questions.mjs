// @ts-check
// A fixed set of a lab's questions and the scripted tool path an agent takes to answer each, on the
// default surfaces of labdata_mcp and protocols_mcp against the emulators' demo data (Mira Patel on the
// lab data platform, Ada Okafor on the protocol repository). Later arguments come from earlier answers
// (their structured copy, or the text the agent reads), never from ids known in advance; what an answer
// must contain comes from the emulators' seed. Read by the bench (bench/lab-questions.bench.mjs: calls,
// remote requests and tokens per question) and by a test (test/conventions/lab-questions.test.ts: the
// paths still answer). A .mjs file so that the bench runs it on plain Node.
//
// A path that `needs` inputs no tool offers yet (e.g. a created-date filter) is not run: it is reported
// as "no path" with its reason, and runs by itself once the surface lists those inputs. A path that
// `needs` a behaviour (no new input) runs, and its failure is reported as "no path" rather than a failure.

/**
 * @import { DemoData } from "../../packages/emulators/src/labdata/index.js"
 * @import { ProtocolsEmulator } from "../../packages/emulators/src/protocols/index.js"
 * @import { LabdataToolName } from "../../packages/lab-mcp/src/services/labdata/index.js"
 * @import { ProtocolsToolName } from "../../packages/lab-mcp/src/services/protocols/index.js"
 */

/** @typedef {LabdataToolName | ProtocolsToolName} ToolName */

/**
 * @typedef {object} Agent
 * @property {(name: ToolName, args?: Record<string, unknown>) => Promise<{ text: string, data: any }>} call
 *   one tool call: the text the agent reads and the structured copy (throws on an error result)
 */

/**
 * @typedef {object} Need
 * @property {string} what what the path needs that today's surface may lack
 * @property {Array<[tool: ToolName, input: string, value?: string]>} [inputs] tool inputs (or an enum
 *   value of one) the path uses: it runs only when the surface lists them all
 */

/**
 * @typedef {object} Path
 * @property {string} name e.g. "tools", "warehouse", "REST paging (json)"
 * @property {(agent: Agent, seed: LabSeed) => Promise<string>} run the answer the agent gives
 * @property {(seed: LabSeed) => string[]} expect what the answer must contain
 * @property {Need} [needs]
 * @property {true} [heavy] reads thousands of records: the bench runs it, the test does not
 */

/**
 * @typedef {object} Question
 * @property {string} id
 * @property {"labdata" | "protocols"} server
 * @property {string} question
 * @property {Path[]} paths
 */

/**
 * @typedef {object} LabSeed what the answers are checked against: the emulators' demo data
 * @property {{ name: string, email: string }} labUser the lab data platform's user (Mira Patel)
 * @property {{ name: string }} protocolsUser the protocol repository's user (the client token's owner)
 * @property {string} today the demo's "today" (2025-06-30)
 * @property {string} shRna3Insert bases found in pLKO-shRNA-3 only
 * @property {number} sequencesCreatedInMay DNA sequences of Plasmid Library created in May 2025, live
 * @property {number[]} danaRunsInMay numbers of the assay runs Dana Whitfield created in May 2025
 * @property {{ steps: number, titles: string[] }} shortestRnaExtraction the fewest steps of the public
 *   protocols titled "RNA extraction from ...", and the titles that have them
 * @property {{ id: number, title: string, centrifugeSteps: number[] }} protocol a public protocol, and
 *   which of its steps (1-based) say centrifuge in their instruction
 */

/**
 * The seed facts, read from the emulators (their demo data, their API as the demo user, the protocol
 * repository's store), not through the tools.
 * @param {object} from
 * @param {DemoData} from.labdataDemo the lab data emulator's `demo`
 * @param {ProtocolsEmulator} from.protocolsEmulator the protocol repository emulator (its `demo` and `admin`)
 * @param {(path: string) => Promise<any>} from.getJson a GET of the lab data platform's API as the demo
 *   user, e.g. "/dna-sequences?pageSize=100": the parsed JSON body
 * @returns {Promise<LabSeed>}
 */
export async function labSeed({ labdataDemo, protocolsEmulator, getJson }) {
  /**
   * Every item of a list of the platform's API, following nextToken (bounded).
   * @param {string} path
   * @param {string} key
   * @returns {Promise<any[]>}
   */
  const every = async (path, key) => {
    const items = [];
    let nextToken = "";
    for (let page = 0; page < 100; page++) {
      const body = await getJson(
        `${path}&pageSize=100${nextToken ? `&nextToken=${encodeURIComponent(nextToken)}` : ""}`,
      );
      items.push(...body[key]);
      nextToken = body.nextToken;
      if (!nextToken) break;
    }
    return items;
  };
  const inMay = (/** @type {unknown} */ iso) => String(iso).startsWith("2025-05");
  const sequences = await every(
    `/dna-sequences?projectId=${labdataDemo.projects["Plasmid Library"]}`,
    "dnaSequences",
  );
  const runs = [];
  for (const schema of ["Plate Reader Run", "NGS Amplicon Run"])
    runs.push(
      ...(await every(`/assay-runs?schemaId=${labdataDemo.notebook.assaySchemas[schema]}`, "assayRuns")),
    );
  const demo = protocolsEmulator.demo;
  if (!demo) throw new Error("the protocol repository emulator has no demo data");
  const { sampleProtocol } = demo;
  const stored = protocolsEmulator.admin.protocol(String(sampleProtocol.id));
  if (!stored) throw new Error(`no protocol ${sampleProtocol.id}`);
  const owner = demo.users.find((u) => u.username === demo.application.owner);
  if (!owner) throw new Error("the client token's owner is not a demo user");
  // The repository's protocols have consecutive ids from 12001 (packages/emulators/src/protocols/store.ts).
  const rnaExtractions = [];
  for (let id = 12_001; id < 22_001; id++) {
    const found = protocolsEmulator.admin.protocol(String(id));
    if (!found) break;
    if (found.public && found.title.startsWith(RNA_EXTRACTION))
      rnaExtractions.push({ title: found.title, steps: found.steps.length });
  }
  const fewest = Math.min(...rnaExtractions.map((p) => p.steps));
  return {
    labUser: { name: labdataDemo.user.name, email: labdataDemo.user.email },
    protocolsUser: { name: owner.name },
    today: labdataDemo.notebook.today,
    shRna3Insert: labdataDemo.registry.shRna3Insert,
    sequencesCreatedInMay: sequences.filter((s) => inMay(s.createdAt)).length,
    danaRunsInMay: runs
      .filter((r) => r.creator?.id === labdataDemo.admin.id && inMay(r.createdAt))
      .map((r) => r.fields["Run number"].value)
      .sort((a, b) => a - b),
    shortestRnaExtraction: {
      steps: fewest,
      titles: rnaExtractions.filter((p) => p.steps === fewest).map((p) => p.title),
    },
    protocol: {
      id: sampleProtocol.id,
      title: sampleProtocol.title,
      // A step's instruction is its first paragraph; the notes after it (safety, timing) are not.
      centrifugeSteps: stored.steps.flatMap((step, i) =>
        /centrifug/i.test(step.text.split("\n\n")[0] ?? "") ? [i + 1] : [],
      ),
    },
  };
}

/**
 * Monday to Sunday of the week before `today` (YYYY-MM-DD).
 * @param {string} today
 */
export function lastWeek(today) {
  const day = new Date(`${today}T00:00:00Z`);
  const monday = new Date(day.getTime() - (((day.getUTCDay() + 6) % 7) + 7) * 86_400_000);
  const sunday = new Date(monday.getTime() + 6 * 86_400_000);
  return { from: monday.toISOString().slice(0, 10), to: sunday.toISOString().slice(0, 10) };
}

/**
 * The one item of `items` that `test` picks, or an error naming what was looked for.
 * @param {any[] | undefined} items
 * @param {(item: any) => boolean} test
 * @param {string} what
 */
function one(items, test, what) {
  const found = (items ?? []).filter(test);
  if (found.length !== 1) throw new Error(`expected one ${what}, found ${found.length}`);
  return found[0];
}

/**
 * "Found N ..." of a list answer's text.
 * @param {string} text
 */
function foundCount(text) {
  const match = /Found ([\d,]+) /.exec(text);
  if (!match?.[1]) throw new Error(`no "Found N" in: ${text.slice(0, 200)}`);
  return Number(match[1].replaceAll(",", ""));
}

/**
 * The id of a project by name, from labdata_list_projects.
 * @param {Agent} agent
 * @param {string} name
 */
async function projectId(agent, name) {
  const { data } = await agent.call("labdata_list_projects", {});
  return one(data?.projects, (p) => p.name === name, `project ${name}`).id;
}

/**
 * The id of an entity by its exact name, from labdata_search_entities.
 * @param {Agent} agent
 * @param {string} name
 */
async function entityId(agent, name) {
  const { data } = await agent.call("labdata_search_entities", { query: name });
  return one(data?.entities, (e) => e.name === name, `entity ${name}`).id;
}

/**
 * The rows of a warehouse answer: describe the tables a word matches, then query.
 * @param {Agent} agent
 * @param {string} word
 * @param {string} sql
 */
async function warehouse(agent, word, sql) {
  await agent.call("labdata_describe_warehouse", { search: word });
  return (await agent.call("labdata_query_warehouse", { sql })).text;
}

/**
 * The first data row's first cell of a markdown warehouse answer.
 * @param {string} text
 */
function firstCell(text) {
  const rows = text.split("\n").filter((line) => line.startsWith("| ") && !line.startsWith("| ---"));
  const cell = rows[1]?.split("|")[1]?.trim();
  if (cell === undefined) throw new Error(`no row in: ${text.slice(0, 200)}`);
  return cell;
}

/** How the seed's TRIzol protocols are titled (packages/emulators/src/protocols/demo/techniques.ts). */
const RNA_EXTRACTION = "RNA extraction from ";
const MAY = { from: "2025-05-01", to: "2025-05-31" };
const JUNE = { from: "2025-06-01", to: "2025-06-30" };
/**
 * The seed's assay runs: 1-9 on the plate reader, 10-18 NGS, run n created (19 - n) * 5 days before
 * "today" at 10:00, except run 12 on 2025-06-26; six results each (packages/emulators/src/labdata/demo/notebook.ts).
 */
const RESULTS_PER_RUN = 6;
/** @type {(seed: LabSeed, n: number) => string} */
const runDay = (seed, n) =>
  n === 12
    ? "2025-06-26"
    : new Date(Date.parse(`${seed.today}T10:00:00Z`) - (19 - n) * 5 * 86_400_000).toISOString().slice(0, 10);
/** @type {(seed: LabSeed, range: { from: string, to: string }) => number[]} */
const runsBetween = (seed, { from, to }) =>
  Array.from({ length: 18 }, (_, i) => i + 1).filter((n) => runDay(seed, n) >= from && runDay(seed, n) <= to);

/**
 * Plasmid Library's DNA sequences created in May 2025, counted by paging the whole list as json.
 * @param {Agent} agent
 * @param {Record<string, unknown>} extra more arguments of each page
 */
async function createdInMayByPaging(agent, extra) {
  const project_id = await projectId(agent, "Plasmid Library");
  let created = 0;
  let offset = 0;
  for (let page = 0; page < 100; page++) {
    const { text } = await agent.call("labdata_list_entities", {
      project_id,
      type: "dna_sequence",
      limit: 100,
      offset,
      response_format: "json",
      ...extra,
    });
    /** @type {{ entities: Array<{ createdAt?: string }>, has_more?: boolean, next_offset: number }} */
    const body = JSON.parse(text);
    created += body.entities.filter((e) => String(e.createdAt).startsWith("2025-05")).length;
    if (!body.has_more) break;
    offset = body.next_offset;
  }
  return String(created);
}

/** @type {Question[]} */
export const LAB_QUESTIONS = [
  {
    id: "who-am-i",
    server: "labdata",
    question: "Who am I signed in as?",
    paths: [
      {
        name: "tools",
        run: async (agent) => (await agent.call("labdata_get_current_user", {})).text,
        expect: (seed) => [seed.labUser.name, seed.labUser.email],
      },
    ],
  },
  {
    id: "where-sample",
    server: "labdata",
    question: "Where is the glycerol stock of pLKO-shRNA-3?",
    paths: [
      {
        name: "tools",
        run: async (agent) => {
          const id = await entityId(agent, "pLKO-shRNA-3");
          return (await agent.call("labdata_locate", { id })).text;
        },
        // The seed's glycerol stock: position C4 of box "Glycerol stocks GS-1" in -80 °C Freezer A.
        expect: () => ["pLKO-shRNA-3 glycerol stock", "C4", "Glycerol stocks GS-1", "-80 °C Freezer A"],
      },
    ],
  },
  {
    id: "last-week-runs",
    server: "labdata",
    question: "What did last week's assay runs measure?",
    paths: [
      {
        name: "tools",
        run: async (agent, seed) => {
          const week = lastWeek(seed.today);
          const { data } = await agent.call("labdata_list_assay_runs", {
            created: `${week.from}..${week.to}`,
          });
          const answers = [];
          for (const run of (data?.assay_runs ?? []).slice(0, 5)) {
            const number = run.fields?.["Run number"]?.value;
            answers.push((await agent.call("labdata_list_assay_results", { run: String(number) })).text);
          }
          return answers.join("\n");
        },
        expect: (seed) => [
          ...runsBetween(seed, lastWeek(seed.today)).map((n) => `NGS Amplicon Run ${n}`),
          `Found ${RESULTS_PER_RUN} results`,
          "Editing efficiency (%)",
        ],
      },
    ],
  },
  {
    id: "dana-request",
    server: "labdata",
    question: "What is the status of Dana's sequencing request?",
    paths: [
      {
        // Dana asked Mira (REQ003): the requests assigned to me, the one asked by Dana.
        name: "tools",
        run: async (agent) => {
          const { text } = await agent.call("labdata_list_requests", {});
          const items = text.split(/\n(?=- \*\*)/).filter((item) => item.startsWith("- **"));
          return one(items, (item) => /asked by Dana\b/.test(item), "request asked by Dana");
        },
        expect: () => ["REQ003", "status scheduled", "Whole-plasmid sequencing of batch 7"],
      },
    ],
  },
  {
    id: "freezer",
    server: "labdata",
    question: "What is in the -80 °C Freezer A?",
    paths: [
      {
        name: "tools",
        needs: {
          what: "a storage location found by name, with what it holds",
          inputs: [["labdata_get_box_contents", "id"]],
        },
        // The location by its name says what it holds and where; its containers, as it says, come from
        // labdata_list_containers on it.
        run: async (agent) => {
          const { text } = await agent.call("labdata_get_box_contents", { id: "-80 °C Freezer A" });
          const storage = /storage_id=(\S+?) lists/.exec(text)?.[1];
          if (!storage) return text;
          return `${text}\n${(await agent.call("labdata_list_containers", { storage_id: storage })).text}`;
        },
        expect: freezerA,
      },
      {
        name: "warehouse",
        run: (agent) =>
          warehouse(
            agent,
            "location",
            `WITH RECURSIVE inside(id) AS (
  SELECT id FROM location WHERE name = '-80 °C Freezer A'
  UNION ALL
  SELECT s.id FROM (
    SELECT id, parent_storage_id FROM location
    UNION ALL SELECT id, parent_storage_id FROM box
    UNION ALL SELECT id, parent_storage_id FROM plate
  ) s JOIN inside i ON s.parent_storage_id = i.id
)
SELECT coalesce(b.name, p.name) AS holder, c.position, c.name AS container, c.quantity_value, c.quantity_units
FROM container c LEFT JOIN box b ON b.id = c.parent_storage_id LEFT JOIN plate p ON p.id = c.parent_storage_id
WHERE c.parent_storage_id IN (SELECT id FROM inside) ORDER BY 1, 2`,
          ),
        expect: freezerA,
      },
    ],
  },
  {
    id: "my-tasks",
    server: "labdata",
    question: "What are my open tasks?",
    paths: [
      {
        name: "tools",
        run: async (agent) => (await agent.call("labdata_list_tasks", {})).text,
        // The seed's tasks of Mira, pending or in progress: TSK001, TSK002, TSK006.
        expect: () => ["Found 3 tasks", "TSK001", "TSK002", "TSK006"],
      },
    ],
  },
  {
    id: "sequences-in-may",
    server: "labdata",
    question: "How many DNA sequences were created in Plasmid Library in May 2025?",
    paths: [
      {
        name: "warehouse",
        run: async (agent) =>
          firstCell(
            await warehouse(
              agent,
              "dna_sequence",
              `SELECT count(*) AS created FROM dna_sequence s JOIN project p ON p.id = s.project_id WHERE p.name = 'Plasmid Library' AND s.created_at >= '${MAY.from}' AND s.created_at < '2025-06-01'`,
            ),
          ),
        expect: (seed) => [String(seed.sequencesCreatedInMay)],
      },
      {
        name: "tools",
        needs: {
          what: "a created-date filter on labdata_list_entities",
          inputs: [["labdata_list_entities", "created"]],
        },
        run: async (agent) => {
          const project_id = await projectId(agent, "Plasmid Library");
          const { text } = await agent.call("labdata_list_entities", {
            project_id,
            type: "dna_sequence",
            created: "2025-05",
            limit: 1,
          });
          return String(foundCount(text));
        },
        expect: (seed) => [String(seed.sequencesCreatedInMay)],
      },
      {
        name: "REST paging (json)",
        heavy: true,
        run: (agent) => createdInMayByPaging(agent, {}),
        expect: (seed) => [String(seed.sequencesCreatedInMay)],
      },
      {
        // The same, the json answer asked for the one field the count needs.
        name: "REST paging (json, fields)",
        heavy: true,
        needs: {
          what: "a fields selection for json answers",
          inputs: [["labdata_list_entities", "fields"]],
        },
        run: (agent) => createdInMayByPaging(agent, { fields: ["createdAt"] }),
        expect: (seed) => [String(seed.sequencesCreatedInMay)],
      },
    ],
  },
  {
    id: "bases",
    server: "labdata",
    question: "Which constructs contain the shRNA-3 hairpin (its bases pasted)?",
    paths: [
      {
        name: "tools",
        run: async (agent, seed) =>
          (await agent.call("labdata_search_dna_bases", { bases: seed.shRna3Insert })).text,
        expect: () => ["pLKO-shRNA-3"],
      },
    ],
  },
  {
    id: "entry-harvest",
    server: "labdata",
    question: "What does the Cas9 screen entry say about the harvest?",
    paths: [
      {
        name: "tools",
        run: async (agent) => {
          const { data } = await agent.call("labdata_list_entries", { name: "Cas9 screen" });
          const entry = one(data?.entries, (e) => /HEK293T/.test(e.name), "HEK293T screen entry");
          return (await agent.call("labdata_get_entry", { id: entry.id })).text;
        },
        // The seed's harvest day of the Cas9 screen.
        expect: () => ["2025-06-24: Harvest", "72 h after transfection", "QuickExtract"],
      },
    ],
  },
  {
    id: "entry-plate-10",
    server: "labdata",
    question: "What yields did plate 10 of 'Plasmid library QC – batch 7' give?",
    paths: [
      {
        // A long entry comes in parts: read on from next_offset until plate 10.
        name: "tools",
        run: async (agent) => {
          const { data } = await agent.call("labdata_list_entries", { name: "Plasmid library QC" });
          const entry = one(data?.entries, (e) => /batch 7/.test(e.name), "batch 7 entry");
          let offset = 0;
          for (let part = 0; part < 20; part++) {
            const answer = await agent.call("labdata_get_entry", { id: entry.id, offset });
            const at = answer.text.indexOf("plate 10");
            if (at >= 0) return answer.text.slice(at);
            if (answer.data?.next_offset === undefined) break;
            offset = answer.data.next_offset;
          }
          return "";
        },
        // The seed's tenth day: "Batch 7, plate 10" with a table "Plate 10 yields" of 12 plasmids.
        expect: () => ["plate 10", "Plate 10 yields", "Concentration (ng/µL)"],
      },
    ],
  },
  {
    id: "run-12-results",
    server: "labdata",
    question: "What are the results of assay run 12?",
    paths: [
      {
        name: "tools",
        run: async (agent) => (await agent.call("labdata_list_assay_results", { run: "12" })).text,
        expect: () => ["NGS Amplicon Run 12", `Found ${RESULTS_PER_RUN} results`, "Editing efficiency (%)"],
      },
    ],
  },
  {
    id: "results-in-june",
    server: "labdata",
    question: "How many assay results were recorded in June 2025?",
    paths: [
      {
        name: "tools",
        run: async (agent) =>
          String(
            foundCount(
              (
                await agent.call("labdata_list_assay_results", {
                  created: "2025-06",
                  limit: 1,
                })
              ).text,
            ),
          ),
        expect: (seed) => [String(runsBetween(seed, JUNE).length * RESULTS_PER_RUN)],
      },
      {
        name: "warehouse",
        run: async (agent) =>
          firstCell(
            await warehouse(
              agent,
              "result",
              `SELECT (SELECT count(*) FROM editing_efficiency WHERE created_at >= '${JUNE.from}' AND created_at < '2025-07-01') + (SELECT count(*) FROM plasmid_yield WHERE created_at >= '${JUNE.from}' AND created_at < '2025-07-01') AS results`,
            ),
          ),
        expect: (seed) => [String(runsBetween(seed, JUNE).length * RESULTS_PER_RUN)],
      },
    ],
  },
  {
    id: "runs-by-dana",
    server: "labdata",
    question: "Which assay runs did Dana create in May 2025?",
    paths: [
      {
        name: "tools",
        needs: {
          what: "runs listed by creation date and by their creator's name",
          inputs: [
            ["labdata_list_assay_runs", "created"],
            ["labdata_list_assay_runs", "creator"],
          ],
        },
        run: async (agent) =>
          (
            await agent.call("labdata_list_assay_runs", {
              creator: "Dana Whitfield",
              created: "2025-05",
              limit: 100,
            })
          ).text,
        expect: (seed) => seed.danaRunsInMay.map((n) => `| ${n} |`),
      },
      {
        name: "warehouse",
        run: (agent) =>
          warehouse(
            agent,
            "run",
            `SELECT r.run_number FROM plate_reader_run r JOIN "user" u ON u.id = r.creator_id WHERE u.name = 'Dana Whitfield' AND r.created_at >= '${MAY.from}' AND r.created_at < '2025-06-01' ORDER BY 1`,
          ),
        expect: (seed) => seed.danaRunsInMay.map((n) => `| ${n} |`),
      },
    ],
  },
  {
    id: "projects-folders",
    server: "labdata",
    question: "What projects and folders can I see?",
    paths: [
      {
        name: "tools",
        run: async (agent) => {
          const { data, text } = await agent.call("labdata_list_projects", {});
          const answers = [text];
          for (const project of (data?.projects ?? []).slice(0, 10))
            answers.push((await agent.call("labdata_list_folders", { project_id: project.id })).text);
          return answers.join("\n");
        },
        // Mira's memberships in the seed: Plasmid Library, and the Protein Engineering team's projects.
        expect: () => [
          "Plasmid Library",
          "Cas9 Engineering",
          "Antibody Discovery",
          "Backbones",
          "Guide RNAs",
          "Lead Candidates",
        ],
      },
    ],
  },
  {
    id: "genbank",
    server: "labdata",
    question: "Export pLKO-shRNA-3 as GenBank.",
    paths: [
      {
        name: "tools",
        run: async (agent) => {
          const id = await entityId(agent, "pLKO-shRNA-3");
          return (await agent.call("labdata_export_dna_sequence", { id, format: "genbank" })).text;
        },
        expect: () => ["LOCUS", "pLKO-shRNA-3", "ORIGIN"],
      },
      {
        name: "tools, by registry id",
        run: async (agent) =>
          (await agent.call("labdata_export_dna_sequence", { id: "PL09003", format: "genbank" })).text,
        expect: () => ["LOCUS", "pLKO-shRNA-3", "ORIGIN"],
      },
    ],
  },
  {
    id: "rna-protocol",
    server: "protocols",
    question: "Which protocol should I use for RNA extraction?",
    paths: [
      {
        name: "tools",
        run: async (agent) => {
          const { data } = await agent.call("protocols_search", { keyword: "RNA extraction", limit: 10 });
          const first = data?.protocols?.[0];
          if (!first) throw new Error("no protocol found");
          return `${first.title} (${first.id}), ${first.number_of_steps} steps`;
        },
        expect: () => ["RNA extraction"],
      },
    ],
  },
  {
    id: "fewest-steps",
    server: "protocols",
    question: "Which RNA extraction protocol has the fewest steps?",
    paths: [
      {
        // Every match of the search, its step count read from each.
        name: "tools",
        run: async (agent) => {
          /** @type {Array<{ title: string, number_of_steps: number }>} */
          const found = [];
          let offset = 0;
          for (let page = 0; page < 10; page++) {
            const { data } = await agent.call("protocols_search", {
              keyword: "RNA extraction",
              limit: 50,
              offset,
            });
            found.push(...(data?.protocols ?? []));
            if (!data?.has_more) break;
            offset = data.next_offset;
          }
          const candidates = found.filter((p) => p.title.startsWith(RNA_EXTRACTION));
          const fewest = candidates.sort((a, b) => a.number_of_steps - b.number_of_steps)[0];
          return fewest ? `${fewest.title}, ${fewest.number_of_steps} steps` : "";
        },
        expect: shortestRnaExtraction,
      },
      {
        name: "tools, ordered by steps",
        needs: {
          what: "protocol search ordered by step count",
          inputs: [["protocols_search", "order", "fewest_steps"]],
        },
        run: async (agent) => {
          const { data } = await agent.call("protocols_search", {
            keyword: "RNA extraction from",
            order: "fewest_steps",
            limit: 5,
          });
          const first = (data?.protocols ?? []).find((/** @type {{ title: string }} */ p) =>
            p.title.startsWith(RNA_EXTRACTION),
          );
          return first ? `${first.title}, ${first.number_of_steps} steps` : "";
        },
        expect: shortestRnaExtraction,
      },
    ],
  },
  {
    id: "centrifuge-steps",
    server: "protocols",
    question: "Which steps of protocol N (its id given) use the centrifuge?",
    paths: [
      {
        // Every step, read page by page; the agent picks the steps whose instruction (the step's first
        // paragraph, before its notes) says centrifuge.
        name: "tools",
        run: async (agent, seed) => {
          const steps = [];
          let offset = 0;
          for (let page = 0; page < 20; page++) {
            const { text, data } = await agent.call("protocols_get_protocol", {
              protocol: String(seed.protocol.id),
              part: "steps",
              offset,
            });
            steps.push(...text.matchAll(/\*\*Step (\d+)\.\*\*\n> (.*)/g));
            if (!data?.has_more) break;
            offset = data.next_offset;
          }
          const found = steps.filter((match) => /centrifug/i.test(match[2] ?? "")).map((match) => match[1]);
          return `steps ${found.join(", ")}`;
        },
        expect: (seed) => [`steps ${seed.protocol.centrifugeSteps.join(", ")}`],
      },
      {
        name: "tools, find a word",
        needs: {
          what: "a word found inside one protocol",
          inputs: [["protocols_get_protocol", "find"]],
        },
        run: async (agent, seed) =>
          (
            await agent.call("protocols_get_protocol", {
              protocol: String(seed.protocol.id),
              find: "centrifuge",
            })
          ).text,
        expect: (seed) => seed.protocol.centrifugeSteps.map((n) => `Step ${n}`),
      },
    ],
  },
  {
    id: "protocol-pdf",
    server: "protocols",
    question: "Give me the protocol as a PDF.",
    paths: [
      {
        name: "tools",
        run: async (agent, seed) =>
          (await agent.call("protocols_download_pdf", { protocol: String(seed.protocol.id) })).text,
        expect: (seed) => ["PDF saved", seed.protocol.title],
      },
    ],
  },
  {
    id: "greek",
    server: "protocols",
    question: "Is there an ELISA protocol for TNF-α?",
    paths: [
      {
        name: "tools",
        run: async (agent) => (await agent.call("protocols_search", { keyword: "TNF-α ELISA" })).text,
        // The seed's ELISA protocols spell it "TNF-alpha".
        expect: () => ["TNF-alpha"],
      },
    ],
  },
  {
    id: "protocols-me",
    server: "protocols",
    question: "Who am I on the protocol repository, and what are my protocols?",
    paths: [
      {
        name: "tools",
        run: async (agent) =>
          [
            (await agent.call("protocols_get_profile", {})).text,
            (await agent.call("protocols_list_my_protocols", {})).text,
          ].join("\n"),
        expect: (seed) => [seed.protocolsUser.name, "protocols of yours"],
      },
    ],
  },
];

/**
 * The fewest steps, and the title when one protocol alone has them.
 * @param {LabSeed} seed
 */
function shortestRnaExtraction(seed) {
  const { steps, titles } = seed.shortestRnaExtraction;
  return [`, ${steps} steps`, ...(titles.length === 1 ? titles : [])];
}

/** Protein aliquots on Freezer A's shelf, glycerol stocks in its rack (the seed's storage tree). */
function freezerA() {
  return ["Glycerol stocks GS-1", "pLKO-shRNA-3 glycerol stock", "Protein aliquots PA-1"];
}

/**
 * The inputs a path needs that `tools` (a tools/list answer) lacks, as "tool.input" or "tool.input=value".
 * @param {Path} path
 * @param {Array<{ name: string, inputSchema: { properties?: Record<string, any> } }>} tools
 */
export function missingInputs(path, tools) {
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  return (path.needs?.inputs ?? [])
    .filter(([tool, input, value]) => {
      const property = byName.get(tool)?.inputSchema?.properties?.[input];
      if (!property) return true;
      return value !== undefined && !(property.enum ?? []).includes(value);
    })
    .map(([tool, input, value]) => `${tool}.${input}${value === undefined ? "" : `=${value}`}`);
}

/**
 * The expected strings the answer lacks; a path with nothing to check is an error, not a pass.
 * @param {Path} path
 * @param {LabSeed} seed
 * @param {string} answer
 */
export function missingFromAnswer(path, seed, answer) {
  const expected = path.expect(seed);
  if (expected.length === 0) throw new Error(`${path.name}: the seed gives nothing to check the answer by`);
  return expected.filter((value) => !answer.includes(value));
}

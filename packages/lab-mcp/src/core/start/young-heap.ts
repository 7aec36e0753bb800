// Imported first by every bin, before the SDK, zod and the services load. Start-up builds objects that
// live as long as the process (zod schemas, the tool list), and V8 grows its young generation while
// they survive its scavenges: to 32 MiB, kept committed while the server waits idle for its client.
// Held from growing (a server has 8 MiB of it after tools/list, 16 to 32 without: test/core/
// young-heap.test.ts), long-lived objects move to the old generation sooner. A call's
// objects die young whatever the size: measured over stdio, the CPU per call is the same for a single
// record (labdata_get_entity) and for a 50-item JSON page, and the resident memory after 1,000 calls is
// lower (bench/RESULTS.md, the entries of 2026-11-28).
import { setFlagsFromString } from "node:v8";

setFlagsFromString("--semi-space-growth-factor=1");

// The shape of a tool server with nothing of MCP and nothing of ours: a process that answers each
// JSON-RPC request by GETting the record from the remote (node:https, keep-alive) and putting its name
// in a result. labdata-overhead runs it as a floor: what two processes and one remote request cost
// before any SDK, validation or rendering. Not a benchmark itself (bench/run.mjs runs *.bench.mjs).
//
//   node bare-server.mjs stdio   one request per line on stdin, one answer per line on stdout
//   node bare-server.mjs http    POST / on a free loopback port; prints "listening on <url>" on stderr
//
// REMOTE_URL (the API's base, e.g. {tenant}/api/v2) and REMOTE_AUTHORIZATION come from the environment.
import { createServer } from "node:http";
import { Agent, request } from "node:https";
import { createInterface } from "node:readline";

const agent = new Agent({ keepAlive: true });
const headers = { authorization: process.env.REMOTE_AUTHORIZATION, accept: "application/json" };

function answer(message) {
  const id = message.params.arguments.id;
  return new Promise((resolve, reject) => {
    const outgoing = request(`${process.env.REMOTE_URL}/dna-sequences/${id}`, { agent, headers }, (res) => {
      const chunks = [];
      res.on("data", (chunk) => chunks.push(chunk));
      res.on("end", () => {
        const record = JSON.parse(Buffer.concat(chunks).toString("utf8"));
        const text = `# ${record.name} (${record.id})`;
        resolve(
          JSON.stringify({ jsonrpc: "2.0", id: message.id, result: { content: [{ type: "text", text }] } }),
        );
      });
      res.on("error", reject);
    });
    outgoing.on("error", reject);
    outgoing.end();
  });
}

if (process.argv[2] === "stdio") {
  createInterface({ input: process.stdin }).on("line", async (line) => {
    process.stdout.write(`${await answer(JSON.parse(line))}\n`);
  });
} else {
  const server = createServer((req, res) => {
    const chunks = [];
    req.on("data", (chunk) => chunks.push(chunk));
    req.on("end", async () => {
      const body = await answer(JSON.parse(Buffer.concat(chunks).toString("utf8")));
      res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(body) });
      res.end(body);
    });
  });
  server.listen(0, "127.0.0.1", () => {
    process.stderr.write(`listening on http://127.0.0.1:${server.address().port}/\n`);
  });
}

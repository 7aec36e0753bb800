// GET a small JSON document over HTTPS trusting given CAs: how the emulator reads an identity
// provider's discovery document and keys. Bounded in time and size.
import { request } from "node:https";

const TIMEOUT_MS = 5000;
const MAX_BYTES = 1024 * 1024;

export function getJson(url: string, ca: string[]): Promise<unknown> {
  return new Promise((resolve, reject) => {
    if (!url.startsWith("https://")) return reject(new Error("not an https URL"));
    const req = request(
      url,
      { method: "GET", ca, agent: false, timeout: TIMEOUT_MS, headers: { accept: "application/json" } },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on("data", (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_BYTES) req.destroy(new Error("response too large"));
          else chunks.push(chunk);
        });
        res.on("error", reject);
        res.on("end", () => {
          if (res.statusCode !== 200) return reject(new Error(`status ${res.statusCode}`));
          try {
            resolve(JSON.parse(Buffer.concat(chunks).toString("utf8")));
          } catch {
            reject(new Error("not JSON"));
          }
        });
      },
    );
    req.on("timeout", () => req.destroy(new Error("timed out")));
    req.on("error", reject);
    req.end();
  });
}

// What a client speaking plain HTTP gets from an emulator's HTTPS-only port: a request that fails, and
// raw bytes that never hold an HTTP answer.
import { request as httpRequest } from "node:http";
import { connect } from "node:net";

/** A plain-HTTP GET of `path` with `headers`: "response <status>" or "error <message>". */
export function plainHttpGet(port: number, path: string, headers: Record<string, string>): Promise<string> {
  return new Promise<string>((resolve) => {
    const req = httpRequest(`http://127.0.0.1:${port}${path}`, { headers, agent: false });
    req.on("response", (res) => resolve(`response ${res.statusCode}`));
    req.on("error", (error) => resolve(`error ${error.message}`));
    req.end();
  });
}

/** Everything the port sends back to `text` written on a bare socket, until it closes. */
export function rawExchange(port: number, text: string): Promise<string> {
  return new Promise<string>((resolve) => {
    const socket = connect(port, "127.0.0.1", () => socket.write(text));
    const chunks: Buffer[] = [];
    socket.on("data", (chunk: Buffer) => chunks.push(chunk));
    socket.on("error", () => undefined);
    socket.on("close", () => resolve(Buffer.concat(chunks).toString("latin1")));
  });
}

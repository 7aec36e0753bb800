// Successful API answers carry status_code 0 beside their data, as every answer of the real service does.
import type { ServerResponse } from "node:http";
import { sendJson } from "../common/http.js";
import { StatusCode } from "./api-errors.js";

export function sendOk(res: ServerResponse, body: Record<string, unknown>): void {
  sendJson(res, 200, { ...body, status_code: StatusCode.OK });
}

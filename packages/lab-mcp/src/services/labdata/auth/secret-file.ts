// A secret named by a *_FILE setting, read again on every use so that an outside refresher (or the
// operator) can rotate it without a restart. A missing, unreadable or empty file says what to fix.
import { readFile } from "node:fs/promises";
import { ActionableError } from "../../../core/errors.js";

export async function readSecretFile(path: string, setting: string, whenEmpty: string): Promise<string> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? "unreadable";
    throw new ActionableError(`Cannot read ${setting} (${code}). Check the path and its permissions.`);
  }
  const secret = text.trim();
  if (!secret) throw new ActionableError(`${setting} is empty. ${whenEmpty}`);
  return secret;
}

// Types of client-install.mjs, for the tests that import it.
export interface InstallSetting {
  env: string;
  example: string;
  description: string;
  secret?: boolean;
}
export interface InstallableServer {
  name: string;
  bin: string;
  title: string;
  settings: InstallSetting[];
}
export const PACKAGE: string;
export const RUNNER: { command: string; args: string[] };
export const INSTALLABLE: InstallableServer[];
export function commandOf(server: InstallableServer): { command: string; args: string[] };
export function claudeCodeLine(server: InstallableServer): string;
export function vscodeLink(server: InstallableServer): string;
export function vscodeRedirect(link: string): string;
export function cursorLink(server: InstallableServer): string;
export function installTable(): string;

// omp-fscache's test harness: real oh-my-pi 18.2.3 sessions on Bun, made
// through omp's SDK (createAgentSession) with pi-ai's mock provider
// (createMockModel) scripted by the test; every request the provider
// receives is recorded (mock.calls[i].context), as omp's own tests do.
//
// This file lives in test/hosts so that its imports resolve to the hosts
// installed there (test/hosts/node_modules), never in the package's own
// resolution path (bindings/omp-fscache/node_modules, bindings/node_modules).
//
// The package is loaded as users load it: `omp plugin install <dir>` into a
// temporary HOME (test/run.mjs does it before this runs), then omp's plugin
// discovery finds it. HOME must be set before omp is imported.

import * as fs from "node:fs";
import * as path from "node:path";
import { createAgentSession, discoverAuthStorage, SessionManager, Settings } from "@oh-my-pi/pi-coding-agent";
import { createMockModel, registerMockApi } from "@oh-my-pi/pi-ai/providers/mock";

registerMockApi();

export { SessionManager, Settings };

export type Handler = (context: any) => any;

export interface Started {
  session: any;
  mock: any;
  sessionManager: any;
}

/**
 * A session in cwd whose model is handler. settings: "global" (omp's
 * default: Settings.init, the layer the package's override reaches) or an
 * object of overrides for Settings.isolated. sessionFile: resume it.
 * extensionPaths: load these instead of discovering the installed plugin.
 */
export async function startSession(opts: {
  cwd: string;
  handler: Handler;
  settings?: "global" | Record<string, unknown>;
  sessionDir?: string;
  sessionFile?: string;
  extensionPaths?: string[];
  /** Extensions loaded beside the discovered plugin (discovery stays on). */
  extraExtensionPaths?: string[];
  /** The session's tools (default: read and edit). */
  toolNames?: string[];
  /** The mock model's context window (default 200,000 tokens). */
  contextWindow?: number;
}): Promise<Started> {
  const home = process.env.HOME!;
  const agentDir = path.join(home, ".omp", "agent");
  fs.mkdirSync(agentDir, { recursive: true });
  const authStorage = await discoverAuthStorage(agentDir);
  authStorage.setRuntimeApiKey("mock", "mock-key");
  const mock = createMockModel({ handler: opts.handler, contextWindow: opts.contextWindow ?? 200_000 });
  const sessionManager = opts.sessionFile
    ? await SessionManager.open(opts.sessionFile, opts.sessionDir)
    : opts.sessionDir
      ? SessionManager.create(opts.cwd, opts.sessionDir)
      : SessionManager.inMemory(opts.cwd);
  const settings = opts.settings === undefined || opts.settings === "global" ? undefined : Settings.isolated(opts.settings as any);
  const { session } = await createAgentSession({
    cwd: opts.cwd,
    agentDir,
    model: mock.model,
    authStorage,
    sessionManager,
    ...(settings ? { settings } : {}),
    ...(opts.extensionPaths || opts.extraExtensionPaths ? { additionalExtensionPaths: [...(opts.extensionPaths ?? []), ...(opts.extraExtensionPaths ?? [])] } : {}),
    ...(opts.extensionPaths ? { disableExtensionDiscovery: true } : {}),
    enableMCP: false,
    enableLsp: false,
    hasUI: false,
    skipPythonPreflight: true,
    toolNames: opts.toolNames ?? ["read", "edit"],
  } as any);
  return { session, mock, sessionManager };
}

/** The paths of the extensions a session loaded (to check the installed plugin is one). */
export function loadedExtensionPaths(session: any): string[] {
  const runner = session.extensionRunner ?? session._extensionRunner;
  const exts = runner?.extensions ?? runner?.getExtensions?.() ?? [];
  return exts.map((e: any) => e.path ?? e.resolvedPath).filter(Boolean);
}

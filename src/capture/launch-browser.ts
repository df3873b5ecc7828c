/**
 * Starts Chromium for one capture: a fresh profile in a temporary directory
 * (deleted on close), service workers blocked, downloads refused, and only an
 * allow-list of environment variables handed to the browser process, so the
 * secrets' variables never reach it.
 */
import { existsSync, statSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import createDebug from "debug";
import { type BrowserContext, chromium } from "playwright-core";
import { type ResolvedBrowser, resolveBrowser } from "./resolve-browser.js";

const debug = createDebug("apptwin:capture");

/** The only environment variables the browser process receives. */
export const BROWSER_ENV_ALLOW_LIST = [
  "PATH",
  "HOME",
  "LANG",
  "LANGUAGE",
  "LC_ALL",
  "LC_CTYPE",
  "TZ",
  "DISPLAY",
  "WAYLAND_DISPLAY",
  "XDG_RUNTIME_DIR",
  "FONTCONFIG_PATH",
  "FONTCONFIG_FILE",
  "TMPDIR",
] as const;

/** Chromium switches every capture uses: no phoning home, no first-run UI, no GPU. */
export const BROWSER_ARGS = [
  "--disable-background-networking",
  "--disable-component-update",
  "--no-first-run",
  "--disable-sync",
  "--disable-gpu",
];

/** Copies only the allow-listed variables out of `env`. */
export function browserEnv(env: Record<string, string | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of BROWSER_ENV_ALLOW_LIST) {
    const v = env[name];
    if (v !== undefined) out[name] = v;
  }
  return out;
}

/** A running capture browser; `close()` ends it and deletes its profile. */
export interface LaunchedBrowser {
  context: BrowserContext;
  executable: ResolvedBrowser;
  profileDir: string;
  close(): Promise<void>;
}

/** Options of {@link launchBrowser}. */
export interface LaunchOptions {
  browser?: string | undefined;
  headed?: boolean | undefined;
  env?: Record<string, string | undefined>;
  /** HTTP Basic credentials, answered to the challenges of this origin only. */
  httpCredentials?: { username: string; password: string; origin: string } | undefined;
  /** The caller stops the browser on Ctrl+C itself (Playwright's SIGINT handler is then off). */
  ownSigint?: boolean;
}

function fileExists(p: string): boolean {
  try {
    return existsSync(p) && statSync(p).isFile();
  } catch {
    return false;
  }
}

function playwrightChromiumPath(): string | undefined {
  try {
    return chromium.executablePath();
  } catch {
    return undefined;
  }
}

/** What decides how the browser process starts. */
export interface BrowserProcessOptions {
  executablePath: string;
  headed?: boolean | undefined;
  isRoot: boolean;
  env: Record<string, string | undefined>;
}

/** The process options of a capture browser: headless unless `headed`, sandbox off only as root, allow-listed env. */
export function browserLaunchOptions(
  o: BrowserProcessOptions,
): NonNullable<Parameters<typeof chromium.launch>[0]> {
  return {
    executablePath: o.executablePath,
    headless: o.headed !== true,
    args: [...BROWSER_ARGS],
    chromiumSandbox: !o.isRoot,
    env: browserEnv(o.env),
  };
}

/** Resolves the browser in the documented order against the real file system and Playwright's own path (throws a UserError if none). */
export function findBrowser(
  flag: string | undefined,
  env: Record<string, string | undefined>,
): ResolvedBrowser {
  return resolveBrowser({ flag, env, playwrightPath: playwrightChromiumPath(), exists: fileExists });
}

/** The launch options of a capture browser: {@link browserLaunchOptions} plus a context with service workers and downloads off. */
export function persistentContextOptions(
  o: BrowserProcessOptions,
): NonNullable<Parameters<typeof chromium.launchPersistentContext>[1]> {
  return {
    ...browserLaunchOptions(o),
    serviceWorkers: "block",
    acceptDownloads: false,
    viewport: { width: 1280, height: 800 },
  };
}

/** Resolves the executable (throwing a UserError if none) and launches it with a throw-away profile. */
export async function launchBrowser(options: LaunchOptions = {}): Promise<LaunchedBrowser> {
  const env = options.env ?? process.env;
  const executable = findBrowser(options.browser, env);
  const profileDir = await mkdtemp(join(tmpdir(), "apptwin-profile-"));
  const isRoot = process.getuid?.() === 0;
  debug("launching %s (%s), profile %s", executable.path, executable.source, profileDir);
  let context: BrowserContext;
  try {
    context = await chromium.launchPersistentContext(profileDir, {
      ...persistentContextOptions({ executablePath: executable.path, headed: options.headed, isRoot, env }),
      ...(options.httpCredentials ? { httpCredentials: options.httpCredentials } : {}),
      // A caller that handles Ctrl+C itself stops the browser then; Playwright's own handler would kill it under
      // the running step and exit the process, which read as a bug.
      ...(options.ownSigint ? { handleSIGINT: false } : {}),
    });
  } catch (error) {
    await rm(profileDir, { recursive: true, force: true });
    throw error;
  }
  let closed = false;
  return {
    context,
    executable,
    profileDir,
    async close() {
      if (closed) return;
      closed = true;
      try {
        await context.close();
      } finally {
        await rm(profileDir, { recursive: true, force: true, maxRetries: 3 });
      }
    },
  };
}

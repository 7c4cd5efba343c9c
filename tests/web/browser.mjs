// What both browser tests share: starting a server that prints its
// loopback address, and Debian's headless Chromium with software WebGL.

import { spawn } from "node:child_process";
import { chromium } from "playwright-core";

/** Starts `command args` in `cwd`; resolves with the server and the
 * `http://127.0.0.1:PORT/` address it prints. */
export async function startServer(command, args, cwd) {
  const server = spawn(command, args, { cwd, stdio: ["ignore", "pipe", "inherit"] });
  const base = await new Promise((resolve, reject) => {
    let seen = "";
    server.stdout.on("data", (d) => {
      seen += d.toString();
      const m = /http:\/\/127\.0\.0\.1:\d+\//.exec(seen);
      if (m) resolve(m[0]);
    });
    server.on("exit", (code) => reject(new Error(`${command} exited (${code})`)));
  });
  return { server, base };
}

/** Headless Chromium (CHROMIUM, default /usr/bin/chromium) with WebGL on
 * SwiftShader; `extraArgs` are added to the command line. */
export function launchChromium(extraArgs = []) {
  return chromium.launch({
    executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      // WebGL without a GPU: ANGLE on SwiftShader (software).
      "--use-angle=swiftshader",
      "--enable-unsafe-swiftshader",
      ...extraArgs,
    ],
  });
}
